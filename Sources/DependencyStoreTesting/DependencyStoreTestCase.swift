import DependencyStore
import Foundation
import XCTest

/// An `XCTestCase` whose every test runs against a store of its own, so test cases never see each
/// other's mocks, however they are scheduled.
///
/// ```swift
/// final class PriceReportTests: DependencyStoreTestCase {
///     override func registerDependencies(in store: DependencyStore) {
///         store.registerAll()                                                  // the live wiring,
///         store.register(MockNetworking(body: sample), for: Networking.self)   // with no network
///     }
///
///     func testReportsThePrice() async throws {
///         store.register(MockTokens(token: "sk-1234"), for: AccessTokenServiceType.self)  // this test only
///         let report = PriceReport()                                                     // binds to `store`
///         let made = try await report.make(currency: "USD")      // XCTAssert's arguments cannot await
///         XCTAssertEqual(made.formattedPrice, "$15,840.01")
///     }
/// }
/// ```
///
/// Each test gets a new store from ``makeStore()`` (empty, unless you override it to layer over
/// the live store), filled by ``registerDependencies(in:)``, and runs inside its `execute`:
/// `DependencyStore.shared` is ``store`` in the test, in `setUp`/`tearDown`, and in tasks an
/// `async` test creates.
///
/// > Note: That `execute` is the synchronous one, so its store is also current for whatever the
/// > main thread runs while the test is on it: main-queue blocks and timers that run when the test
/// > waits (XCTest's `wait(for:timeout:)` and the wait of an `async` test spin the run loop).
/// > Work left over from before the test is run first, against the store that was current
/// > before it; work other code schedules during the test binds to ``store``.
open class DependencyStoreTestCase: XCTestCase {
    private var currentStore: DependencyStore?

    /// The store of the test that is running.
    public var store: DependencyStore {
        guard let currentStore else {
            preconditionFailure("DependencyStoreTestCase.store is only available while a test runs")
        }
        return currentStore
    }

    /// Makes the store for one test: an empty one by default, named after the test in
    /// diagnostics ("the store of the test PriceReportTests.testReportsThePrice"), layered over
    /// ``fallbackStore`` when there is one. Override to return `DependencyStore(parent: .shared)`
    /// and keep the live registrations.
    open func makeStore() -> DependencyStore {
        DependencyStore(forTest: name, parent: fallbackStore)
    }

    /// A store of what a test that forgets a mock gets instead of a trap, or `nil` (the default)
    /// for none. When you return one, each test's store is layered over it, and each resolve
    /// answered by a registration of it is a failure of the test (once per type), which goes on
    /// with the fallback; the other tests still run and report. What neither store registers
    /// still traps, which ends the run.
    ///
    /// ```swift
    /// final class TokenTests: DependencyStoreTestCase {
    ///     override var fallbackStore: DependencyStore? { .fallbacks }   // your app's wiring, offline
    /// }
    /// ```
    open var fallbackStore: DependencyStore? { nil }

    /// Registers the dependencies every test of the class needs. Called once per test, on the
    /// fresh store, before `setUp`.
    open func registerDependencies(in store: DependencyStore) {}

    override open func invokeTest() {
        let store = makeStore()
        registerDependencies(in: store)
        // The test runs inside a synchronous execute, whose binding covers whatever the main
        // thread runs meanwhile: main-queue work left over from an earlier test would bind its
        // @Injected properties to this test's store the first time the test spins the run loop
        // (XCTest's wait does). Run it now, against the store that was current before the test.
        if Thread.isMainThread {
            RunLoop.main.run(until: Date())
        }
        currentStore = store
        let watch = fallbackStore.map { fallbacks in store.reportFallbacks(to: fallbacks) { XCTFail($0) } }
        defer {
            watch?.cancel()
            currentStore = nil
        }
        store.execute {
            super.invokeTest()
        }
    }
}
