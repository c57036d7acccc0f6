import DependencyStore
import Foundation
import Testing

// A car, as a start-up graph in small: the car needs an engine and wheels, the engine a spark.
// Sendable, so that the async tests can build them too.
final class TracedSpark: Sendable {}
final class TracedWheels: Sendable {}
final class TracedEngine: Sendable {
    let spark: TracedSpark
    init(spark: TracedSpark) { self.spark = spark }
}
final class TracedCar: Sendable {
    let engine: TracedEngine
    let wheels: TracedWheels
    init(engine: TracedEngine, wheels: TracedWheels) {
        self.engine = engine
        self.wheels = wheels
    }
}

/// A clock that moves only when a factory moves it, so that durations, and the order they give,
/// are the same on every machine.
final class ManualClock: Sendable {
    private let nanoseconds = Recorded<UInt64>(0)

    func advance(milliseconds: UInt64) {
        nanoseconds.update { $0 += milliseconds * 1_000_000 }
    }

    var now: @Sendable () -> UInt64 {
        { [nanoseconds] in nanoseconds.value }
    }
}

/// Every event an observer received, in order.
private func recordEvents(of store: DependencyStore) -> (
    events: Recorded<[ResolveEvent]>, observation: ResolveObservation
) {
    let events = Recorded<[ResolveEvent]>([])
    let observation = store.observeResolves { event in events.update { $0.append(event) } }
    return (events, observation)
}

/// The car's registrations; `clock`, when given, moves by each factory's own cost in milliseconds:
/// spark 8, engine 3, wheels 1, car 1.
private func registerCar(in store: DependencyStore, clock: ManualClock? = nil) {
    store.register(TracedSpark.self, scope: .singleton) { _ in
        clock?.advance(milliseconds: 8)
        return TracedSpark()
    }
    store.register(TracedEngine.self, scope: .singleton) { store in
        clock?.advance(milliseconds: 3)
        return TracedEngine(spark: store.resolve())
    }
    store.register(TracedWheels.self) { _ in
        clock?.advance(milliseconds: 1)
        return TracedWheels()
    }
    store.register(TracedCar.self) { store in
        clock?.advance(milliseconds: 1)
        return TracedCar(engine: store.resolve(), wheels: store.resolve())
    }
}

@Suite struct ResolveObserverTests {
    @Test func aBuildIsReportedWithItsTimeAndAKeptInstanceWithout() {
        let store = DependencyStore()
        store.register(TracedSpark.self, scope: .singleton) { _ in TracedSpark() }
        let (events, observation) = recordEvents(of: store)

        let first = store.resolve(TracedSpark.self)
        let second = store.resolve(TracedSpark.self)

        #expect(first === second)
        let reported = events.value
        try? #require(reported.count == 2)
        #expect(reported.map(\.label) == ["TracedSpark", "TracedSpark"])
        #expect(reported.allSatisfy { $0.type == TracedSpark.self && $0.name == nil && $0.scope == .singleton })
        #expect(reported.allSatisfy { $0.store == store.description && $0.chain.isEmpty })
        #expect(reported[0].build != nil)
        #expect(reported[1].build == nil)
        observation.cancel()
    }

    @Test func namesAndScopesAreReportedAsRegistered() {
        let store = DependencyStore()
        store.register(Label.self, name: "formal", scope: Scope("session")) { _ in Label("Good day") }
        store.register(Session.self, scope: .graph) { _ in Session() }
        store.register(SessionPair.self) { store in SessionPair(first: store.resolve(), second: store.resolve()) }
        let (events, observation) = recordEvents(of: store)

        _ = store.resolve(Label.self, name: "formal")
        _ = store.resolve(SessionPair.self)

        let reported = events.value
        #expect(reported.map(\.label) == ["Label (named \"formal\")", "Session", "Session", "SessionPair"])
        #expect(reported.map(\.name) == ["formal", nil, nil, nil])
        #expect(reported.map(\.scope) == [Scope("session"), .graph, .graph, .unique])
        // The second Session is the one the first built for this resolve: shared, not built.
        #expect(reported.map { $0.build != nil } == [true, true, false, true])
        #expect(reported[0].description.hasPrefix("built Label (named \"formal\", Scope(\"session\")) in "))
        #expect(reported[2].description == "reused Session (.graph) in \(store), for SessionPair")
        observation.cancel()
    }

    @Test func theChainNamesWhatIsBeingBuiltOutermostFirst() {
        let store = DependencyStore()
        registerCar(in: store)
        let (events, observation) = recordEvents(of: store)

        _ = store.resolve(TracedCar.self)

        let reported = events.value
        #expect(reported.map(\.label) == ["TracedSpark", "TracedEngine", "TracedWheels", "TracedCar"])
        #expect(
            reported.map(\.chain) == [
                ["TracedCar", "TracedEngine"], ["TracedCar"], ["TracedCar"], [],
            ])
        observation.cancel()
    }

    @Test func ownTimeLeavesOutTheBuildsAFactoryAskedFor() {
        let clock = ManualClock()
        let store = DependencyStore()
        registerCar(in: store, clock: clock)
        let (events, observation) = recordEvents(of: store)

        DependencyStore.withTracingClock(clock.now) {
            _ = store.resolve(TracedCar.self)
        }

        let builds = Dictionary(uniqueKeysWithValues: events.value.map { ($0.label, $0.build) })
        #expect(milliseconds(builds["TracedSpark"]) == [8, 8])
        #expect(milliseconds(builds["TracedEngine"]) == [11, 3])
        #expect(milliseconds(builds["TracedWheels"]) == [1, 1])
        #expect(milliseconds(builds["TracedCar"]) == [13, 1])
        #expect(events.value.last?.description == "built TracedCar (.unique) in 13.000 ms, 1.000 ms own, in \(store)")
        observation.cancel()
    }

    @Test func everyWayOfResolvingIsReported() {
        let store = DependencyStore()
        store.register(FixedGreeting("Hello"), for: Greeting.self)
        store.register(Label.self) { (_, text: String) in Label(text) }
        store.register(Session.self, scope: .singleton) { _ in Session() }
        let (events, observation) = recordEvents(of: store)

        _ = store.execute { Screen() }.greeting
        _ = store.resolveIfRegistered(Greeting.self)
        _ = store.resolveIfRegistered(Clock.self)
        _ = try? store.tryResolve(Greeting.self)
        _ = store.resolve(Label.self, arguments: "t")
        _ = store.resolve(Provider<Session>.self)()
        _ = store.resolve(Lazy<Session>.self).value

        #expect(
            events.value.map(\.label) == ["Greeting", "Greeting", "Greeting", "Label", "Session", "Session"])
        #expect(events.value.map { $0.build != nil } == [true, true, true, true, true, false])
        observation.cancel()
    }

    @Test func aReleasedRecordingStopsObserving() {
        let store = DependencyStore()
        registerCar(in: store)
        weak var released: StartupRecording?
        do {
            let recording = store.startRecording()
            released = recording
            _ = store.resolve(TracedSpark.self)
        }

        #expect(released == nil, "the store's observer does not keep the recording")
    }

    @Test func aStoreOverAnotherReportsItsOwnResolvesOnlyToItsOwnObservers() {
        let parent = DependencyStore()
        registerCar(in: parent)
        let (parentEvents, parentObservation) = recordEvents(of: parent)
        let child = DependencyStore(parent: parent)
        let unobservedChild = DependencyStore(parent: parent)
        let (childEvents, childObservation) = recordEvents(of: child)

        _ = child.resolve(TracedEngine.self)

        #expect(parentEvents.value.isEmpty)
        #expect(childEvents.value.map(\.label) == ["TracedSpark", "TracedEngine"])
        #expect(childEvents.value.allSatisfy { $0.store == child.description && $0.build != nil })
        #expect(child.description != parent.description)

        // A store with observers of its own keeps its own singletons. One without shares the
        // parent's (the sharing rule): the parent builds them, and says so.
        _ = unobservedChild.resolve(TracedEngine.self)
        #expect(parentEvents.value.map(\.store) == [parent.description, parent.description])
        #expect(parentEvents.value.allSatisfy { $0.build != nil })
        _ = parent.resolve(TracedEngine.self)
        #expect(parentEvents.value.count == 3)
        #expect(parentEvents.value.last?.build == nil, "kept since the unobserved child's resolve")
        #expect(childEvents.value.count == 2)
        parentObservation.cancel()
        childObservation.cancel()
    }

    @Test func aKeptInstanceReportsWhatItsBuildReportedOnEveryResolveAndItsChainWhereItHasOne() {
        // The resolves of a kept instance outside any factory share what their events say; those
        // inside a factory say their own chain, and leave the others' as it was.
        let store = DependencyStore()
        store.register(TracedSpark.self, name: "plug", scope: Scope("session")) { _ in TracedSpark() }
        store.register(TracedWheels.self) { store in
            _ = store.resolve(TracedSpark.self, name: "plug")
            return TracedWheels()
        }
        let (events, observation) = recordEvents(of: store)

        _ = store.resolve(TracedSpark.self, name: "plug")
        _ = store.resolve(TracedSpark.self, name: "plug")
        _ = store.resolve(TracedWheels.self)
        _ = store.resolve(TracedSpark.self, name: "plug")

        let sparks = events.value.filter { $0.type == TracedSpark.self }
        try? #require(sparks.count == 4)
        #expect(sparks.map { $0.build != nil } == [true, false, false, false])
        #expect(sparks.allSatisfy { $0.label == "TracedSpark (named \"plug\")" && $0.name == "plug" })
        #expect(sparks.allSatisfy { $0.scope == Scope("session") && $0.store == store.description })
        #expect(sparks.map(\.chain) == [[], [], ["TracedWheels"], []])
        let reused = "reused TracedSpark (named \"plug\", Scope(\"session\")) in \(store)"
        #expect(sparks.dropFirst().map(\.description) == [reused, reused + ", for TracedWheels", reused])
        observation.cancel()
    }

    @Test func theReusesOfAnInheritedSingletonNameTheStoreThatKeepsIt() {
        // A store with observers keeps its own copy of its parent's singleton, in a slot of its
        // own: each store's events name that store, whichever resolved first.
        let parent = DependencyStore()
        parent.register(TracedSpark.self, name: "plug", scope: .singleton) { _ in TracedSpark() }
        let child = DependencyStore(parent: parent)
        let (parentEvents, parentObservation) = recordEvents(of: parent)
        let (childEvents, childObservation) = recordEvents(of: child)

        for _ in 0..<3 {
            _ = child.resolve(TracedSpark.self, name: "plug")
            _ = parent.resolve(TracedSpark.self, name: "plug")
        }

        #expect(parentEvents.value.map(\.store) == Array(repeating: parent.description, count: 3))
        #expect(childEvents.value.map(\.store) == Array(repeating: child.description, count: 3))
        #expect((parentEvents.value + childEvents.value).allSatisfy { $0.label == "TracedSpark (named \"plug\")" })
        #expect(parentEvents.value.map { $0.build != nil } == [true, false, false])
        #expect(childEvents.value.map { $0.build != nil } == [true, false, false])
        parentObservation.cancel()
        childObservation.cancel()
    }

    @Test func aReplacedRegistrationsResolvesReportItsOwnScope() {
        let store = DependencyStore()
        store.register(TracedSpark.self, scope: .singleton) { _ in TracedSpark() }
        let (events, observation) = recordEvents(of: store)

        _ = store.resolve(TracedSpark.self)
        _ = store.resolve(TracedSpark.self)
        store.register(TracedSpark.self, scope: Scope("session")) { _ in TracedSpark() }
        _ = store.resolve(TracedSpark.self)
        _ = store.resolve(TracedSpark.self)

        #expect(events.value.map(\.scope) == [.singleton, .singleton, Scope("session"), Scope("session")])
        #expect(events.value.map { $0.build != nil } == [true, false, true, false])
        observation.cancel()
    }

    @Test func anEventKeptAfterItsStoreWentStillReadsAndKeptNothingOfTheStore() {
        // The observer keeps every event; the store and the instance it kept go all the same.
        let events = Recorded<[ResolveEvent]>([])
        weak var spark: TracedSpark?
        var storeDescription = ""
        do {
            let store = DependencyStore()
            store.register(TracedSpark.self, name: "plug", scope: .singleton) { _ in TracedSpark() }
            store.observeResolves { event in events.update { $0.append(event) } }
            let kept = store.resolve(TracedSpark.self, name: "plug")
            spark = kept
            _ = store.resolve(TracedSpark.self, name: "plug")
            storeDescription = store.description
        }

        #expect(spark == nil)
        #expect(events.value.map(\.store) == [storeDescription, storeDescription])
        #expect(events.value.map(\.label) == ["TracedSpark (named \"plug\")", "TracedSpark (named \"plug\")"])
        #expect(
            events.value.last?.description == "reused TracedSpark (named \"plug\", .singleton) in \(storeDescription)")
    }

    @Test func cancellingStopsTheEventsAndEveryObserverIsCalled() {
        let store = DependencyStore()
        registerCar(in: store)
        let (first, firstObservation) = recordEvents(of: store)
        let (second, secondObservation) = recordEvents(of: store)

        _ = store.resolve(TracedWheels.self)
        firstObservation.cancel()
        _ = store.resolve(TracedWheels.self)
        secondObservation.cancel()
        secondObservation.cancel()
        _ = store.resolve(TracedWheels.self)
        _ = store.resolve(TracedSpark.self)
        _ = store.resolve(TracedSpark.self)

        #expect(first.value.count == 1)
        #expect(second.value.count == 2)
    }

    @Test func anObserverThatResolvesIsNotCalledForItsOwnResolves() {
        // The observer resolves from the store it observes: a .unique it builds anew, and the
        // singleton whose build it is told of. Neither deadlocks (no lock or gate is held while it
        // runs), and neither calls it back (which would recurse without end).
        let store = DependencyStore()
        registerCar(in: store)
        let labels = Recorded<[String]>([])
        let observation = store.observeResolves { event in
            labels.update { $0.append(event.label) }
            _ = store.resolve(TracedWheels.self)
            _ = store.resolve(TracedSpark.self)
        }

        _ = store.resolve(TracedSpark.self)
        _ = store.resolve(TracedWheels.self)
        _ = store.resolve(TracedCar.self)

        #expect(
            labels.value == [
                "TracedSpark", "TracedWheels", "TracedSpark", "TracedEngine", "TracedWheels", "TracedCar",
            ])
        observation.cancel()  // the observer holds the store: this lets both go
    }

    @Test(.onThreadsOfItsOwn) func noLockOrGateIsHeldWhileAnObserverRuns() {
        // The observer, told of the spark's build, waits until another thread has resolved the
        // spark, registered and resolved something else. Were the store's lock or the spark's gate
        // held meanwhile, that thread would wait for the observer and the deadline would pass: a
        // deadline, not a sleep, turns the deadlock into a failure.
        let store = DependencyStore()
        registerCar(in: store)
        let otherThreadDone = DispatchSemaphore(value: 0)
        let observerStarted = DispatchSemaphore(value: 0)
        let outcome = WaitOutcome()
        let observation = store.observeResolves { event in
            guard event.label == "TracedSpark", event.build != nil else { return }
            observerStarted.signal()
            outcome.record(otherThreadDone.wait(timeout: .now() + testDeadline))
        }

        let resolver = Thread { _ = store.resolve(TracedSpark.self) }
        resolver.start()
        observerStarted.wait(for: "the observer to start")
        _ = store.resolve(TracedSpark.self)
        store.register(Label("late"), for: Label.self)
        _ = store.resolve(TracedWheels.self)
        otherThreadDone.signal()

        #expect(outcome.waitUntilRecorded() == .success)
        observation.cancel()
    }

    @Test(.onThreadsOfItsOwn) func observersCalledFromManyThreadsAtOnceSeeEveryResolveOnceOnItsThread() {
        // Each round, a fresh store with a singleton spark that takes about 1 ms, so that most of
        // the threads wait for its one build, and cars, engines and wheels built on every thread.
        // Each event is counted under the thread that delivered it: every thread must see exactly
        // the resolves it made, once each, and the store must report exactly one spark build.
        let threads = 12
        let rounds = 25
        let carsPerThread = 4
        struct Tally: Hashable {
            var built = 0
            var reused = 0
        }
        let tallies = Recorded<[String: [Int: Tally]]>([:])
        let stores = (0..<rounds).map { _ in
            let store = DependencyStore()
            store.register(TracedSpark.self, scope: .singleton) { _ in
                spin(microseconds: 1_000)
                return TracedSpark()
            }
            store.register(TracedEngine.self) { store in TracedEngine(spark: store.resolve()) }
            store.register(TracedWheels.self) { _ in
                spin(microseconds: 20)
                return TracedWheels()
            }
            store.register(TracedCar.self) { store in TracedCar(engine: store.resolve(), wheels: store.resolve()) }
            store.observeResolves { event in
                let thread = Thread.current.threadDictionary["tracing-thread"] as? Int ?? -1
                tallies.update { tallies in
                    if event.build != nil {
                        tallies[event.label, default: [:]][thread, default: Tally()].built += 1
                    } else {
                        tallies[event.label, default: [:]][thread, default: Tally()].reused += 1
                    }
                }
            }
            return store
        }

        onManyThreads(threads: threads, rounds: rounds) { round, thread in
            Thread.current.threadDictionary["tracing-thread"] = round * threads + thread
            for _ in 0..<carsPerThread {
                _ = stores[round].resolve(TracedCar.self)
            }
        }

        let resolvers = Set(0..<(threads * rounds))
        let counts = tallies.value
        for label in ["TracedCar", "TracedEngine", "TracedWheels"] {
            #expect(Set(counts[label, default: [:]].keys) == resolvers)
            #expect(counts[label, default: [:]].values.allSatisfy { $0 == Tally(built: carsPerThread, reused: 0) })
        }
        let sparks = counts["TracedSpark", default: [:]]
        #expect(Set(sparks.keys) == resolvers)
        #expect(sparks.values.allSatisfy { $0.built + $0.reused == carsPerThread })
        #expect(sparks.values.reduce(0) { $0 + $1.built } == rounds)
    }

    @Test(.onThreadsOfItsOwn) func observersComingAndGoingWhileManyThreadsResolveMissNothingTheyWereInstalledFor() {
        // Threads resolve while another installs and cancels observers. An observer sees at most
        // every resolve, and one installed before a resolve and cancelled after it sees it.
        let store = DependencyStore()
        registerCar(in: store)
        let steady = Counter()
        let steadyObservation = store.observeResolves { _ in steady.increment() }
        let resolves = Counter()
        let churned = Counter()

        onManyThreads(threads: 9, rounds: 20) { _, thread in
            if thread == 0 {
                for _ in 0..<50 {
                    let observation = store.observeResolves { _ in churned.increment() }
                    observation.cancel()
                }
                return
            }
            for _ in 0..<30 {
                _ = store.resolve(TracedCar.self)
                // The car, its engine (built once, then kept) and its wheels.
                for _ in 0..<3 { resolves.increment() }
            }
        }

        steadyObservation.cancel()
        // And the spark, which the engine's one build resolved.
        #expect(steady.value == resolves.value + 1)
        #expect(churned.value <= resolves.value + 1)
        // Cancelled: the kept-instance path is back, and no observer hears of it.
        _ = store.resolve(TracedSpark.self)
        #expect(steady.value == resolves.value + 1)
    }
}

@Suite struct AsyncResolveObserverTests {
    @Test func anAsyncSingletonAwaitedByManyTasksReportsOneBuild() async throws {
        // Each round, 40 tasks await a fresh store's async singleton, whose factory takes about
        // 1 ms: one task's resolve builds, and each of the others reports the instance it awaited.
        for _ in 0..<10 {
            let store = DependencyStore()
            store.register(TracedEngine.self, scope: .singleton) { store async throws in
                spin(microseconds: 1_000)
                return TracedEngine(spark: store.resolve())
            }
            store.register(TracedSpark.self) { _ in TracedSpark() }
            let (events, observation) = recordEvents(of: store)

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask { _ = try await store.resolveAsync(TracedEngine.self) }
                }
                try await group.waitForAll()
            }

            let engines = events.value.filter { $0.label == "TracedEngine" }
            #expect(engines.count == 40)
            #expect(engines.filter { $0.build != nil }.count == 1)
            let sparks = events.value.filter { $0.label == "TracedSpark" }
            #expect(sparks.count == 1)
            #expect(sparks.first?.chain == ["TracedEngine"], "a sync resolve inside an async factory")
            observation.cancel()
        }
    }

    @Test func anAsyncFactorysOwnTimeLeavesOutWhatItResolved() async throws {
        let clock = ManualClock()
        let store = DependencyStore()
        store.register(TracedCar.self) { store async throws in
            clock.advance(milliseconds: 2)
            let engine = try await store.resolveAsync(TracedEngine.self)
            return TracedCar(engine: engine, wheels: store.resolve())
        }
        store.register(TracedEngine.self, scope: .singleton) { store async throws in
            clock.advance(milliseconds: 5)
            return TracedEngine(spark: store.resolve())
        }
        registerSparkAndWheels(in: store, clock: clock)
        let (events, observation) = recordEvents(of: store)

        try await DependencyStore.withTracingClock(clock.now) {
            _ = try await store.resolveAsync(TracedCar.self)
        }

        let builds = Dictionary(uniqueKeysWithValues: events.value.map { ($0.label, $0.build) })
        #expect(milliseconds(builds["TracedSpark"]) == [8, 8])
        #expect(milliseconds(builds["TracedEngine"]) == [13, 5])
        #expect(milliseconds(builds["TracedWheels"]) == [1, 1])
        #expect(milliseconds(builds["TracedCar"]) == [16, 2])
        #expect(events.value.first { $0.label == "TracedSpark" }?.chain == ["TracedCar", "TracedEngine"])
        observation.cancel()
    }

    @Test func anAsyncSingletonsReusesReportWhatItsBuildReported() async throws {
        let store = DependencyStore()
        store.register(TracedEngine.self, name: "v8", scope: .singleton) { store async throws in
            TracedEngine(spark: store.resolve())
        }
        store.register(TracedSpark.self, scope: .singleton) { _ in TracedSpark() }
        let (events, observation) = recordEvents(of: store)

        for _ in 0..<3 { _ = try await store.resolveAsync(TracedEngine.self, name: "v8") }
        _ = store.resolve(TracedSpark.self)
        _ = try await store.resolveAsync(TracedSpark.self)

        let engines = events.value.filter { $0.type == TracedEngine.self }
        #expect(engines.map { $0.build != nil } == [true, false, false])
        #expect(engines.allSatisfy { $0.name == "v8" && $0.scope == .singleton && $0.store == store.description })
        #expect(engines.allSatisfy { $0.chain.isEmpty })
        let sparks = events.value.filter { $0.type == TracedSpark.self }
        #expect(sparks.map(\.chain) == [["TracedEngine (named \"v8\")"], [], []])
        #expect(sparks.map { $0.build != nil } == [true, false, false])
        observation.cancel()
    }

    @Test func aMainActorFactoryResolvedFromOffTheMainActorIsReportedOnce() async throws {
        let store = DependencyStore()
        let built = Counter()
        registerProfile(in: store, built: built, scope: .singleton)
        let (events, observation) = recordEvents(of: store)

        _ = try await Task.detached { try await store.resolveAsync(ProfileModel.self) }.value
        _ = try await Task.detached { try await store.resolveAsync(ProfileModel.self) }.value

        #expect(events.value.map(\.label) == ["ProfileModel", "ProfileModel"])
        #expect(events.value.map { $0.build != nil } == [true, false])
        observation.cancel()
    }

    private func registerSparkAndWheels(in store: DependencyStore, clock: ManualClock) {
        store.register(TracedSpark.self) { _ in
            clock.advance(milliseconds: 8)
            return TracedSpark()
        }
        store.register(TracedWheels.self) { _ in
            clock.advance(milliseconds: 1)
            return TracedWheels()
        }
    }
}

@Suite struct StartupReportTests {
    @Test func theReportAddsUpRunsAndPutsTheSlowestOwnTimeFirst() {
        let clock = ManualClock()
        let store = DependencyStore()
        registerCar(in: store, clock: clock)

        let report = DependencyStore.withTracingClock(clock.now) {
            store.recordStartup {
                _ = store.resolve(TracedCar.self)  // builds everything: 13 ms
                _ = store.resolve(TracedCar.self)  // a car and wheels: the engine is kept
                clock.advance(milliseconds: 2)  // start-up work outside any factory
            }
        }

        // Own times: spark 8, engine 3, car 1 + 1, wheels 1 + 1. The car and the wheels tie on
        // their own time, and the car, whose total is larger, comes first.
        #expect(report.entries.map(\.label) == ["TracedSpark", "TracedEngine", "TracedCar", "TracedWheels"])
        #expect(report.entries.map(\.count) == [1, 1, 2, 2])
        #expect(report.entries.map(\.ownNanoseconds) == [8, 3, 2, 2].map { $0 * 1_000_000 })
        #expect(report.entries.map(\.nanoseconds) == [8, 11, 15, 2].map { $0 * 1_000_000 })
        #expect(report.entries.map(\.scope) == [.singleton, .singleton, .unique, .unique])
        #expect(report.entries.allSatisfy { $0.store == store.description })
        #expect(report.factoryNanoseconds == 15_000_000)
        #expect(report.elapsedNanoseconds == 17_000_000)
        #expect(
            report.description == """
                4 factories ran 6 times: 15.000 ms in factories, over 17.000 ms recorded. Slowest first:

                own ms  total ms  runs  scope       registration  store
                 8.000     8.000     1  .singleton  TracedSpark   \(store)
                 3.000    11.000     1  .singleton  TracedEngine  \(store)
                 2.000    15.000     2  .unique     TracedCar     \(store)
                 2.000     2.000     2  .unique     TracedWheels  \(store)
                """)
    }

    @Test func aReportWithNothingBuiltSaysSo() {
        let clock = ManualClock()
        let store = DependencyStore()
        registerCar(in: store)

        let report = DependencyStore.withTracingClock(clock.now) {
            store.recordStartup { clock.advance(milliseconds: 1) }
        }

        #expect(report.entries.isEmpty)
        #expect(report.description == "No factory ran, over 1.000 ms recorded.")
    }

    @Test func aStoppedRecordingKeepsItsReportAndRecordsNoMore() {
        let store = DependencyStore()
        registerCar(in: store)
        let recording = store.startRecording()
        _ = store.resolve(TracedWheels.self)

        let report = recording.stop()
        _ = store.resolve(TracedWheels.self)

        #expect(report.entries.map(\.count) == [1])
        #expect(recording.stop() == report)
    }

    @Test func aThrowingStartupStopsTheRecordingAndRethrows() {
        let store = DependencyStore()
        registerCar(in: store)
        let (events, observation) = recordEvents(of: store)

        #expect(throws: ConnectionFailed.self) {
            _ = try store.recordStartup {
                _ = store.resolve(TracedWheels.self)
                throw ConnectionFailed()
            }
        }

        // The recording's observer is gone; the test's own one is still there.
        _ = store.resolve(TracedWheels.self)
        #expect(events.value.count == 2)
        observation.cancel()
    }

    @Test func anAsyncStartupIsRecordedAcrossItsSuspensions() async throws {
        let store = DependencyStore()
        registerCar(in: store)
        store.register(Database.self, scope: .singleton) { _ async throws in Database(generation: 1) }

        let report = try await store.recordStartup {
            _ = try await store.resolveAsync(Database.self)
            await Task.yield()
            _ = store.resolve(TracedCar.self)
        }

        #expect(
            Set(report.entries.map(\.label)) == [
                "Database", "TracedCar", "TracedEngine", "TracedSpark", "TracedWheels",
            ])
        #expect(report.entries.allSatisfy { $0.count == 1 })
    }
}

/// A build's total and own time in whole milliseconds, `nil` when nothing was built.
private func milliseconds(_ build: ResolveEvent.Build??) -> [UInt64]? {
    guard case .some(.some(let build)) = build else { return nil }
    return [build.nanoseconds / 1_000_000, build.ownNanoseconds / 1_000_000]
}
