import DependencyStore
import Foundation
import Testing

/// The concurrent invariant of the cached scopes: "The factory runs exactly once, even when many
/// threads ask for it first at the same moment" (Lifetimes.md, `.singleton`), per store that keeps
/// it (a child that overrides something keeps its own; one that only adds values shares the
/// root's), and again once after each reset. Many threads, then many tasks, resolve a small graph
/// of cached registrations whose factories do real work, through a root store and two children,
/// for several generations. Every wait has a
/// deadline that fails the test instead of hanging it.
@Suite struct ModelConcurrencyTests {
    static let generations = 25
    static let threads = 8
    static let tasks = 32
    /// Far above what a round takes (a few milliseconds), and far below a hung CI job. Generous,
    /// because the whole suite shares the task pool (two threads here) with synchronous tests:
    /// under the thread sanitizer, at the start of a run, the pool was busy for over 25 s.
    static let deadline: TimeInterval = 90

    @Test(.onThreadsOfItsOwn) func cachedFactoriesRunOncePerGenerationWhenManyThreadsAskAtOnce() {
        let fixture = ModelConcurrentGraph()
        for generation in 1...Self.generations {
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            let startedInTime = Counter()
            for thread in 0..<Self.threads {
                done.enter()
                Thread {
                    if start.wait(timeout: .now() + Self.deadline) == .success {
                        startedInTime.increment()
                        fixture.resolveEverything(order: thread)
                    }
                    done.leave()
                }
                .start()
            }
            for _ in 0..<Self.threads { start.signal() }
            guard done.wait(timeout: .now() + Self.deadline) == .success else {
                Issue.record("generation \(generation): the threads did not finish within \(Self.deadline) s")
                return
            }
            #expect(startedInTime.value == Self.threads)
            fixture.expectBuiltOnce(generation: generation)
            fixture.startNextGeneration()
        }
    }

    @Test func cachedFactoriesRunOncePerGenerationWhenManyTasksAskAtOnce() async {
        let fixture = ModelConcurrentGraph()
        for generation in 1...Self.generations {
            let finished = await finishes(within: Self.deadline) {
                await withTaskGroup(of: Void.self) { group in
                    for task in 0..<Self.tasks {
                        group.addTask { fixture.resolveEverything(order: task) }
                    }
                }
            }
            guard finished else {
                Issue.record("generation \(generation): the tasks did not finish within \(Self.deadline) s")
                return
            }
            fixture.expectBuiltOnce(generation: generation)
            fixture.startNextGeneration()
        }
    }

    /// Runs `work` and waits for it at most `seconds`: `false` when the deadline came first. The
    /// watchdog is a GCD timer, outside the cooperative pool, so it fires even if `work` blocks
    /// the pool's threads (what a hang in a synchronous resolve would do). If the pool is so
    /// blocked that this test cannot even resume to report it, the watchdog ends the process with
    /// the reason rather than let the whole run hang.
    private func finishes(within seconds: TimeInterval, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let decided = Recorded(false)
        let resumed = Recorded(false)
        let finished = await withCheckedContinuation { continuation in
            let decide: @Sendable (Bool) -> Void = { finished in
                let first = decided.update { decided in
                    defer { decided = true }
                    return !decided
                }
                if first { continuation.resume(returning: finished) }
            }
            Task.detached {
                await work()
                decide(true)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                decide(false)
                DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
                    if !resumed.value {
                        fatalError("ModelConcurrencyTests: tasks hung for \(seconds) s and block the cooperative pool")
                    }
                }
            }
        }
        resumed.set(true)
        return finished
    }
}

/// A root store and two children, with three cached registrations in the root: `ModelA` (a
/// singleton), `ModelB` (a custom scope, needs A) and `ModelC` (a singleton, needs B and A).
/// `child` overrides something of the root's, so it builds and keeps its own instance of each;
/// `sharing` only adds a value of its own, so it shares the root's (the sharing rule).
final class ModelConcurrentGraph: Sendable {
    static let scope = Scope("modelConcurrent")

    let root = DependencyStore()
    let child: DependencyStore
    let sharing: DependencyStore
    /// Factory runs by store and type.
    private let builds = Recorded<[String: Int]>([:])
    /// What each store handed out this generation, by store and type, and the parts of the Cs.
    private let seen = Recorded<[String: Set<ObjectIdentifier>]>([:])

    init() {
        child = DependencyStore(parent: root)
        sharing = DependencyStore(parent: root)
        root.register("root", for: String.self)
        child.register("child", for: String.self)
        sharing.register(7, for: Int.self)
        let labels = [
            ObjectIdentifier(root): "root", ObjectIdentifier(child): "child", ObjectIdentifier(sharing): "sharing",
        ]
        let builds = self.builds
        let record: @Sendable (DependencyStore, String) -> Void = { store, type in
            let key = "\(labels[ObjectIdentifier(store)]!) \(type)"
            builds.update { $0[key, default: 0] += 1 }
        }
        root.register(ModelA.self, scope: .singleton) { store in
            record(store, "A")
            Self.work(microseconds: 150)
            return ModelA(serial: 0, parts: [])
        }
        root.register(ModelB.self, scope: Self.scope) { store in
            record(store, "B")
            let a = store.resolve(ModelA.self)
            usleep(100)
            return ModelB(serial: 0, parts: [a])
        }
        root.register(ModelC.self, scope: .singleton) { store in
            record(store, "C")
            let parts: [ModelThing] = [store.resolve(ModelB.self), store.resolve(ModelA.self)]
            Self.work(microseconds: 50)
            return ModelC(serial: 0, parts: parts)
        }
    }

    /// Busy work, so that builds overlap with other threads' resolves.
    private static func work(microseconds: UInt64) {
        let end = DispatchTime.now().uptimeNanoseconds + microseconds * 1_000
        while DispatchTime.now().uptimeNanoseconds < end {}
    }

    /// Resolves all three from both stores, in an order that depends on `order`, so that the
    /// first to ask for each differs from caller to caller.
    func resolveEverything(order: Int) {
        let all = [("root", root), ("child", child), ("sharing", sharing)]
        let stores = rotated(all, by: order / 3)
        for (label, store) in stores {
            var identities: [(String, ObjectIdentifier)] = []
            for type in rotated(["A", "B", "C"], by: order) {
                switch type {
                case "A":
                    identities.append(("A", ObjectIdentifier(store.resolve(ModelA.self))))
                case "B":
                    identities.append(("B", ObjectIdentifier(store.resolve(ModelB.self))))
                default:
                    let c = store.resolve(ModelC.self)
                    identities += [
                        ("C", ObjectIdentifier(c)), ("C's B", ObjectIdentifier(c.parts[0])),
                        ("C's A", ObjectIdentifier(c.parts[1])),
                    ]
                }
            }
            seen.update { seen in
                for (type, identity) in identities { seen["\(label) \(type)", default: []].insert(identity) }
            }
        }
    }

    private func rotated<Element>(_ types: [Element], by count: Int) -> [Element] {
        let shift = count % types.count
        return Array(types[shift...] + types[..<shift])
    }

    /// Each factory ran exactly `generation` times in each store, and each store handed out one
    /// instance of each type this generation: the one its C was built with.
    func expectBuiltOnce(generation: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let builds = self.builds.value
        let seen = self.seen.value
        for store in ["root", "child"] {
            for type in ["A", "B", "C"] {
                #expect(
                    builds["\(store) \(type)"] == generation,
                    "generation \(generation): \(store)'s \(type) factory ran \(builds["\(store) \(type)"] ?? 0) times",
                    sourceLocation: sourceLocation)
                #expect(
                    seen["\(store) \(type)"]?.count == 1,
                    "generation \(generation): \(store) handed out \(seen["\(store) \(type)"]?.count ?? 0) \(type)s",
                    sourceLocation: sourceLocation)
            }
            #expect(seen["\(store) C's B"] == seen["\(store) B"], sourceLocation: sourceLocation)
            #expect(seen["\(store) C's A"] == seen["\(store) A"], sourceLocation: sourceLocation)
        }
        #expect(seen["root A"] != seen["child A"], "the child keeps an instance of its own")
        for type in ["A", "B", "C"] {
            #expect(
                builds["sharing \(type)"] == nil, "a store that shares builds nothing", sourceLocation: sourceLocation)
            #expect(seen["sharing \(type)"] == seen["root \(type)"], sourceLocation: sourceLocation)
        }
    }

    /// Resets both scopes in both stores: the next resolves build a new generation.
    func startNextGeneration(sourceLocation: SourceLocation = #_sourceLocation) {
        for store in [root, child] {
            #expect(store.reset(.singleton) == 2, sourceLocation: sourceLocation)
            #expect(store.reset(Self.scope) == 1, sourceLocation: sourceLocation)
        }
        #expect(sharing.reset(.singleton) == 0, "what it shares is the root's", sourceLocation: sourceLocation)
        seen.set([:])
    }
}
