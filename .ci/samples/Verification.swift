// Docs/Verification.md's tests verify the Services module's live wiring (its registerAll()); the
// other blocks assume the reader's own types.
import DependencyStore
import DependencyStoreTesting
import Foundation
import Services
import Testing

final class PriceView {
    init(currency: String) {}
}

final class Greeting {
    init(name: String, date: Date) {}
}

let store = DependencyStore()

protocol PaymentGateway {}
final class CheckoutModel {
    init(gateway: PaymentGateway) {}
}

// What a stopped build keeps: a factory with a lock of its own.
final class Disk {}
final class Journal {
    init(disk: Disk) {}
}
let journalLock = NSLock()

// Types the app creates itself, which "Entry points" names.
protocol Analytics {}
@MainActor final class WeatherModel {
    @Injected var analytics: Analytics
}
final class ReportPrinter {
    @Injected var analytics: Analytics
}
