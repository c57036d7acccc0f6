import DependencyStore
import Foundation
import Testing

/// Two singletons that need each other, first asked for from two threads at once: each thread
/// builds one and waits for the other's. Without detection both wait for ever.
final class Ping: Sendable {
    let pong: Pong?
    init(_ pong: Pong?) { self.pong = pong }
}
final class Pong: Sendable {
    let ping: Ping?
    init(_ ping: Ping?) { self.ping = ping }
}

/// Busy work of about `microseconds`, as a factory that does real work spends it.
private func work(microseconds: Int) {
    guard microseconds > 0 else { return }
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(microseconds) * 1_000
    while DispatchTime.now().uptimeNanoseconds < end {}
}

/// Runs `rounds` rounds of Ping and Pong resolved first from two threads together, each factory
/// spinning `microseconds` before it asks for the other. The factories ask with `tryResolve`, so
/// a detected cycle comes back as an error, the factory gives up, and the round completes: many
/// rounds fit in one process. Returns (rounds with a cycle error, factory runs).
private func pingPongRounds(_ rounds: Int, microseconds: Int) -> (cycles: Int, builds: Int) {
    let cycles = Counter()
    let builds = Counter()
    for _ in 0..<rounds {
        let store = DependencyStore()
        let roundCycles = Counter()
        store.register(Ping.self, scope: .singleton) { store in
            builds.increment()
            work(microseconds: microseconds)
            do throws(ResolutionError) { return Ping(try store.tryResolve(Pong.self)) } catch {
                if error.kind == .cycle, error.description.contains("dependency cycle") { roundCycles.increment() }
                return Ping(nil)
            }
        }
        store.register(Pong.self, scope: .singleton) { store in
            builds.increment()
            work(microseconds: microseconds)
            do throws(ResolutionError) { return Pong(try store.tryResolve(Ping.self)) } catch {
                if error.kind == .cycle, error.description.contains("dependency cycle") { roundCycles.increment() }
                return Pong(nil)
            }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { _ = store.resolve(Ping.self) } else { _ = store.resolve(Pong.self) }
        }
        if roundCycles.value > 0 { cycles.increment() }
    }
    return (cycles.value, builds.value)
}

/// In an exit test's child: runs the rounds and ends the process with status 1 unless every round
/// reported its cycle. A hang ends it with status 3 (see `endTheProcessIfItHangs`).
private func expectEveryRoundToReportItsCycle(rounds: Int, microseconds: Int) {
    endTheProcessIfItHangs()
    let result = pingPongRounds(rounds, microseconds: microseconds)
    // Every round is a cycle, found either on one thread (one thread built both) or across the
    // two; never a hang, and never a round without the error.
    if result.cycles != rounds {
        FileHandle.standardError.write(Data("\(result.cycles) of \(rounds) rounds reported the cycle\n".utf8))
        exit(1)
    }
}

@Suite struct CrossThreadCycleTests {
    // Each runs in a child process, so that a hang ends that process instead of the test run.
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aCycleSplitAcrossTwoThreadsWithNoWorkIsReportedEveryRound() async {
        await #expect(processExitsWith: .success) {
            expectEveryRoundToReportItsCycle(rounds: 2_000, microseconds: 0)
        }
    }

    @Test func aCycleSplitAcrossTwoThreadsWith100MicrosecondsOfWorkIsReportedEveryRound() async {
        await #expect(processExitsWith: .success) {
            expectEveryRoundToReportItsCycle(rounds: 400, microseconds: 100)
        }
    }

    @Test func aCycleSplitAcrossTwoThreadsWith1MillisecondOfWorkIsReportedEveryRound() async {
        await #expect(processExitsWith: .success) {
            expectEveryRoundToReportItsCycle(rounds: 120, microseconds: 1_000)
        }
    }

    @Test func aCycleOfSingletonsAcrossThreadsTrapsWithBothChains() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                // Each factory starts, then waits until the other has started: the two threads
                // hold one gate each before either asks for the other's.
                let pingStarted = DispatchSemaphore(value: 0)
                let pongStarted = DispatchSemaphore(value: 0)
                store.register(Ping.self, scope: .singleton) { store in
                    pingStarted.signal()
                    pongStarted.waitInChildProcess(for: "Pong's factory to start")
                    return Ping(store.resolve(Pong.self))
                }
                store.register(Pong.self, scope: .singleton) { store in
                    pongStarted.signal()
                    pingStarted.waitInChildProcess(for: "Ping's factory to start")
                    return Pong(store.resolve(Ping.self))
                }
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { _ = store.resolve(Ping.self) } else { _ = store.resolve(Pong.self) }
                }
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        let cycle =
            stderr.contains(
                "cycle across threads: DependencyStoreTests.Ping -> DependencyStoreTests.Pong -> DependencyStoreTests.Ping"
            )
            || stderr.contains(
                "cycle across threads: DependencyStoreTests.Pong -> DependencyStoreTests.Ping -> DependencyStoreTests.Pong"
            )
        #expect(cycle, "\(stderr)")
        #expect(stderr.contains("2 threads each wait for what the next one is building"))
        #expect(stderr.contains("Thread 1 (this one) is building: DependencyStoreTests."))
        #expect(stderr.contains("Thread 2 is building: DependencyStoreTests."))
        #expect(stderr.contains("which thread 2 is building."))
        #expect(stderr.contains("which thread 1 is building."))
        #expect(stderr.contains("To fix: break the cycle."))
        #expect(!stderr.contains("HUNG"))
    }

    @Test func aCycleThroughInjectedPropertiesReadFromTwoThreadsTrapsWithBothChains() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let crossing = Recorded<Crossing?>(nil)
                let pingStarted = DispatchSemaphore(value: 0)
                let pongStarted = DispatchSemaphore(value: 0)
                store.register(Ping.self) { _ in
                    pingStarted.signal()
                    pongStarted.waitInChildProcess(for: "Pong's factory to start")
                    return Ping(crossing.value!.pong)
                }
                store.register(Pong.self) { _ in
                    pongStarted.signal()
                    pingStarted.waitInChildProcess(for: "Ping's factory to start")
                    return Pong(crossing.value!.ping)
                }
                crossing.set(store.execute { Crossing() })
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { _ = crossing.value!.ping } else { _ = crossing.value!.pong }
                }
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle across threads"))
        #expect(
            stderr.contains(
                "and waits for the first read of the @Injected property declared at DependencyStoreTests/CrossThreadCycleTests.swift:"
            ))
        #expect(
            stderr.contains(
                "Closed by: the @Injected property declared at DependencyStoreTests/CrossThreadCycleTests.swift:"))
        #expect(!stderr.contains("HUNG"))
    }

    @Test func threadsWaitingForOneAnotherWithoutACycleKeepWaitingAndBuildOnce() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            // Only Ping needs Pong: one thread may wait for the other, never the reverse.
            let builds = Counter()
            let rounds = 3_000
            for _ in 0..<rounds {
                let store = DependencyStore()
                store.register(Ping.self, scope: .singleton) { store in
                    builds.increment()
                    return Ping(store.resolve(Pong.self))
                }
                store.register(Pong.self, scope: .singleton) { _ in
                    builds.increment()
                    return Pong(nil)
                }
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { _ = store.resolve(Ping.self) } else { _ = store.resolve(Pong.self) }
                }
            }
            if builds.value != 2 * rounds {
                FileHandle.standardError.write(Data("\(builds.value) builds in \(rounds) rounds\n".utf8))
                exit(1)
            }
        }
    }
    #endif
}

/// An object with two injected properties whose dependencies each read the other property.
final class Crossing: @unchecked Sendable {
    @Injected var ping: Ping
    @Injected var pong: Pong
}
