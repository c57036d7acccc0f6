// Types the app creates itself, which EntryPoint's sample names.
protocol Analytics {}
@MainActor final class WeatherModel {
    @Injected var analytics: Analytics
}
final class ReportPrinter {
    @Injected var analytics: Analytics
}
