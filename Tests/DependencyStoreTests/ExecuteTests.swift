import DependencyStore
import Foundation
import Testing

@Suite struct ExecuteTests {
    @Test func makesTheStoreSharedInsideAndRestoresItAfter() {
        let store = DependencyStore()
        let outside = DependencyStore.shared

        store.execute {
            #expect(DependencyStore.shared === store)
        }

        #expect(DependencyStore.shared === outside)
        #expect(outside !== store)
    }

    @Test func restoresThePreviousStoreWhenTheClosureThrows() {
        struct Failure: Error {}
        let store = DependencyStore()
        let outside = DependencyStore.shared

        #expect(throws: Failure.self) {
            try store.execute { throw Failure() }
        }
        #expect(DependencyStore.shared === outside)
    }

    /// Built with warnings as errors: were the synchronous form picked here, the build would fail
    /// on "no 'async' operations occur within 'await' expression".
    @Test func anAwaitedExecuteOfASynchronousClosureRunsInTheStore() async {
        let store = DependencyStore()
        store.register("in the store", for: String.self)
        let value = await store.execute { DependencyStore.shared.resolve(String.self) }
        #expect(value == "in the store")
        #expect(DependencyStore.shared !== store, "restored after")
    }

    @Test func returnsWhatTheClosureReturns() {
        #expect(DependencyStore().execute { 41 + 1 } == 42)
    }

    @Test func nestedExecuteDoesNotDeadlockAndTheInnerStoreWins() {
        let outer = DependencyStore()
        let inner = DependencyStore()

        outer.execute {
            inner.execute {
                #expect(DependencyStore.shared === inner)
                outer.execute {
                    #expect(DependencyStore.shared === outer)
                }
                #expect(DependencyStore.shared === inner)
            }
            #expect(DependencyStore.shared === outer)
        }
    }

    @Test func injectedCreatedByAFactoryBindsToTheResolvingStoreEvenWhenReadLaterOnAnotherThread() async {
        // The Screen is built by a factory, not directly inside execute, and read only after
        // execute has returned, on a GCD thread that never saw the store.
        let store = DependencyStore()
        store.register(SendableClock(now: 11), for: SendableClockType.self)
        store.register(SendableHolder.self) { _ in SendableHolder() }
        let outer = await store.execute { OuterHolder() }

        let now = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: outer.holder.clock.now)
            }
        }

        #expect(now == 11)
    }

    @Test func aFactoryRunningInsideAnotherStoresExecuteStillBindsToItsOwnStore() {
        let live = DependencyStore()
        live.register(FixedGreeting("live"), for: Greeting.self)
        live.register(Screen.self) { _ in Screen() }
        let test = DependencyStore()
        test.register(FixedGreeting("test"), for: Greeting.self)

        let screen = test.execute { live.resolve(Screen.self) }

        #expect(screen.greeting.text == "live")
    }

    @Test func executeInsideAFactoryWinsOverTheResolvingStore() {
        let live = DependencyStore()
        let test = DependencyStore()
        test.register(FixedGreeting("test"), for: Greeting.self)
        live.register(Screen.self) { _ in test.execute { Screen() } }

        #expect(live.resolve(Screen.self).greeting.text == "test")
    }

    @Test func asyncExecuteKeepsTheStoreAcrossSuspensionAndInChildTasks() async {
        let store = DependencyStore()

        await store.execute {
            await Task.yield()
            #expect(DependencyStore.shared === store)

            async let child = DependencyStore.shared
            #expect(await child === store)

            let fromGroup = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask { DependencyStore.shared === store }
                }
                return await group.reduce(true) { $0 && $1 }
            }
            #expect(fromGroup)

            let fromUnstructured = await Task { DependencyStore.shared }.value
            #expect(fromUnstructured === store)
        }
    }

    @Test func propertiesCreatedInATaskBindToTheInnermostAsyncExecute() async {
        let outer = DependencyStore()
        outer.register(FixedGreeting("outer"), for: Greeting.self)
        let inner = DependencyStore()
        inner.register(FixedGreeting("inner"), for: Greeting.self)

        let (before, inside, after) = await outer.execute {
            let before = Screen()
            let inside = await inner.execute {
                await Task.yield()
                return Screen()
            }
            await Task.yield()
            return (before, inside, Screen())
        }
        let outside = await Task.detached { DependencyStore.shared }.value

        #expect(before.greeting.text == "outer")
        #expect(inside.greeting.text == "inner")
        #expect(after.greeting.text == "outer", "the outer store is current again once the inner returns")
        #expect(outside !== outer && outside !== inner, "a task with no binding gets the root store")
    }

    @Test func taskCreatedInsideAnAwaitedExecuteOfASynchronousClosureInheritsTheStore() async {
        let store = DependencyStore()

        // In an async context, `await store.execute { ... }` is the async form.
        let task = await store.execute { Task { DependencyStore.shared } }

        #expect(await task.value === store)
    }

    @Test func taskCreatedInsideSyncExecuteInheritsTheStore() async {
        let store = DependencyStore()
        let seen = Recorded<[Bool]?>(nil)

        // On a thread of its own, outside any task: the synchronous form's binding goes to the
        // thread's storage for bindings, which `Task {}` copies.
        Thread {
            let direct = Self.taskStartedInSyncExecute(of: store)
            let nested = Self.taskStartedInNestedSyncExecute(of: store)
            Task { seen.set([await direct.value === store, await nested.value === store]) }
        }.start()
        await eventually("the tasks started on the thread to answer") { seen.value != nil }

        #expect(seen.value == [true, true])
    }

    @Test func taskCreatedInsideSyncExecuteInATaskInheritsTheStore() async {
        let store = DependencyStore()

        // Called from a synchronous function, so that the synchronous form runs, here inside the
        // test's task: its binding goes to the task's storage for bindings.
        let task = Self.taskStartedInSyncExecute(of: store)
        let nested = Self.taskStartedInNestedSyncExecute(of: store)

        #expect(await task.value === store)
        #expect(await nested.value === store)
    }

    /// Calls the synchronous `execute`: in a synchronous function, the async form cannot run.
    private static func taskStartedInSyncExecute(of store: DependencyStore) -> Task<DependencyStore, Never> {
        store.execute { Task { DependencyStore.shared } }
    }

    /// The same, inside another store's synchronous `execute`.
    private static func taskStartedInNestedSyncExecute(of store: DependencyStore) -> Task<DependencyStore, Never> {
        DependencyStore().execute { taskStartedInSyncExecute(of: store) }
    }

    @Test func detachedTasksAndGCDDoNotInheritButTheStoreCanBeHandedOver() async {
        let store = DependencyStore()
        store.register(FixedGreeting("handed over"), for: Greeting.self)

        let (detachedSees, handedOver) = await store.execute {
            let detachedSees = await Task.detached { DependencyStore.shared }.value
            // The documented hand-over: capture the store, execute on it at the other side.
            let captured = DependencyStore.shared
            let handedOver = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: captured.execute { Screen() }.greeting.text)
                }
            }
            return (detachedSees, handedOver)
        }

        #expect(detachedSees !== store)
        #expect(handedOver == "handed over")
    }

    @MainActor @Test func asyncExecuteRunsOnTheCallersActor() async {
        let store = DependencyStore()
        store.register(SendableClock(now: 8), for: SendableClockType.self)
        let model = MainActorCounterModel()

        await store.execute {
            await Task.yield()
            model.record(SendableHolder().clock.now)  // main-actor state, touched without a hop
        }

        #expect(model.values == [8])
    }

    @Test func parallelExecutesNeverSeeEachOthersStore() async {
        // 50 rounds of 40 concurrent tasks, each with its own store and value, suspending in the
        // middle. The seed's design (swap a global, run, swap back) hands tasks each other's
        // stores as soon as two of them overlap.
        for _ in 0..<50 {
            let mismatches = await withTaskGroup(of: Int.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let store = DependencyStore()
                        store.register(SendableClock(now: index), for: SendableClockType.self)
                        return await store.execute {
                            let early = SendableHolder()
                            await Task.yield()
                            let late = SendableHolder()
                            let seen = [
                                early.clock.now, late.clock.now,
                                DependencyStore.shared.resolve(SendableClockType.self).now,
                            ]
                            return seen.filter { $0 != index }.count
                        }
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(mismatches == 0)
        }
    }
}

struct OuterHolder: Sendable {
    @Injected var holder: SendableHolder
}

@MainActor final class MainActorCounterModel {
    private(set) var values: [Int] = []
    func record(_ value: Int) { values.append(value) }
}

/// Reads its text from the store current when it is created.
final class InjectedLabel {
    @Injected var text: String
}

@Suite struct SynchronousExecuteBindingTests {
    @Test(.onThreadsOfItsOwn) func workTheThreadRunsWhileASynchronousExecuteIsOnItsStackSeesThatStore() {
        // What execute's documentation says: the binding is the thread's while the closure runs,
        // so a block another piece of code scheduled on this thread's run loop, run by a spin
        // inside the closure, binds to the store.
        let seen = Recorded<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let outer = DependencyStore()
            outer.register("outer", for: String.self)
            let inner = DependencyStore()
            inner.register("inner", for: String.self)
            outer.execute {
                RunLoop.current.perform { seen.set(InjectedLabel().text) }  // other code, earlier
                inner.execute { RunLoop.current.run(until: Date()) }
            }
            done.signal()
        }.start()
        done.wait(for: "the thread to run its loop")
        #expect(seen.value == "inner")
    }
}

/// `bind` for async work: what a streamed body, run after its handler returned, resolves from.
@Suite struct AsyncBindTests {
    private final class Reader: @unchecked Sendable {
        @Injected var clock: Clock
    }

    @Test func asyncWorkBoundToAStoreResolvesFromItLaterAndElsewhere() async throws {
        let request = DependencyStore(parent: .shared)
        request.register(FixedClock(42), for: Clock.self)
        let body = request.bind { () async throws -> Int in
            await Task.yield()
            let reader = Reader()
            // A task made inside inherits the store too.
            let inner = await Task { Reader().clock.now }.value
            return reader.clock.now + inner
        }
        // Run after the "handler" returned, from a detached task that has no store of its own.
        let total = try await Task.detached { try await body() }.value
        #expect(total == 84)
    }

    @Test func aStoreKeptOnlyByABoundClosureIsFreedWithIt() async throws {
        weak var weakStore: DependencyStore?
        var body: (@Sendable () async throws -> Int)?
        do {
            let request = DependencyStore()
            request.register(FixedClock(1), for: Clock.self)
            weakStore = request
            body = request.bind { () async -> Int in Reader().clock.now }
        }
        #expect(weakStore != nil, "the closure keeps the store alive")
        #expect(try await body?() == 1)
        body = nil
        #expect(weakStore == nil)
    }
}
