import DependencyStore
import Foundation
import Testing

// Where two features meet: each test here combines two that passed their own tests and broke
// together, before resolution became one engine.

/// A service whose instances are counted, for "how many were built, how often decorated".
final class Counted: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// A `.graph` dependency that several collection elements share.
final class GraphPart {}

/// A collection element that holds the `.graph` part it was built with.
protocol PartUser: AnyObject {
    var part: GraphPart { get }
}

final class FirstPartUser: PartUser {
    let part: GraphPart
    init(part: GraphPart) { self.part = part }
}

final class SecondPartUser: PartUser {
    let part: GraphPart
    init(part: GraphPart) { self.part = part }
}

/// Registers a `.graph` part and two elements of `PartUser` that each resolve it.
private func storeWithTwoElementsSharingAGraphPart() -> DependencyStore {
    let store = DependencyStore()
    store.register(GraphPart.self, scope: .graph) { _ in GraphPart() }
    store.contribute(PartUser.self, name: "first") { store in FirstPartUser(part: store.resolve()) }
    store.contribute(PartUser.self, name: "second") { store in SecondPartUser(part: store.resolve()) }
    return store
}

/// Adds `count` decorators of `Counted` from one line, as a loop or a helper does.
private func addCountingDecorators(_ count: Int, to store: DependencyStore, runs: Counter) {
    for _ in 0..<count {
        store.decorate(Counted.self) { _, tracked in
            runs.increment()
            return tracked
        }
    }
}

/// Decorates `Counted` from one line, as a feature module does.
private struct TrackingAssembly: Assembly {
    let runs: Counter
    func assemble(into store: DependencyStore) {
        addCountingDecorators(1, to: store, runs: runs)
    }
}

/// Docs/Verification.md's example: a module that needs a gateway the app provides.
private struct CheckoutNeedsAGateway: Assembly {
    func assemble(into store: DependencyStore) {
        store.require(Clock.self)
        store.register(Greeting.self) { store in
            _ = store.resolve(Clock.self)
            return FixedGreeting("checkout")
        }
    }
}

/// Decorates the `Session` registered under the name "decorated", as a feature module does.
private struct SessionDecoratingAssembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.decorate(Session.self, name: "decorated") { _, session in session }
    }
}

/// How many threads this process has now (Linux).
private func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}

@Suite struct FeatureInteractionTests {
    // MARK: Requirements and the factories that need them

    @Test func aRequiredTypeThatAFactoryAlsoNeedsStillNamesTheAssemblyThatRequiresIt() {
        let store = DependencyStore()
        store.apply(CheckoutNeedsAGateway())
        let report = store.verify()
        #expect(report.problems.contains { $0.kind == .missing && $0.path.map(\.type) == ["Greeting", "Clock"] })
        let unmet = report.problems.filter { $0.kind == .unmetRequirement }
        #expect(unmet.count == 1)
        #expect(unmet.first?.description.contains("Clock is required by CheckoutNeedsAGateway (at ") == true)
    }

    // MARK: Decisions the model tests asked for

    @Test func unloadingADecoratorDiscardsOnlyTheKeptInstancesItAppliesTo() {
        let parent = DependencyStore()
        parent.apply(SessionDecoratingAssembly())
        let child = DependencyStore(parent: parent)
        child.register(Session(1), for: Session.self, scope: .singleton)
        child.register(Session(2), for: Session.self, name: "decorated", scope: .singleton)
        let untouched = child.resolve(Session.self)
        let decorated = child.resolve(Session.self, name: "decorated")

        parent.unload(SessionDecoratingAssembly.self)

        #expect(child.resolve(Session.self) === untouched, "no unloaded decorator applies to it")
        #expect(child.resolve(Session.self, name: "decorated") !== decorated, "built again, undecorated")
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aDictionaryOfElementsWhenOnlyUnnamedOnesExistIsMissingAndSaysSo() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.contribute(NamedPlugin("console"), to: Plugin.self)
                _ = store.resolve([String: Plugin].self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("no named element is contributed to it"))
        #expect(stderr.contains("To fix: contribute its elements"))
    }
    #endif

    // MARK: Verification and threads

    #if compiler(>=6.2) && os(Linux)
    /// Each build `verify()` stops parks its worker for good (Swift has no defined way to leave a
    /// factory's frames), and nothing else stays: a build that returns ends its thread, and
    /// `verifyAsync()` builds the main-actor factory on the main actor, with no thread of its own.
    @Test func verifyLeavesOneParkedThreadPerStoppedBuildAndNoOther() async {
        // In a process of its own: the count of threads is the whole process's.
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            store.register(ProfileModel.self, on: MainActor.self) { _ in ProfileModel(number: 0) }
            store.register(Banner.self) { store in
                _ = store.resolve(ProfileModel.self)  // verify() stops here: it needs the main actor
                return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
            }
            store.register(Greeting.self) { store in
                _ = store.resolve(Clock.self)  // missing: both forms stop here
                return FixedGreeting("")
            }
            // Once each first, so that the threads the runtime keeps (its task pool's) exist.
            func verifyAsync(rounds: Int) {
                let finished = DispatchSemaphore(value: 0)
                Task {
                    for _ in 0..<rounds { _ = await store.verifyAsync() }
                    finished.signal()
                }
                if finished.wait(timeout: .now() + 30) == .timedOut { exit(2) }
            }
            _ = store.verify()
            verifyAsync(rounds: 1)
            let before = threadCount()
            // verify(): Banner's and Greeting's builds stop; verifyAsync(): Greeting's.
            for _ in 0..<20 { _ = store.verify() }
            verifyAsync(rounds: 20)
            let parked = 20 * 2 + 20 * 1
            // Ended threads leave /proc a moment after they return; poll, with a deadline.
            let deadline = Date().addingTimeInterval(10)
            while threadCount() > before + parked, Date() < deadline { usleep(10_000) }
            if threadCount() > before + parked {
                FileHandle.standardError.write(
                    Data("threads: \(before) before, \(threadCount()) after, \(parked) parked\n".utf8))
                exit(1)
            }
        }
    }
    #endif

    // MARK: Decorators and main-actor isolation

    @Test(arguments: [Scope.singleton, .unique, .session])
    func aMainActorRegistrationIsDecoratedOnceWhenResolvedFromOffTheMainActor(scope: Scope) async throws {
        let store = DependencyStore()
        let built = Counter()
        let decorated = Counter()
        store.register(ProfileModel.self, scope: scope, on: MainActor.self) { _ in
            ProfileModel(number: built.increment())
        }
        store.decorate(ProfileModel.self) { _, model in
            decorated.increment()
            return model
        }
        _ = try await Task.detached { try await store.resolveAsync(ProfileModel.self) }.value
        #expect(built.value == 1)
        #expect(decorated.value == 1, "one build, one decoration")
    }

    @Test func aMainActorSingletonIsDecoratedOnceHoweverManyTasksResolveIt() async throws {
        let store = DependencyStore()
        let decorated = Counter()
        store.register(ProfileModel.self, scope: .singleton, on: MainActor.self) { _ in ProfileModel(number: 1) }
        store.decorate(ProfileModel.self) { _, model in
            decorated.increment()
            return model
        }
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<24 {
                group.addTask { ObjectIdentifier(try await store.resolveAsync(ProfileModel.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(decorated.value == 1)
        #expect(identities.count == 1, "every task gets the one decorated singleton")
    }

    // MARK: `.graph` across a collection

    @Test func theElementsOfOneCollectionResolveShareTheirGraphInstances() throws {
        let store = storeWithTwoElementsSharingAGraphPart()

        let all = store.resolveAll(PartUser.self)
        #expect(all.count == 2)
        #expect(all[0].part === all[1].part, "resolveAll")

        let array = store.resolve([PartUser].self)
        #expect(array[0].part === array[1].part, "[T]")

        let dictionary = store.resolve([String: PartUser].self)
        let first = try #require(dictionary["first"])
        let second = try #require(dictionary["second"])
        #expect(first.part === second.part, "[String: T]")

        // Two top-level resolves are two graphs.
        #expect(store.resolveAll(PartUser.self)[0].part !== all[0].part)
    }

    // MARK: Stages together

    /// Tracing and decoration are stages of one path: in a store with both, a traced build is
    /// decorated once, and an observer's own resolve, which is neither traced nor reported, keeps
    /// its arguments.
    @Test func anObservedStoreWithDecoratorsDecoratesOnceAndKeepsArguments() {
        let store = DependencyStore()
        let decorations = Counter()
        store.register(Greeting.self) { (_, name: String) in FixedGreeting("Hello, \(name)") }
        store.decorate(Greeting.self) { _, greeting in
            decorations.increment()
            return FixedGreeting(greeting.text + "!")
        }
        let fromObserver = Recorded<[String]>([])
        let observation = store.observeResolves { [store] _ in
            fromObserver.update { $0.append(store.resolve(Greeting.self, arguments: "observer").text) }
        }
        #expect(store.resolve(Greeting.self, arguments: "Ada").text == "Hello, Ada!")
        #expect(fromObserver.value == ["Hello, observer!"], "one report; the observer's resolve is not reported")
        #expect(decorations.value == 2, "once for each of the two builds")
        withExtendedLifetime(observation) {}
    }

    // MARK: Decorators from one line

    @Test func decoratorsAddedFromOneLineAllRun() {
        let store = DependencyStore()
        let runs = Counter()
        store.register(Counted.self) { _ in Counted(0) }
        addCountingDecorators(3, to: store, runs: runs)
        _ = store.resolve(Counted.self)
        #expect(runs.value == 3, "several decorators run in the order added")
    }

    @Test func anAssemblyAppliedTwiceStillDecoratesOnce() {
        let store = DependencyStore()
        let runs = Counter()
        store.register(Counted.self) { _ in Counted(0) }
        let assembly = TrackingAssembly(runs: runs)
        store.apply(assembly)
        store.apply(assembly)
        _ = store.resolve(Counted.self)
        #expect(runs.value == 1, "the second application replaces the first one's decorator")
    }

    // MARK: Async cycles with several awaits in flight

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func anAsyncCycleClosedWhileTheFactoryAwaitsTwoThingsTrapsInsteadOfHanging() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let pongStarted = AsyncGate()
                let databaseStarted = AsyncGate()
                // The order that hid the cycle: Ping awaits Pong (in a child task) and then the
                // database, so its latest wait is the database's; only then does Pong await Ping.
                // The pauses order the steps; the test passes in any order once every wait counts.
                store.register(Database.self, scope: .singleton) { _ async throws in
                    await databaseStarted.arriveAndWait(for: 2)
                    try await Task.sleep(nanoseconds: 300_000_000)
                    return Database(generation: 0)
                }
                store.register(Ping.self, scope: .singleton) { store async throws in
                    async let pong = store.resolveAsync(Pong.self)
                    try await Task.sleep(nanoseconds: 50_000_000)
                    _ = try await store.resolveAsync(Database.self)
                    return Ping(try await pong)
                }
                store.register(Pong.self, scope: .singleton) { store async throws in
                    await pongStarted.arriveAndWait(for: 2)
                    await databaseStarted.arriveAndWait(for: 2)
                    try await Task.sleep(nanoseconds: 20_000_000)
                    return Pong(try await store.resolveAsync(Ping.self))
                }
                let done = DispatchSemaphore(value: 0)
                Task {
                    _ = try await store.resolveAsync(Pong.self)
                    done.signal()
                }
                Task {
                    // Pong's build is running before Ping's factory asks for it.
                    await pongStarted.arriveAndWait(for: 2)
                    _ = try await store.resolveAsync(Ping.self)
                    done.signal()
                }
                done.waitInChildProcess(for: "the resolves to end")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle across tasks"))
        #expect(stderr.contains("DependencyStoreTests.Ping"))
        #expect(stderr.contains("DependencyStoreTests.Pong"))
        #expect(!stderr.contains("HUNG"))
    }
    #endif
}
