import DependencyStore
import DependencyStoreTesting
import Foundation
import Testing
import XCTest

/// A service that is kept by its store and reads the store lazily: the shape that used to tie a
/// store and its instance together for ever.
final class Fetcher {
    @Injected var networking: String
    let deinits: Counter?
    init(deinits: Counter? = nil) { self.deinits = deinits }
    deinit { deinits?.increment() }
}

/// Weak references to what a scope created, checked once the scope has ended.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}

/// In an exit test's child: ends the process with status 3 and "HUNG" on stderr if it is still
/// running after `seconds`, so a deadlock fails the test instead of hanging the suite.
func endTheProcessIfItHangs(after seconds: Double = 20) {
    Thread.detachNewThread {
        Thread.sleep(forTimeInterval: seconds)
        FileHandle.standardError.write(Data("HUNG: still running after \(seconds) s\n".utf8))
        exit(3)
    }
}

@Suite struct LifetimeTests {
    @Test func aStoreWhoseSingletonHasAnInjectedPropertyIsFreedWithIt() {
        let deinits = Counter()
        var stores: [WeakBox<DependencyStore>] = []
        var fetchers: [WeakBox<Fetcher>] = []
        for _ in 0..<1_000 {
            do {
                let store = DependencyStore()
                store.register("net", for: String.self)
                store.register(Fetcher(deinits: deinits), for: Fetcher.self, scope: .singleton)
                let fetcher = store.resolve(Fetcher.self)
                stores.append(WeakBox(store))
                fetchers.append(WeakBox(fetcher))
            }
        }
        #expect(stores.filter { $0.object != nil }.count == 0)
        #expect(fetchers.filter { $0.object != nil }.count == 0)
        #expect(deinits.value == 1_000, "every kept instance's deinit ran")
    }

    @Test func childStoresSharingAnInheritedSingletonAreFreedAndTheParentKeepsNothingOfThem() {
        let parent = DependencyStore()
        parent.register("net", for: String.self)
        parent.register(Fetcher(), for: Fetcher.self, scope: .singleton)
        var children: [WeakBox<DependencyStore>] = []
        for _ in 0..<1_000 {
            do {
                let child = DependencyStore(parent: parent)
                let fetcher = child.resolve(Fetcher.self)
                #expect(fetcher.networking == "net")
                children.append(WeakBox(child))
            }
        }
        #expect(children.filter { $0.object != nil }.count == 0)
        #expect(parent.reset(.singleton) == 1, "the one Fetcher, the parent's, which every child shared")
    }

    @Test func aStoreThatIsNeverReadIsFreedToo() {
        // The kept instance's property is never read: it must not hold the store either.
        weak var leaked: DependencyStore?
        do {
            let store = DependencyStore()
            store.register(Fetcher(), for: Fetcher.self, scope: .singleton)
            _ = store.resolve(Fetcher.self)
            leaked = store
        }
        #expect(leaked == nil)
    }

    @Test func aKeptInstanceReadAfterItsStoreIsGoneStillResolvesFromItsRegistrations() {
        let fetcher: Fetcher = {
            let store = DependencyStore()
            store.register("net", for: String.self)
            store.register(Fetcher(), for: Fetcher.self, scope: .singleton)
            return store.resolve(Fetcher.self)
        }()
        #expect(fetcher.networking == "net")
    }

    @Test func aPropertyCreatedOutsideAFactoryKeepsItsStoreUntilItsFirstRead() {
        // `let model = store.execute { Model() }`, with `store` released before the first read,
        // as optimised builds may do: the read must see the store with everything it keeps.
        let built = Counter()
        weak var weakStore: DependencyStore?
        do {
            let screen: Screen = {
                let store = DependencyStore()
                store.register(Greeting.self, scope: .singleton) { _ in
                    built.increment()
                    return FixedGreeting("kept")
                }
                _ = store.resolve(Greeting.self)
                weakStore = store
                return store.execute { Screen() }
            }()
            #expect(weakStore != nil, "the unread property holds its store")
            #expect(screen.greeting.text == "kept")
            #expect(built.value == 1, "the singleton the store kept was returned, not built again")
            // Letting go would have ended the store under the read (see `FirstReadLifetimeTests`).
            #expect(weakStore != nil, "the property was the store's last owner: it keeps the store")
        }
        #expect(weakStore == nil, "the store ends with the property that kept it")
    }

    #if compiler(>=6.1)
    @Test func storesMadeByTheTestTraitAreFreed() async throws {
        let trait = DependencyStoreTrait.dependencyStore { $0.register("net", for: String.self) }
        let seen = Recorded<WeakBox<DependencyStore>>(WeakBox(nil))
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
            DependencyStore.shared.register(Fetcher(), for: Fetcher.self, scope: .singleton)
            #expect(DependencyStore.shared.resolve(Fetcher.self).networking == "net")
            seen.set(WeakBox(DependencyStore.shared))
        }
        #expect(seen.value.object == nil)
    }
    #endif

    // Made by hand, which needs the initialiser of swift-corelibs-xctest.
    #if os(Linux)
    @Test func storesMadeByDependencyStoreTestCaseAreFreed() async {
        let deinitsBefore = StoreLifetimeProbe.fetcherDeinits.value
        StoreLifetimeProbe(name: "probe") { _ in }.invokeTest()
        // swift-corelibs-xctest may run the test in a task of its own, which inherits the store
        // `execute` binds and lets go of it when that task is destroyed, just after invokeTest
        // returns: wait for that, within a bound. A store that leaks is still there after it.
        let deadline = ContinuousClock.now + .seconds(testDeadline)
        while StoreLifetimeProbe.ranAgainst.value.object != nil, ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(StoreLifetimeProbe.ranAgainst.value.object == nil)
        #expect(StoreLifetimeProbe.fetcherDeinits.value == deinitsBefore + 1, "the kept Fetcher's deinit ran")
    }
    #endif

    // MARK: - No user code under the store's lock

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aDeinitThatResolvesDuringResetCompletes() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            store.register("audit-log", for: String.self)
            store.register(AuditedSession(), for: AuditedSession.self, scope: .session)
            _ = store.resolve(AuditedSession.self)
            #expect(store.reset(.session) == 1)
            #expect(AuditedSession.lastAudit.value == "audit-log")
        }
    }

    @Test func aDeinitThatResolvesDuringReRegistrationCompletes() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            store.register("audit-log", for: String.self)
            store.register(AuditedSession(), for: AuditedSession.self, scope: .singleton)
            _ = store.resolve(AuditedSession.self)
            store.register(AuditedSession(), for: AuditedSession.self, scope: .singleton)
            #expect(AuditedSession.lastAudit.value == "audit-log")
        }
    }

    @Test func aDeinitThatResolvesWhenItsStoreIsReleasedCompletes() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            do {
                let store = DependencyStore()
                store.register("audit-log", for: String.self)
                store.register(AuditedSession(), for: AuditedSession.self, scope: .singleton)
                _ = store.resolve(AuditedSession.self)
            }
            #expect(AuditedSession.lastAudit.value == "audit-log")
        }
    }
    #endif
}

/// Reads an `@Injected` property for the first time in its `deinit`.
private final class AuditedSession {
    static let lastAudit = Recorded<String?>(nil)
    @Injected var audit: String
    deinit { Self.lastAudit.set(audit) }
}

/// An XCTest case whose store keeps an instance with an `@Injected` property; it records the store
/// so that `LifetimeTests` can check it is freed once the test is over. It has no test method of
/// its own, so XCTest never runs it alongside that check.
final class StoreLifetimeProbe: DependencyStoreTestCase {
    static let ranAgainst = Recorded(WeakBox<DependencyStore>(nil))
    static let fetcherDeinits = Counter()

    override func registerDependencies(in store: DependencyStore) {
        store.register("net", for: String.self)
        store.register(Fetcher(deinits: Self.fetcherDeinits), for: Fetcher.self, scope: .singleton)
        // Here rather than in a test method, so that it runs however the case is invoked.
        XCTAssertEqual(store.resolve(Fetcher.self).networking, "net")
        Self.ranAgainst.set(WeakBox(store))
    }

}
