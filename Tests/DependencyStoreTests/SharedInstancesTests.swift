import Foundation
import Testing

@testable import DependencyStore

/// An app-wide instance that a request's store resolves through the app's store.
private final class AppRepository: Sendable {
    let number: Int
    init(number: Int = 0) { self.number = number }
}

/// A request's handler with a property for the app-wide instance.
private final class RepositoryHandler: @unchecked Sendable {
    @Injected var repository: AppRepository
}

/// A value a request provides, of a type the app never registers.
private protocol RequestValue: Sendable, Equatable {
    static var example: Self { get }
}

extension Int: RequestValue { static var example: Int { 42 } }
extension String: RequestValue { static var example: String { "ada" } }
extension Double: RequestValue { static var example: Double { 1.5 } }
extension Bool: RequestValue { static var example: Bool { true } }
extension UInt8: RequestValue { static var example: UInt8 { 7 } }
extension Int16: RequestValue { static var example: Int16 { -3 } }

private let requestValueKinds: [any RequestValue.Type] = [
    Int.self, String.self, Double.self, Bool.self, UInt8.self, Int16.self,
]

/// Provides `Value.example` in `store` and says whether the store resolves it back.
private func providesAndReadsBack<Value: RequestValue>(_: Value.Type, in store: DependencyStore) -> Bool {
    store.provide(Value.example, for: Value.self)
    return store.resolve(Value.self) == Value.example
}

/// Runs `work` on a thread of its own while another thread holds `store`'s lock, and returns
/// whether it finished while the lock was held: within `testDeadline`, long enough for any slow
/// but correct run, while the lock is held for twice that. Work that needed the lock cannot
/// finish before the release. It finishes anyway once the lock is released, which this waits
/// for, so that no thread outlives the test.
private func finishesWhileAnotherThreadHoldsTheLock(
    of store: DependencyStore, _ work: @escaping @Sendable () -> Void
) -> Bool {
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let released = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        store.registry.withLock { _ in
            holding.signal()
            _ = release.wait(timeout: .now() + 2 * testDeadline)
        }
        released.signal()
    }
    holding.wait(for: "the store's lock")
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        work()
        done.signal()
    }
    let inTime = done.wait(timeout: .now() + testDeadline) == .success
    release.signal()
    released.wait(for: "the lock's release")
    if !inTime { done.wait(for: "the work, once the lock was released") }
    return inTime
}

/// A resolve through a store layered over the app's reads the app's shared instances without the
/// app's lock (see `SharedInstances`), and whatever changes them in the app still reaches it.
@Suite struct SharedInstancesTests {
    private func app() -> DependencyStore {
        let app = DependencyStore()
        app.register(AppRepository(), for: AppRepository.self, scope: .singleton)
        return app
    }

    /// The app, with its repository built and published for layered stores: the first request
    /// builds the instance, the second finds it built and publishes it.
    private func appPublishingItsRepository(
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> (DependencyStore, AppRepository) {
        let app = app()
        let first = DependencyStore(parent: app).resolve(AppRepository.self)
        #expect(DependencyStore(parent: app).resolve(AppRepository.self) === first, sourceLocation: sourceLocation)
        return (app, first)
    }

    @Test(.onThreadsOfItsOwn) func aRequestStoreResolvesAnAppSingletonWhileAnotherThreadHoldsTheAppsLock() {
        let (app, first) = appPublishingItsRepository()
        // Made before the lock is taken: a new store registers itself with its parent.
        let request = DependencyStore(parent: app)
        let resolved = Recorded<AppRepository?>(nil)
        // Without the shared instances, the resolve waits for the lock until it is released.
        let inTime = finishesWhileAnotherThreadHoldsTheLock(of: app) {
            resolved.set(request.resolve(AppRepository.self))
        }
        #expect(inTime, "the resolve waited for the app's lock")
        #expect(resolved.value === first)
    }

    /// A request's own values are types the app does not register: the look for an ancestor that
    /// registers them reads the app's filter of registered types, not its table under its lock.
    ///
    /// The filter keeps one bit of 256 per type, so a type may share its bit with the app's
    /// repository (it did for `Int` or `String` in about one run of 60: the addresses hashed
    /// move from run to run), and then the lock is taken, as it must be. So the request provides
    /// two of several value types whose bits are clear in the app's filter.
    @Test(.onThreadsOfItsOwn)
    func aRequestStoreProvidesItsValuesAndReadsAnAppSingletonWhileAnotherThreadHoldsTheAppsLock() throws {
        let (app, first) = appPublishingItsRepository()
        let request = DependencyStore(parent: app)
        let kinds = Array(
            requestValueKinds.filter { !app.core.mayRegister(ObjectIdentifier($0)) }.prefix(2))
        try #require(
            kinds.count == 2, "the app's filter has the bits of \(requestValueKinds.count - kinds.count) of them")
        let resolved = Recorded<([Bool], AppRepository)?>(nil)
        let inTime = finishesWhileAnotherThreadHoldsTheLock(of: app) {
            let provided = kinds.map { providesAndReadsBack($0, in: request) }
            resolved.set((provided, request.resolve(AppRepository.self)))
        }
        #expect(inTime, "providing the request's values waited for the app's lock")
        #expect(resolved.value?.0 == [true, true], "each value read back is the one provided")
        #expect(resolved.value?.1 === first, "and the request still shares the app's singleton")
    }

    /// The first read of a request's property for an app-wide singleton goes straight to what
    /// the app publishes: the request store never registered the type (its filter says so) and
    /// shares, so its own lock is not taken either.
    @Test(.onThreadsOfItsOwn) func aRequestsPropertyReadsAnAppSingletonWhileAnotherThreadHoldsTheRequestStoresLock() {
        let (app, first) = appPublishingItsRepository()
        let request = DependencyStore(parent: app)
        request.provide(42, for: Int.self)
        let handler = request.execute { RepositoryHandler() }
        let resolved = Recorded<AppRepository?>(nil)
        let inTime = finishesWhileAnotherThreadHoldsTheLock(of: request) {
            resolved.set(handler.repository)
        }
        #expect(inTime, "the property's first read waited for the request store's lock")
        #expect(resolved.value === first)
    }

    /// What the read above skips is only the look in the request store: a request store that
    /// overrides the type, decorates it or has an observer reads its property as `resolve` does.
    @Test func aRequestsPropertyReadsWhatTheRequestStoreResolvesWhenItStopsSharing() {
        let (app, shared) = appPublishingItsRepository()

        let overriding = DependencyStore(parent: app)
        overriding.register(AppRepository(number: 7), for: AppRepository.self)
        #expect(overriding.execute { RepositoryHandler() }.repository.number == 7)

        let decorating = DependencyStore(parent: app)
        decorating.decorate(AppRepository.self) { _, repository in AppRepository(number: repository.number + 1) }
        #expect(decorating.execute { RepositoryHandler() }.repository.number == 1)

        let observed = DependencyStore(parent: app)
        let events = Recorded<[String]>([])
        let observation = observed.observeResolves { event in events.update { $0.append("\(event.type)") } }
        let read = observed.execute { RepositoryHandler() }.repository
        #expect(events.value.contains { $0.contains("AppRepository") }, "the observer heard the property's read")
        #expect(read !== shared, "a store with an observer keeps its own copy")
        observation.cancel()
    }

    @Test func aResetOfTheAppReachesRequestStores() {
        let app = app()
        let first = DependencyStore(parent: app).resolve(AppRepository.self)
        #expect(DependencyStore(parent: app).resolve(AppRepository.self) === first)
        #expect(app.reset(.singleton) == 1)
        let second = DependencyStore(parent: app).resolve(AppRepository.self)
        #expect(second !== first)
        #expect(second === app.resolve(AppRepository.self))
    }

    @Test func whatAResetDiscardsIsFreedAtOnce() {
        let app = app()
        weak var discarded: AppRepository?
        do {
            let first = DependencyStore(parent: app).resolve(AppRepository.self)
            discarded = first
            #expect(DependencyStore(parent: app).resolve(AppRepository.self) === first)
        }
        #expect(app.reset(.singleton) == 1)
        // The published table that held it too went with the reset: nothing was reading it.
        #expect(discarded == nil)
    }

    @Test func aNewRegistrationInTheAppReachesRequestStores() {
        let app = app()
        _ = DependencyStore(parent: app).resolve(AppRepository.self)
        _ = DependencyStore(parent: app).resolve(AppRepository.self)
        app.register(AppRepository(number: 2), for: AppRepository.self, scope: .singleton)
        #expect(DependencyStore(parent: app).resolve(AppRepository.self).number == 2)
    }

    @Test func anObserverInstalledOnTheAppHearsResolvesThroughRequestStores() {
        let app = app()
        _ = DependencyStore(parent: app).resolve(AppRepository.self)
        _ = DependencyStore(parent: app).resolve(AppRepository.self)
        let heard = Counter()
        let observation = app.observeResolves { _ in heard.increment() }
        _ = DependencyStore(parent: app).resolve(AppRepository.self)
        #expect(heard.value == 1)
        observation.cancel()
    }

    @Test(.onThreadsOfItsOwn)
    func requestStoresOnEightThreadsWhileTheAppResetsGetOnlyInstancesTheAppBuiltAndFreeTheRest() {
        expectOnlyInstancesTheAppBuiltWhileItResets { $0.resolve(AppRepository.self) }
    }

    /// The same through the first reads of request handlers' properties, which copy the app's
    /// instance out of its box under the thread's hazard, without retaining the box, and clear the
    /// hazard only after the copy (`OnceStorage.finishFirstRead`): each gets an instance the app
    /// built, and a reset leaves none alive once nothing reads. It did not fail with the hazard
    /// cleared before the copy, in plain runs or under the thread sanitizer: the window is a few
    /// instructions, and the reset's discard holds the instance until after its lock. The order
    /// rests on the protocol `whatAResetDiscardsIsNeverReleasedInsideAnotherThreadsResolve` shows.
    @Test(.onThreadsOfItsOwn) func requestHandlersOnEightThreadsWhileTheAppResetsReadOnlyInstancesTheAppBuilt() {
        expectOnlyInstancesTheAppBuiltWhileItResets { $0.execute { RepositoryHandler() }.repository }
    }

    /// Seven threads read the app's repository through request stores of their own (`read`), 300
    /// times each, while an eighth builds it and resets the app, 300 times: every read is an
    /// instance the app built, and once nothing reads, a reset leaves none of them alive (no table
    /// taken down while a request was reading it is kept after the request read it).
    private func expectOnlyInstancesTheAppBuiltWhileItResets(
        sourceLocation: Testing.SourceLocation = #_sourceLocation,
        read: @escaping @Sendable (DependencyStore) -> AppRepository
    ) {
        let app = DependencyStore()
        let built = Recorded<[WeakRepository]>([])
        app.register(AppRepository.self, scope: .singleton) { _ in
            var spin = 0
            for step in 0..<2_000 { spin &+= step }
            let repository = AppRepository(number: spin)
            built.update { $0.append(WeakRepository(repository)) }
            return repository
        }
        let strangers = Counter()
        onManyThreads(threads: 8, rounds: 1, sourceLocation: sourceLocation) { _, thread in
            for _ in 0..<300 {
                if thread == 0 {
                    // A build, then its reset: the app keeps building new instances meanwhile.
                    _ = app.resolve(AppRepository.self)
                    app.reset(.singleton)
                    continue
                }
                let repository = read(DependencyStore(parent: app))
                if !built.value.contains(where: { $0.value === repository }) { strangers.increment() }
            }
        }
        #expect(strangers.value == 0, sourceLocation: sourceLocation)
        #expect(built.value.count >= 300, sourceLocation: sourceLocation)
        app.reset(.singleton)
        let alive = built.value.filter { $0.value != nil }.count
        #expect(alive == 0, "\(alive) of \(built.value.count) instances are still held", sourceLocation: sourceLocation)
    }
}

/// Marks, per thread, the span of a resolve a test makes.
private enum InResolve {
    static var isSet: Bool { Thread.current.threadDictionary["DependencyStoreTests.inResolve"] != nil }
    static func during<R>(_ body: () -> R) -> R {
        Thread.current.threadDictionary["DependencyStoreTests.inResolve"] = true
        defer { Thread.current.threadDictionary["DependencyStoreTests.inResolve"] = nil }
        return body()
    }
}

/// Counts the deinits that run inside a resolve made by the test.
private final class Tracked: Sendable {
    let deinitsInsideAResolve: Counter
    init(counting deinits: Counter) { deinitsInsideAResolve = deinits }
    deinit { if InResolve.isSet { deinitsInsideAResolve.increment() } }
}

extension SharedInstancesTests {
    /// A table taken down while a request reads it holds an instance the reset discarded: the
    /// reset waits for the read, so the instance's last release stays on the resetting thread,
    /// after its lock, and never runs inside another thread's resolve (where its `deinit` would
    /// see that resolve's store as current).
    @Test func whatAResetDiscardsIsNeverReleasedInsideAnotherThreadsResolve() async {
        let app = DependencyStore()
        let inside = Counter()
        let register: @Sendable () -> Void = {
            app.register(Tracked.self, scope: .singleton) { _ in Tracked(counting: inside) }
        }
        register()
        app.register(AppRepository(), for: AppRepository.self, scope: .singleton)
        let deadline = Date().addingTimeInterval(1.5)
        // Its threads are awaited off the concurrency pool, which other suites' awaits need.
        _ = await onManyThreadsAwaitingThem(threads: 4) { thread in
            var round = 0
            while Date() < deadline {
                round += 1
                if thread == 0 {
                    // Discards, each after the instance was built: a reset, a new registration.
                    _ = app.resolve(Tracked.self)
                    if round % 2 == 0 { app.reset(.singleton) } else { register() }
                    continue
                }
                // What the resolves return is released after the span: after a reset, this
                // thread may hold the last reference to it, and then its release is this thread's.
                let request = DependencyStore(parent: app)
                let resolved = InResolve.during {
                    (request.resolve(AppRepository.self), request.resolve(Tracked.self))
                }
                withExtendedLifetime(resolved) {}
            }
        }
        #expect(inside.value == 0, "\(inside.value) deinits ran inside a resolve")
    }
}

private final class WeakRepository: @unchecked Sendable {
    weak var value: AppRepository?
    init(_ value: AppRepository) { self.value = value }
}

/// An app-wide instance built from a request's value: kept by the request's store that built it.
private final class RequestGreeter: Sendable {
    let id: Int16
    init(id: Int16) { self.id = id }
}

/// An app-wide instance built from a request's value, by one of the app's registrations in turn.
private final class VersionedGreeter: Sendable {
    let version: Int
    let id: Int16
    init(version: Int, id: Int16, work: Int) {
        self.version = version
        self.id = id
        precondition(work >= 0)
    }
}

/// A store joins its parent's list of children only once it keeps or registers something the
/// parent's changes must reach: what a request's store that provides values and reads the app's
/// instances never does. What the parent's list carried (its decorators, its later registrations)
/// reaches such a store anyway, read by the store itself.
@Suite struct JoiningTheParentTests {
    private func children(of store: DependencyStore) -> Int {
        store.registry.withLock { $0.children.count }
    }

    private func appWithAGreeterFromTheRequest() -> DependencyStore {
        let app = DependencyStore()
        app.register(RequestGreeter.self, scope: .singleton) { store in RequestGreeter(id: store.resolve()) }
        return app
    }

    /// Made, given two values, run in `execute`, its property read and ended, all while another
    /// thread holds the app's lock.
    @Test(.onThreadsOfItsOwn) func aRequestStoreThatProvidesValuesAndReadsSharedInstancesNeverTakesTheAppsLock() throws
    {
        let app = DependencyStore()
        app.register(AppRepository(), for: AppRepository.self, scope: .singleton)
        let first = DependencyStore(parent: app).resolve(AppRepository.self)
        #expect(DependencyStore(parent: app).resolve(AppRepository.self) === first, "published")
        // Types whose bits are clear in the app's filter (see `SharedInstancesTests`).
        let kinds = Array(requestValueKinds.filter { !app.core.mayRegister(ObjectIdentifier($0)) }.prefix(2))
        try #require(
            kinds.count == 2, "the app's filter has the bits of \(requestValueKinds.count - kinds.count) of them")
        let result = Recorded<([Bool], AppRepository, Bool)?>(nil)
        let inTime = finishesWhileAnotherThreadHoldsTheLock(of: app) {
            let ended = Recorded<WeakCore?>(nil)
            let provided: [Bool]
            let repository: AppRepository
            do {
                let handler: RepositoryHandler
                (provided, handler) = {
                    let request = DependencyStore(parent: app)
                    ended.set(WeakCore(core: request.core))
                    return (
                        kinds.map { providesAndReadsBack($0, in: request) }, request.execute { RepositoryHandler() }
                    )
                }()
                // Only the handler's property holds the store: its first read keeps it.
                repository = handler.repository
            }
            result.set((provided, repository, ended.value?.core == nil))
        }
        #expect(inTime, "the request's store waited for the app's lock")
        #expect(result.value?.0 == [true, true], "each value read back is the one provided")
        #expect(result.value?.1 === first, "the property read the app's singleton")
        #expect(result.value?.2 == true, "the request's store was freed with its handler")
        #expect(children(of: app) == 0)
    }

    @Test func aStoreThatOnlyProvidesValuesSeesADecoratorItsParentGetsLater() {
        let app = DependencyStore()
        app.register(AppRepository.self) { _ in AppRepository(number: 1) }
        let request = DependencyStore(parent: app)
        request.provide(Int16(3), for: Int16.self)
        #expect(request.resolve(AppRepository.self).number == 1)
        app.decorate(AppRepository.self) { _, repository in AppRepository(number: repository.number + 10) }
        #expect(children(of: app) == 0, "the decorator reached a store that is not on the app's list")
        #expect(request.resolve(AppRepository.self).number == 11)
        let nested = DependencyStore(parent: request)
        #expect(nested.resolve(AppRepository.self).number == 11, "and a store two levels over the app")
    }

    /// The sharing rule: a store that registers a type one of its ancestors registers too builds
    /// its own instances of theirs. When the ancestor registers it after the store did, the store
    /// learns it on its next resolve, by the property's first read as by `resolve`.
    @Test func aStoreThatProvidesATypeStopsSharingOnceItsParentRegistersItToo() {
        let app = DependencyStore()
        app.register(AppRepository(), for: AppRepository.self, scope: .singleton)
        let shared = DependencyStore(parent: app).resolve(AppRepository.self)
        let request = DependencyStore(parent: app)
        request.provide(Int16(3), for: Int16.self)
        #expect(request.resolve(AppRepository.self) === shared)
        #expect(request.execute { RepositoryHandler() }.repository === shared)

        app.provide(Int16(9), for: Int16.self)
        let own = request.execute { RepositoryHandler() }.repository
        #expect(own !== shared, "the property's first read still shared the app's instance")
        #expect(request.resolve(AppRepository.self) === own)
        #expect(request.resolve(Int16.self) == 3)
        #expect(app.resolve(AppRepository.self) === shared)

        // Two levels down: the store over the request's shares the request's copy, since it
        // overrides nothing itself.
        let nested = DependencyStore(parent: request)
        #expect(nested.resolve(AppRepository.self) === own)
    }

    /// The overlaps the model test found: a store that registered a type while an ancestor did
    /// too stopped sharing for good, even when one of the two registrations went before the store
    /// resolved anything (Lifetimes.md, "Once a store has changed something"); a type the
    /// ancestor removed before the store registered it never overlapped.
    @Test func anOverlapUndoneBeforeTheStoreResolvesStillStopsItSharingAndNoneNeverDoes() {
        func app() -> (DependencyStore, AppRepository) {
            let app = DependencyStore()
            app.register(AppRepository(), for: AppRepository.self, scope: .singleton)
            return (app, app.resolve(AppRepository.self))
        }
        // The store's own registration goes.
        do {
            let (app, shared) = app()
            let request = DependencyStore(parent: app)
            request.provide(Int16(1), for: Int16.self)
            app.provide(Int16(2), for: Int16.self)
            request.unregister(Int16.self)
            #expect(request.resolve(AppRepository.self) !== shared, "the store's removal hid the overlap")
        }
        // The ancestor's registration goes: unregistered, or unloaded with its assembly.
        do {
            let (app, shared) = app()
            let request = DependencyStore(parent: app)
            request.provide(Int16(1), for: Int16.self)
            app.provide(Int16(2), for: Int16.self)
            app.unregister(Int16.self)
            #expect(request.resolve(AppRepository.self) !== shared, "the app's removal hid the overlap")
        }
        do {
            let (app, shared) = app()
            let request = DependencyStore(parent: app)
            request.provide(Int16(1), for: Int16.self)
            app.apply(Int16Assembly())
            app.unload(Int16Assembly.self)
            #expect(request.resolve(AppRepository.self) !== shared, "the app's unload hid the overlap")
        }
        // Registered and removed twice by the app; a named type; a store between that registers
        // the type and removes it.
        do {
            let (app, shared) = app()
            let request = DependencyStore(parent: app)
            request.provide(Int16(1), for: Int16.self)
            for value in [Int16(2), 3] {
                app.provide(value, for: Int16.self)
                app.unregister(Int16.self)
            }
            #expect(request.resolve(AppRepository.self) !== shared, "two overlaps both undone")
        }
        do {
            let (app, shared) = app()
            let request = DependencyStore(parent: app)
            request.provide(Int16(1), for: Int16.self, name: "id")
            app.provide(Int16(2), for: Int16.self, name: "id")
            request.unregister(Int16.self, name: "id")
            #expect(request.resolve(AppRepository.self) !== shared, "a named overlap")
        }
        do {
            let (app, shared) = app()
            let middle = DependencyStore(parent: app)
            let request = DependencyStore(parent: middle)
            request.provide(Int16(1), for: Int16.self)
            middle.provide(Int16(2), for: Int16.self)
            middle.unregister(Int16.self)
            #expect(middle.resolve(AppRepository.self) === shared, "the store between overrides nothing")
            #expect(request.resolve(AppRepository.self) !== shared, "an overlap with the store between")
        }
        // Removed from the ancestor before the store registered it: no overlap, however late the
        // store looks.
        do {
            let (app, shared) = app()
            app.provide(Int16(2), for: Int16.self)
            let request = DependencyStore(parent: app)
            app.unregister(Int16.self)
            request.provide(Int16(1), for: Int16.self)
            app.register(AppRepository(number: 3), for: AppRepository.self, scope: .singleton)
            let now = app.resolve(AppRepository.self)
            #expect(now !== shared)
            #expect(request.resolve(AppRepository.self) === now, "an old removal was held against a later value")
        }
    }

    /// A registration that replaces the app's closes what every store layered over it kept of the
    /// replaced one: the request's store joined the app's list when it kept it.
    @Test func aStoreJoinsWhenItKeepsAnInstanceSoTheAppsReplacementReachesIt() {
        let app = appWithAGreeterFromTheRequest()
        let request = DependencyStore(parent: app)
        request.provide(Int16(3), for: Int16.self)
        #expect(children(of: app) == 0, "providing a value does not join")
        weak var first: RequestGreeter?
        do {
            let greeter = request.resolve(RequestGreeter.self)
            first = greeter
            #expect(greeter.id == 3)
            #expect(request.resolve(RequestGreeter.self) === greeter, "the request's store keeps its own")
        }
        #expect(children(of: app) == 1, "keeping an instance joins")
        app.register(RequestGreeter.self, scope: .singleton) { store in RequestGreeter(id: store.resolve() + 100) }
        #expect(first == nil, "the replacement let go of what the request's store kept")
        #expect(request.resolve(RequestGreeter.self).id == 103)
    }

    @Test func aStoreJoinsWhenItRegistersAndLeavesWhenItEnds() {
        let app = appWithAGreeterFromTheRequest()
        weak var ended: StoreCore?
        do {
            let test = DependencyStore(parent: app)
            test.register(Int16(5), for: Int16.self)
            #expect(children(of: app) == 1, "a registration joins")
            do {
                let nested = DependencyStore(parent: test)
                nested.provide(Int16(6), for: Int16.self)
                _ = nested.resolve(RequestGreeter.self)
                #expect(children(of: test) == 1, "the nested store joined the test's")
                ended = nested.core
            }
            // While the test's store lives: the nested store left its list when it ended.
            #expect(children(of: test) == 0)
            #expect(ended == nil, "the nested store's core was freed")
        }
        #expect(children(of: app) == 0)
    }

    /// A store joins the app's list before it makes the slot that keeps its instance, so a
    /// replacement in the app that races the first resolves through many new stores still
    /// reaches every slot made before it: at the end, what the stores keep is built by the last
    /// registration only. Its threads are awaited off the concurrency pool, which other suites'
    /// awaits need (it runs for seconds under the thread sanitizer).
    @Test func replacementsRacingTheFirstKeepsOfNewStoresLeaveOnlyCurrentInstances() async {
        let app = DependencyStore()
        let built = Recorded<[WeakBox<VersionedGreeter>]>([])
        let register: @Sendable (Int) -> Void = { version in
            app.register(VersionedGreeter.self, scope: .singleton) { store in
                var spin = 0
                for step in 0..<500 { spin &+= step }
                let greeter = VersionedGreeter(version: version, id: store.resolve(), work: spin)
                built.update { $0.append(WeakBox(greeter)) }
                return greeter
            }
        }
        register(0)
        let replacements = 1_000
        let threads = 3
        let kept = Recorded<[DependencyStore]>([])
        let wrong = Counter()
        let finished = await onManyThreadsAwaitingThem(threads: threads + 1, deadline: poolDeadline) { thread in
            if thread == threads {
                for version in 1...replacements { register(version) }
                return
            }
            for round in 0..<500 {
                // New stores all along, each joining the app's list with its first keep.
                let request = DependencyStore(parent: app)
                let id = Int16(truncatingIfNeeded: thread * 1_000 + round)
                request.provide(id, for: Int16.self)
                for _ in 0..<3 where request.resolve(VersionedGreeter.self).id != id { wrong.increment() }
                kept.update { $0.append(request) }
            }
        }
        // A timeout is recorded; the threads may still be running, so nothing more is checked.
        guard finished else { return }
        #expect(wrong.value == 0, "a request's store resolved another request's instance")
        let stale = built.value.compactMap(\.object).filter { $0.version != replacements }
        #expect(stale.isEmpty, "\(stale.count) instances of replaced registrations are still kept")
        kept.set([])
        #expect(children(of: app) == 0, "ended stores stayed on the app's list")
    }
}

/// Registers an `Int16` in the store it is applied to.
private struct Int16Assembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.register(Int16(4), for: Int16.self)
    }
}
