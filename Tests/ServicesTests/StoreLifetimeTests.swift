import DependencyStore
import Foundation
import Services
import Testing

/// The app's own wiring does not keep stores alive: a store layered over `registerAll()` per
/// screen (or per test) is freed with everything it built, although the live price fetcher it
/// keeps reads the store through `@Injected` properties.
@Suite struct StoreLifetimeTests {
    @Test func storesLayeredOverTheLiveWiringAreFreedAfterUse() async throws {
        let live = DependencyStore()
        live.registerAll(ServicesConfiguration(environment: ["ACCESS_TOKEN": "sk-1234567890abf9c2"]))
        var children: [Weak] = []
        for _ in 0..<300 {
            let child = DependencyStore(parent: live)
            child.register(MockNetworking(body: sampleResponse), for: Networking.self)
            let report = try await child.resolve(PriceReport.self).make(currency: "USD")
            #expect(report.formattedPrice == "$15,840.01")
            children.append(Weak(child))
        }
        #expect(children.filter { $0.store != nil }.count == 0)
        #expect(live.reset(.singleton) == 0, "the children built their fetchers in themselves")
    }
}

private final class Weak {
    weak var store: DependencyStore?
    init(_ store: DependencyStore) { self.store = store }
}
