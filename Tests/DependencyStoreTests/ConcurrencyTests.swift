import DependencyStore
import Foundation
import Testing

/// Stress tests for the thread-safety claims. Each is bounded to well under a second on two cores
/// and fails (crashes, traps, returns a wrong value or misses a deadline) without the mechanism it
/// guards.
@Suite struct ConcurrencyTests {
    @Test(.onThreadsOfItsOwn) func anyMixOfOperationsFromManyThreadsKeepsEveryTypeRight() {
        // Without the store's lock, concurrent writes to its dictionary crash within a few rounds.
        let store = DependencyStore()
        store.register(SendableClock(now: -1), for: SendableClockType.self)
        let wrongValues = Counter()

        // Every value this store may hand out: the first clock or one a thread registered here. A
        // clock of a child store (1,000 and up), or a torn or stale label, is wrong.
        let clocks = Set(-1..<50)
        let labels = Set((0..<12).map { "t\($0)" })
        onManyThreads(threads: 12, rounds: 40) { round, thread in
            for step in 0..<50 {
                switch (thread + step) % 6 {
                case 0:
                    store.register(SendableClock(now: step), for: SendableClockType.self)
                case 1:
                    if !clocks.contains(store.resolve(SendableClockType.self).now) { wrongValues.increment() }
                case 2:
                    store.register(Label("t\(thread)"), for: Label.self)
                    if !labels.contains(store.resolve(Label.self).text) { wrongValues.increment() }
                case 3:
                    if !store.isRegistered(SendableClockType.self) { wrongValues.increment() }
                case 4:
                    let child = DependencyStore()
                    child.register(SendableClock(now: 1_000 + thread), for: SendableClockType.self)
                    let holder = child.execute { SendableHolder() }
                    if holder.clock.now != 1_000 + thread { wrongValues.increment() }
                default:
                    let holder = store.execute { SendableHolder() }
                    if !clocks.contains(holder.clock.now) { wrongValues.increment() }
                }
            }
            _ = round
        }

        #expect(wrongValues.value == 0)
    }

    @Test(.onThreadsOfItsOwn) func threadsResolvingTheSameChainAtOnceAreNotACycle() {
        // A store that tracked "types being built" in one global set would see B already in
        // flight on another thread and report a cycle that does not exist.
        let store = DependencyStore()
        store.register(SendableClockType.self) { _ in SendableClock(now: 1) }
        store.register(Label.self) { store in Label("clock \(store.resolve(SendableClockType.self).now)") }
        store.register(LabelPair.self) { store in LabelPair(first: store.resolve(), second: store.resolve()) }
        let wrong = Counter()

        onManyThreads(threads: 16, rounds: 50) { _, _ in
            for _ in 0..<20 where store.resolve(LabelPair.self).first.text != "clock 1" {
                wrong.increment()
            }
        }

        #expect(wrong.value == 0)
    }

    @Test(.onThreadsOfItsOwn) func noStoreLockIsHeldWhileAFactoryRuns() {
        // The factory for Label waits until another thread has resolved from the same store. If
        // the store held its lock across factories, that resolve would block and the deadline
        // below would pass; a deadline, not a sleep, is what turns the deadlock into a failure.
        let store = DependencyStore()
        store.register(SendableClock(now: 2), for: SendableClockType.self)
        let otherThreadResolved = DispatchSemaphore(value: 0)
        let factoryStarted = DispatchSemaphore(value: 0)
        let outcome = WaitOutcome()
        store.register(Label.self) { _ in
            factoryStarted.signal()
            outcome.record(otherThreadResolved.wait(timeout: .now() + testDeadline))
            return Label("done")
        }

        let resolver = Thread {
            _ = store.resolve(Label.self)
        }
        resolver.start()
        factoryStarted.wait(for: "the factory to start")
        _ = store.resolve(SendableClockType.self)
        _ = store.isRegistered(Label.self)
        store.register(SendableClock(now: 3), for: SendableClockType.self)
        otherThreadResolved.signal()

        #expect(outcome.waitUntilRecorded() == .success)
    }

    @Test(.onThreadsOfItsOwn) func injectedPropertiesReadingEachOtherFromManyThreadsNeverDeadlock() {
        // Every round, 16 threads read the same 6 fresh OuterHolders, each thread in its own
        // order. A first read holds that property's gate while its factory builds a
        // SendableHolder, whose own property then resolves the clock. Gates held across
        // factories must only make readers of the same property wait, in any interleaving.
        let store = DependencyStore()
        store.register(SendableClock(now: 4), for: SendableClockType.self)
        store.register(SendableHolder.self) { _ in SendableHolder() }
        let wrong = Counter()
        let rounds = 60
        let outers = store.execute { (0..<rounds).map { _ in (0..<6).map { _ in OuterHolder() } } }

        onManyThreads(threads: 16, rounds: rounds) { round, thread in
            let holders = outers[round]
            for offset in 0..<holders.count {
                let index = (thread * 5 + offset * (thread % 2 == 0 ? 1 : holders.count - 1)) % holders.count
                if holders[index].holder.clock.now != 4 { wrong.increment() }
            }
        }

        #expect(wrong.value == 0)
    }

    @Test(.onThreadsOfItsOwn) func sharedPropertiesReadFirstByManyThreadsAtOnceAcrossADeepGraphResolveOnce() {
        let store = DependencyStore()
        let built = Counter()
        store.register(SendableClockType.self) { _ in
            built.increment()
            return SendableClock(now: 5)
        }
        store.register(SendableHolder.self) { _ in SendableHolder() }
        let rounds = 100
        let outers = store.execute { (0..<rounds).map { _ in OuterHolder() } }

        onManyThreads(threads: 12, rounds: rounds) { round, _ in
            _ = outers[round].holder.clock.now
        }

        // One OuterHolder resolves one SendableHolder, which resolves one clock: once per round.
        #expect(built.value == rounds)
    }

    @Test func concurrentTasksEachWithItsOwnStoreResolveOnlyTheirOwnMocks() async {
        let wrong = await withTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let store = DependencyStore()
                    store.register(Label("task \(index)"), for: Label.self)
                    store.register(LabelPair.self) { store in LabelPair(first: store.resolve(), second: store.resolve())
                    }
                    return store.execute {
                        DependencyStore.shared.resolve(LabelPair.self).second.text == "task \(index)" ? 0 : 1
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}

struct Label: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

struct LabelPair: Sendable {
    let first: Label
    let second: Label
}

/// Carries a wait's result from a factory on one thread to the test on another.
final class WaitOutcome: @unchecked Sendable {
    private let recorded = DispatchSemaphore(value: 0)
    private var result: DispatchTimeoutResult?

    func record(_ result: DispatchTimeoutResult) {
        self.result = result
        recorded.signal()
    }

    func waitUntilRecorded() -> DispatchTimeoutResult? {
        guard recorded.wait(for: "the other thread's wait to end") else { return nil }
        return result
    }

    @Test(.onThreadsOfItsOwn) func aParentSingletonAskedForThroughOneChildByManyThreadsIsBuiltOnceInTheChild() {
        // The child's slot for an inherited registration is created on first use; without doing
        // that under the child's lock, two threads would each create a slot and build.
        let rounds = 100
        let live = DependencyStore()
        let builds = Counter()
        live.register(Session.self, scope: .singleton) { _ in Session(builds.increment()) }
        live.register(FixedGreeting("live"), for: Greeting.self)
        // Each child overrides something, so it keeps its own instance rather than sharing.
        let children = (0..<rounds).map { _ in
            let child = DependencyStore(parent: live)
            child.register(FixedGreeting("child"), for: Greeting.self)
            return child
        }
        let distinct = (0..<rounds).map { _ in Recorded<Set<ObjectIdentifier>>([]) }

        onManyThreads(threads: 8, rounds: rounds) { round, _ in
            let identity = ObjectIdentifier(children[round].resolve(Session.self))
            distinct[round].update { $0.insert(identity) }
        }

        #expect(builds.value == rounds, "one build per child, none in the parent")
        #expect(distinct.allSatisfy { $0.value.count == 1 })
    }

    @Test(.onThreadsOfItsOwn) func resetsRacingResolvesAlwaysHandOutAWholeInstance() {
        // A reset swaps the cached instance out under the store's lock while other threads read
        // it; run under the thread sanitizer, any unguarded access is reported.
        let store = DependencyStore()
        let builds = Counter()
        store.register(Session.self, scope: .session) { _ in Session(builds.increment()) }
        let wrong = Counter()

        onManyThreads(threads: 8, rounds: 30) { _, thread in
            for step in 0..<50 {
                if (thread + step) % 10 == 0 {
                    store.reset(.session)
                } else if store.resolve(Session.self).number < 1 {
                    wrong.increment()
                }
            }
        }

        #expect(wrong.value == 0)
        #expect(builds.value >= 1)
    }

    @Test(.onThreadsOfItsOwn) func weakInstancesDroppedAndResolvedFromManyThreadsStayValid() {
        let store = DependencyStore()
        store.register(Session.self, scope: .weak) { _ in Session(1) }
        let wrong = Counter()

        onManyThreads(threads: 8, rounds: 30) { _, _ in
            for _ in 0..<50 {
                // Each resolve either shares a live instance or builds a new one; dropping it
                // right away races the weak reference's release against other threads' reads.
                if store.resolve(Session.self).number != 1 { wrong.increment() }
            }
        }

        #expect(wrong.value == 0)
    }

    @Test(.onThreadsOfItsOwn) func childStoresThatComeAndGoOnManyThreadsLetGoOfWhatAParentReplacedAndAreFreed() {
        // A parent lists its live children, each of which leaves the list when it ends. One
        // thread registers the parent's singleton again and again while the others make child
        // stores that keep their own instance of it and end. Once a newer registration than the
        // one that built a live child's instance has been made, the child must have let go of
        // that instance (the parent reached it); and every child must be freed at the end.
        let parent = DependencyStore()
        parent.register(FixedGreeting("parent"), for: Greeting.self)
        parent.register(Versioned.self, scope: .singleton) { _ in Versioned(0) }
        let published = Recorded(0)
        let finished = Counter()
        let checked = Counter()
        let stillKept = Counter()
        let tokens = Recorded<[WeakBox<ChildToken>]>([])

        onManyThreads(threads: 8, rounds: 20) { round, thread in
            if thread == 0 {
                var step = 0
                while finished.value < 7 * (round + 1), step < 100_000 {
                    step += 1
                    let version = round * 1_000_000 + step
                    parent.register(Versioned.self, scope: .singleton) { _ in Versioned(version) }
                    published.set(version)
                }
                return
            }
            for _ in 0..<10 {
                let token = ChildToken()
                let child = DependencyStore(parent: parent)
                child.register(FixedGreeting("child"), for: Greeting.self)
                child.register(token, for: ChildToken.self)
                let (kept, version) = { () -> (WeakBox<Versioned>, Int) in
                    let instance = child.resolve(Versioned.self)
                    return (WeakBox(instance), instance.version)
                }()
                var spins = 0
                while published.value <= version, spins < 10_000 {
                    spins += 1
                    sched_yield()
                }
                if published.value > version {
                    checked.increment()
                    if kept.object != nil { stillKept.increment() }
                }
                tokens.update { $0.append(WeakBox(token)) }
            }
            finished.increment()
        }

        #expect(checked.value > 0)
        #expect(stillKept.value == 0)
        #expect(tokens.value.count == 7 * 10 * 20)
        #expect(tokens.value.allSatisfy { $0.object == nil })
    }
}
