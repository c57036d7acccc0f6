// What a newcomer writes after Docs/GettingStarted.md: services behind protocols, a shared
// `.singleton`, a `@MainActor` view model with `@Injected` properties, and the wiring in
// `registerAll()`.
import DependencyStore

public protocol WeatherService: Sendable {
    func forecast(for city: String) -> String
}

public struct LiveWeather: WeatherService {
    public init() {}
    public func forecast(for city: String) -> String { "sunny in \(city)" }
}

public final class Settings: Sendable {
    public let city: String
    public init(city: String = "Lisbon") { self.city = city }
}

@MainActor
public final class WeatherViewModel {
    @Injected private var weather: WeatherService
    @Injected private var settings: Settings

    public init() {}

    public var headline: String { weather.forecast(for: settings.city) }
}

extension DependencyStore {
    public func registerAll() {
        register(LiveWeather(), for: WeatherService.self)
        register(Settings.self, scope: .singleton) { _ in Settings() }
        register(WeatherViewModel.self, on: MainActor.self) { _ in WeatherViewModel() }
    }
}
