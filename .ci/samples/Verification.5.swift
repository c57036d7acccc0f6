// The app that "An example" wires wrong. CI also runs the example, as module App with the block as
// Wiring.swift, and compares what it prints with the report and the graph the guide shows: the
// #sourceLocation below puts PriceView's @Injected property at App/PriceView.swift:3, as shown.
import DependencyStore

protocol Networking {}
protocol Analytics {}

protocol PriceFetching {}
struct CoinbasePriceFetcher: PriceFetching {
    init(_ networking: Networking) {}
}

protocol UserRepository {}
final class LiveUserRepository: UserRepository {}

final class LogoutPresenter {
    init(_ repository: UserRepository) {}
}

final class AppCoordinator {
    init(_ prices: PriceFetching, _ logout: LogoutPresenter) {}
}

final class Session {
    init(_ tracker: SessionTracker) {}
}

final class SessionTracker {
    init(_ session: Session) {}
}

#sourceLocation(file: "PriceView.swift", line: 1)
final class PriceView {
    let currency: String
    @Injected var analytics: Analytics

    init(_ currency: String) {
        self.currency = currency
    }
}
#sourceLocation()
