import DependencyStore
import DependencyStoreTesting
import MyApp
import Testing
import XCTest

struct StubWeather: WeatherService {
    func forecast(for city: String) -> String { "stub for \(city)" }
}

@Test func theLiveWiringIsRight() async {
    let store = DependencyStore()
    store.registerAll()
    await expectVerifiedAsync(store)
}

@MainActor
@Test(.dependencyStore { store in
    store.registerAll()
    store.register(StubWeather(), for: WeatherService.self)
})
func theHeadlineUsesTheTestsWeather() {
    #expect(WeatherViewModel().headline == "stub for Lisbon")
}

final class WeatherViewModelTests: DependencyStoreTestCase {
    override func registerDependencies(in store: DependencyStore) {
        store.registerAll()
        store.register(StubWeather(), for: WeatherService.self)
    }

    @MainActor
    func testTheHeadlineUsesTheTestsWeather() {
        XCTAssertEqual(WeatherViewModel().headline, "stub for Lisbon")
    }

    func testTheLiveWiringIsRight() async {
        let live = DependencyStore()
        live.registerAll()
        await XCTAssertVerifiedAsync(live)
    }
}
