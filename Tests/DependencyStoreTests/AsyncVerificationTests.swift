import DependencyStore
import Foundation
import Testing

/// A main-actor model that needs a repository the app may forget to register.
@MainActor final class WalletModel {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
}

/// Registers a main-actor factory and an async one that each need `Clock`, plus a plain
/// registration that needs the main-actor one: what `verify()` skips and `verifyAsync()` builds.
private func registerIsolatedFactories(in store: DependencyStore, built: Counter) {
    store.register(WalletModel.self, on: MainActor.self) { store in
        built.increment()
        return WalletModel(clock: store.resolve())
    }
    store.register(Database.self, scope: .singleton) { store async throws in
        built.increment()
        _ = try await store.resolveAsync(Clock.self)
        return Database(generation: 0)
    }
    store.register(Banner.self) { store in
        _ = store.resolve(WalletModel.self)
        return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
    }
}

@Suite struct AsyncVerificationTests {
    @Test func verifySkipsMainActorAndAsyncFactoriesAndSaysHowToCheckThem() {
        let store = DependencyStore()
        registerIsolatedFactories(in: store, built: Counter())
        let report = store.verify()
        #expect(report.isClean, "their missing Clock is not seen")
        #expect(report.skippedForIsolation.map(\.type).sorted() == ["Banner", "Database", "WalletModel"])
        #expect(report.description.contains("await verifyAsync() to build these"))
    }

    /// An `async` factory that returns at once is never reported as timed out. The deadline that
    /// `verifyAsync()` set each build was once a task of its own, cancelled when the build ended;
    /// one that counted its cancelled sleep as the timeout could answer first, between the cancel
    /// and the build's own answer, and a build of 3 ms was reported as "did not return within
    /// 5.0 s" (seen once under the thread sanitizer, in CI). A thread of the verifier's own now
    /// waits for the build's signal, with the timeout.
    @Test func anAsyncFactoryThatReturnsAtOnceIsNeverReportedAsTimedOut() async {
        let store = DependencyStore()
        store.register(Database.self) { _ async in Database(generation: 1) }
        var timedOut = 0
        for _ in 0..<300 {
            let report = await store.verifyAsync(timeout: poolDeadline)
            if report.problems.contains(where: { $0.kind == .timedOut }) { timedOut += 1 }
        }
        #expect(timedOut == 0)
    }

    @Test func anAsyncFactoryThatDoesNotReturnInTimeIsReportedAndLeftRunning() async {
        let store = DependencyStore()
        store.register(Database.self) { _ async throws in
            try await Task.sleep(nanoseconds: 2_000_000_000)
            return Database(generation: 1)
        }
        let report = await store.verifyAsync(timeout: 0.2)
        #expect(report.problems.map(\.kind) == [.timedOut])
        #expect(report.problems.first?.path.map(\.description) == ["Database"])
    }

    /// A main-actor build that stops can be neither parked nor left: verification ends the process,
    /// naming the stopped build and what it misses. (Banner, a plain registration, reaches the
    /// main-actor WalletModel, whose Clock is missing.)
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func verifyAsyncEndsTheProcessWhenAMainActorBuildStops() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                registerIsolatedFactories(in: store, built: Counter())
                _ = await store.verifyAsync(timeout: poolDeadline)
            })
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains("DependencyStore.verifyAsync(): the main-actor factory of WalletModel stopped"), "\(stderr)"
        )
        #expect(stderr.contains("WalletModel -> Clock"), "\(stderr)")
        #expect(stderr.contains("verification ends the process here"), "\(stderr)")
    }
    #endif

    /// Without a main-actor stop, verifyAsync() builds them all and finds what the async one misses.
    @Test func verifyAsyncBuildsThemAndFindsWhatTheyMiss() async {
        let store = DependencyStore()
        let built = Counter()
        registerIsolatedFactories(in: store, built: built)
        store.register(WalletModel.self, on: MainActor.self) { _ in
            built.increment()
            return WalletModel(clock: FixedClock(2))
        }

        let report = await store.verifyAsync(timeout: poolDeadline)

        #expect(report.skippedForIsolation.isEmpty)
        #expect(built.value == 2, "each isolated factory ran once")
        let missing = report.problems.filter { $0.kind == .missing }.map { $0.path.map(\.type) }
        #expect(missing.contains(["Database", "Clock"]), "\(report)")
        #expect(!report.isClean)
    }

    @Test func verifyAsyncOfAWellWiredAppIsClean() async {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)
        registerIsolatedFactories(in: store, built: Counter())

        let report = await store.verifyAsync(timeout: poolDeadline)

        #expect(report.isClean, "\(report)")
        #expect(report.verifiedCount == 4)
        #expect(report.graph.edges.contains { $0.from.type == "Banner" && $0.to.type == "WalletModel" })
        #expect(report.graph.edges.contains { $0.from.type == "Database" && $0.to.type == "Clock" })
    }

    @MainActor @Test func verifyAsyncCanBeAwaitedOnTheMainActor() async {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)
        registerIsolatedFactories(in: store, built: Counter())
        let report = await store.verifyAsync(timeout: poolDeadline)
        #expect(report.isClean, "\(report)")
    }

    @Test func aSynchronousResolveOfAnAsyncRegistrationIsAProblemForVerifyAsync() async {
        let store = DependencyStore()
        store.register(Database.self) { _ async throws in Database(generation: 0) }
        store.register(Banner.self) { store in
            _ = store.resolve(Database.self)
            return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
        }
        let report = await store.verifyAsync(timeout: poolDeadline)
        let failed = report.problems.filter { $0.kind == .failed }
        #expect(failed.count == 1, "\(report)")
        #expect(failed.first?.path.map(\.type) == ["Banner", "Database"])
    }

    @Test func anAsyncCycleIsReportedByVerifyAsync() async {
        let store = DependencyStore()
        store.register(Ping.self) { store async throws in Ping(try await store.resolveAsync(Pong.self)) }
        store.register(Pong.self) { store async throws in Pong(try await store.resolveAsync(Ping.self)) }
        let report = await store.verifyAsync(timeout: poolDeadline)
        #expect(report.problems.contains { $0.kind == .cycle }, "\(report)")
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aCycleThroughAWorkerAndTheMainActorIsReportedNotWaitedOn() async throws {
        // In a process of its own with a watchdog: a hang here would block the main actor. The
        // cycle stops the main-actor build, which ends the process with the report.
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs(after: 3 * poolDeadline)
                let store = DependencyStore()
                // Ping, a singleton built on a worker, needs the main-actor Pong, whose factory needs
                // Ping: the main actor would wait at Ping's gate, held by the worker waiting for it.
                store.register(Ping.self, scope: .singleton) { store in Ping(store.resolve(Pong.self)) }
                store.register(Pong.self, on: MainActor.self) { store in Pong(store.resolve(Ping.self)) }
                let finished = DispatchSemaphore(value: 0)
                let cycles = Recorded(0)
                Task {
                    let report = await store.verifyAsync(timeout: poolDeadline)
                    cycles.set(report.problems.filter { $0.kind == .cycle }.count)
                    finished.signal()
                }
                if finished.wait(timeout: .now() + 15) == .timedOut { exit(2) }
                if cycles.value == 0 { exit(1) }
            })
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("the main-actor factory of Pong stopped: cycle"), "\(stderr)")
    }
    #endif
}
