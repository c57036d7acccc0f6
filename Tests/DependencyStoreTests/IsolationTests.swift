import DependencyStore
import Foundation
import Testing

/// A main-actor view model, as an iOS app has them: its initialiser is main-actor isolated and
/// records whether it really ran on the main thread.
@MainActor final class ProfileModel {
    nonisolated static let builtOffMain = Counter()
    let number: Int
    init(number: Int) {
        if !isOnTheMainQueue() { Self.builtOffMain.increment() }
        self.number = number
    }
}

/// Whether this runs on the main queue, which is the main actor: on Linux a test runner's main
/// queue (and so every @MainActor test) runs on a worker thread, so `Thread.isMainThread` is not
/// the question.
func isOnTheMainQueue() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

private let mainQueueKey: DispatchSpecificKey<Void> = {
    let key = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: key, value: ())
    return key
}()

/// A @MainActor screen holding the model through @Injected.
@MainActor final class ProfileScreen {
    @Injected var model: ProfileModel
}

/// What a nonisolated `registerAll()` looks like: registering main-actor types compiles here.
func registerProfile(in store: DependencyStore, built: Counter, scope: Scope = .unique) {
    store.register(ProfileModel.self, scope: scope, on: MainActor.self) { _ in
        ProfileModel(number: built.increment())
    }
}

/// A service that starts with `await`.
final class Database: Sendable {
    let generation: Int
    init(generation: Int) { self.generation = generation }
}

struct ConnectionFailed: Error, Equatable {}

@Suite struct MainActorFactoryTests {
    @MainActor @Test func onTheMainActorResolveAndInjectedAreSynchronous() {
        let store = DependencyStore()
        let built = Counter()
        registerProfile(in: store, built: built)
        let offMainBefore = ProfileModel.builtOffMain.value

        #expect(store.resolve(ProfileModel.self).number == 1)
        #expect(store.execute { ProfileScreen() }.model.number == 2)
        #expect(ProfileModel.builtOffMain.value == offMainBefore)
    }

    @Test func fromADetachedTaskGCDAndAThreadItAwaitsTheMainActor() async throws {
        let store = DependencyStore()
        let built = Counter()
        registerProfile(in: store, built: built)
        let offMainBefore = ProfileModel.builtOffMain.value

        let detached = try await Task.detached { try await store.resolveAsync(ProfileModel.self).number }.value
        let viaGCD = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                Task { continuation.resume(returning: try await store.resolveAsync(ProfileModel.self).number) }
            }
        }
        let viaThread = await withCheckedContinuation { continuation in
            Thread {
                Task { continuation.resume(returning: try await store.resolveAsync(ProfileModel.self).number) }
            }.start()
        }

        #expect(Set([detached, viaGCD, viaThread]) == [1, 2, 3])
        #expect(ProfileModel.builtOffMain.value == offMainBefore, "every build ran on the main thread")
    }

    @Test func aCachedScopeIsBuiltOnceWhicheverContextsAskFirst() async throws {
        for _ in 0..<20 {
            let store = DependencyStore()
            let built = Counter()
            registerProfile(in: store, built: built, scope: .singleton)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            return try await store.resolveAsync(ProfileModel.self).number
                        }
                        return await MainActor.run { store.resolve(ProfileModel.self).number }
                    }
                }
                for try await number in group { #expect(number == 1) }
            }
            #expect(built.value == 1)
        }
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aSynchronousResolveOffTheMainActorTrapsWithTheFix() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                registerProfile(in: store, built: Counter())
                let done = DispatchSemaphore(value: 0)
                Thread {
                    _ = store.resolve(ProfileModel.self)
                    done.signal()
                }.start()
                done.waitInChildProcess(for: "the resolve to end")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "'DependencyStoreTests.ProfileModel' is registered on the main actor, but it was resolved synchronously off the main actor."
            ))
        #expect(stderr.contains("Requested by: resolve at DependencyStoreTests/IsolationTests.swift:"))
        #expect(stderr.contains("let value = try await store.resolveAsync(ProfileModel.self)"))
        #expect(ProfileModel.builtOffMain.value == 0)
    }
    #endif
}

@Suite struct AsyncFactoryTests {
    @Test func aCachedAsyncFactoryRunsOnceForAHundredConcurrentAwaits() async throws {
        var wrongRounds = 0
        for _ in 0..<1_000 {
            let store = DependencyStore()
            let built = Counter()
            store.register(Database.self, scope: .singleton) { _ async throws in
                await Task.yield()
                return Database(generation: built.increment())
            }
            let generations = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await store.resolveAsync(Database.self).generation }
                }
                return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            if built.value != 1 || generations != [1] { wrongRounds += 1 }
        }
        #expect(wrongRounds == 0)
    }

    @Test func aThrowingFactoryCachesNothingEveryWaiterGetsTheErrorAndTheNextResolveTriesAgain() async throws {
        let store = DependencyStore()
        let attempts = Counter()
        let release = AsyncGate()
        store.register(Database.self, scope: .singleton) { _ async throws in
            let attempt = attempts.increment()
            if attempt == 1 {
                await release.waitUntilOpen()
                throw ConnectionFailed()
            }
            return Database(generation: attempt)
        }

        let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await store.resolveAsync(Database.self)
                        return false
                    } catch { return error is ConnectionFailed }
                }
            }
            await release.open(afterWaiters: 1)
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }

        #expect(attempts.value == 1, "one build, however many awaited it")
        #expect(failures == 10, "the error reached every waiter")
        #expect(
            try await store.resolveAsync(Database.self).generation == 2, "nothing was cached; the next resolve built")
        #expect(try await store.resolveAsync(Database.self).generation == 2)
    }

    @Test func cancellingOneWaiterDoesNotCancelTheBuildForTheOthers() async throws {
        let store = DependencyStore()
        let built = Counter()
        let release = AsyncGate()
        store.register(Database.self, scope: .singleton) { _ async throws in
            await release.waitUntilOpen()
            try Task.checkCancellation()  // the build's own task is never cancelled by a waiter
            return Database(generation: built.increment())
        }

        let first = Task { try await store.resolveAsync(Database.self).generation }
        let second = Task { try await store.resolveAsync(Database.self).generation }
        await release.waitForWaiters(1)
        first.cancel()
        await release.open(afterWaiters: 1)

        #expect(try await second.value == 1)
        #expect(try await first.value == 1, "the cancelled waiter still gets the value")
        #expect(built.value == 1)
    }

    @Test func objectsAnAsyncFactoryCreatesBindToTheResolvingStore() async throws {
        let store = DependencyStore()
        store.register(FixedGreeting("from the store"), for: Greeting.self)
        store.register(String.self) { _ async throws in
            await Task.yield()
            return Screen().greeting.text
        }
        #expect(try await store.resolveAsync(String.self) == "from the store")
    }

    @Test func plainRegistrationsResolveAsynchronouslyToo() async throws {
        let store = DependencyStore()
        store.register(FixedClock(3), for: Clock.self)
        #expect(try await store.resolveAsync(Clock.self).now == 3)
    }

    @Test func verifySkipsIsolatedRegistrationsAndSaysWhy() {
        let store = DependencyStore()
        registerProfile(in: store, built: Counter())
        store.register(Database.self) { _ async throws in Database(generation: 0) }
        store.register(Banner.self) { store in
            _ = store.resolve(ProfileModel.self)
            return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
        }

        let report = store.verify()

        #expect(report.isClean)
        #expect(report.skippedForIsolation.map(\.description).sorted() == ["Banner", "Database", "ProfileModel"])
        #expect(report.verifiedCount == 0, "Banner was skipped on the way, not verified")
        #expect(
            store.registrations.map(\.description).contains {
                $0.hasPrefix("ProfileModel, .unique, on the main actor, registered at")
            })
        #expect(
            store.registrations.map(\.description).contains { $0.hasPrefix("Database, .unique, async, registered at") })
        let text = report.description
        #expect(text.contains("- Database, registered at DependencyStoreTests/IsolationTests.swift:"))
        #expect(text.contains(": its factory is async"))
        #expect(text.contains(": its factory runs on the main actor"))
        #expect(text.contains(": it needs ProfileModel, whose factory runs on the main actor"))
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aSynchronousFactoryThatThrowsIsPlainAndTrapsWithItsError() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                registerThrowingFactory(in: store)
                _ = store.resolve(Database.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "the factory of 'DependencyStoreTests.Database' registered at DependencyStoreTests/IsolationTests.swift:"
            ))
        #expect(stderr.contains("threw ConnectionFailed()"))
    }

    @Test func aSynchronousResolveOfAnAsyncRegistrationTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(Database.self) { _ async throws in Database(generation: 0) }
                _ = store.resolve(Database.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "'DependencyStoreTests.Database' is registered with an async factory, but it was resolved synchronously."
            ))
        #expect(stderr.contains("An @Injected property cannot await"))
    }

    @Test func anAsyncCycleOnOneChainTrapsWithTheChain() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Ping.self, scope: .singleton) { store async throws in
                    Ping(try await store.resolveAsync(Pong.self))
                }
                store.register(Pong.self) { store async throws in Pong(try await store.resolveAsync(Ping.self)) }
                let done = DispatchSemaphore(value: 0)
                Task {
                    _ = try await store.resolveAsync(Ping.self)
                    done.signal()
                }
                done.waitInChildProcess(for: "the resolve to end")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "dependency cycle: DependencyStoreTests.Ping -> DependencyStoreTests.Pong -> DependencyStoreTests.Ping"
            ))
    }

    @Test func anAsyncCycleAcrossTwoTasksTrapsInsteadOfHanging() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let bothStarted = AsyncGate()
                store.register(Ping.self, scope: .singleton) { store async throws in
                    await bothStarted.arriveAndWait(for: 2)
                    return Ping(try await store.resolveAsync(Pong.self))
                }
                store.register(Pong.self, scope: .singleton) { store async throws in
                    await bothStarted.arriveAndWait(for: 2)
                    return Pong(try await store.resolveAsync(Ping.self))
                }
                let done = DispatchSemaphore(value: 0)
                Task {
                    _ = try await store.resolveAsync(Ping.self)
                    done.signal()
                }
                Task {
                    _ = try await store.resolveAsync(Pong.self)
                    done.signal()
                }
                done.waitInChildProcess(for: "the resolve to end")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle across tasks: DependencyStoreTests.P"))
        #expect(stderr.contains("Each of these async builds awaits the next"))
        #expect(!stderr.contains("HUNG"))
    }
    #endif
}

/// Lets a test hold async factories at a point and release them: no sleeps.
actor AsyncGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrived = 0
    private var arrivalWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var hasDeadline = false

    /// Waits until the gate opens.
    func waitUntilOpen() async {
        if isOpen { return }
        arrived += 1
        notifyWatchers()
        await suspend { waiting.append($0) }
    }

    /// Waits until `count` callers have arrived, then lets them all go on.
    func arriveAndWait(for count: Int) async {
        arrived += 1
        if arrived >= count {
            open()
            return
        }
        notifyWatchers()
        await suspend { waiting.append($0) }
    }

    /// Returns once `count` callers are waiting.
    func waitForWaiters(_ count: Int) async {
        if arrived >= count { return }
        await suspend { arrivalWatchers.append((count, $0)) }
    }

    /// Opens the gate once `count` callers are waiting.
    func open(afterWaiters count: Int) async {
        await waitForWaiters(count)
        open()
    }

    /// Suspends with `park`, which keeps the continuation, under the gate's deadline: past it,
    /// the test fails and everyone waiting goes on, so that a deadlock fails the run instead of
    /// hanging it.
    private func suspend(_ park: (CheckedContinuation<Void, Never>) -> Void) async {
        if !hasDeadline {
            hasDeadline = true
            Task {
                try? await Task.sleep(nanoseconds: UInt64(poolDeadline * 1_000_000_000))
                expire()
            }
        }
        await withCheckedContinuation { park($0) }
    }

    private func expire() {
        guard !waiting.isEmpty || !arrivalWatchers.isEmpty else { return }
        Issue.record("an AsyncGate still had waiters after \(poolDeadline) s: a deadlock?")
        open()
        for watcher in arrivalWatchers { watcher.continuation.resume() }
        arrivalWatchers.removeAll()
    }

    private func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }

    private func notifyWatchers() {
        let ready = arrivalWatchers.filter { $0.count <= arrived }
        arrivalWatchers.removeAll { $0.count <= arrived }
        for watcher in ready { watcher.continuation.resume() }
    }
}

/// A synchronous factory that throws: the deprecated overload, as a user would write it. The
/// deprecation warning is what tells a user; the suite reaches it through a protocol requirement,
/// so that the warning stays inside the one deprecated witness.
func registerThrowingFactory(in store: DependencyStore) {
    (ThrowingFactoryRegistrar() as any ThrowingFactoryRegistering).register(in: store)
}

private protocol ThrowingFactoryRegistering {
    func register(in store: DependencyStore)
}

private struct ThrowingFactoryRegistrar: ThrowingFactoryRegistering {
    @available(*, deprecated, message: "exercises the deprecated throwing-factory overload on purpose")
    func register(in store: DependencyStore) {
        store.register(Database.self) { _ in throw ConnectionFailed() }
    }
}
