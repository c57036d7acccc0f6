import Foundation
import Testing

@testable import DependencyStore

// What verification does with a factory that can never return, when that factory's own frames
// hold something: a task-local binding, an `inout` access, a lock. The worker it runs on is parked
// for good; nothing of the factory is abandoned or unwound. Each case runs in a process of its own,
// since what went wrong when frames were abandoned (`longjmp`) was the process's end.

private enum StoppedContext {
    @TaskLocal static var requestID = 0
}

private struct MissingService {}

private final class Inner {
    init(_: MissingService) {}
}

private final class Outer: Sendable {}

/// Written by one thread at a time in the test (the next one starts after a semaphore), so its
/// accesses are checked for exclusivity only.
private final class Tally: @unchecked Sendable {
    var count = 0
}

/// Runs `body` with an `inout` access to `value` open around it.
private func withInout<R>(_ value: inout Int, _ body: () -> R) -> R {
    value += 1
    return body()
}

/// Runs `verifyAsync()` on `store` from a task and waits for its report, in a child process: past
/// the deadline the process ends, as a hang.
private func reportOfVerifyAsync(_ store: DependencyStore) -> VerificationReport {
    let finished = DispatchSemaphore(value: 0)
    let report = Recorded<VerificationReport?>(nil)
    Task {
        report.set(await store.verifyAsync(timeout: poolDeadline))
        finished.signal()
    }
    finished.waitInChildProcess(upTo: 2 * poolDeadline, for: "verifyAsync()")
    return report.value!
}

/// Ends the child process with 1, naming what is wrong, unless `condition` holds.
private func require(_ condition: Bool, _ what: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("FAILED: \(what())\n".utf8))
    exit(1)
}

@Suite struct StoppedFactoryTests {
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// A synchronous factory that binds a task-local around a resolve of something missing,
    /// reached from an `async` factory through `resolveAsync`. When the resolve ran on the task's
    /// own thread and was left by a jump, the task's allocator lost the binding and the process
    /// aborted ("freed pointer was not the last allocation").
    @Test func aTaskLocalBoundAroundAStoppedResolveLeavesTheTaskConsistent() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs(after: 3 * poolDeadline)
            let store = DependencyStore()
            store.register(Inner.self) { (store, id: Int) in
                StoppedContext.$requestID.withValue(id) { Inner(store.resolve(MissingService.self)) }
            }
            store.register(Outer.self) { store async throws in
                _ = try await store.resolveAsync(Inner.self, arguments: 42)
                return Outer()
            }

            let report = reportOfVerifyAsync(store)

            let missing = report.problems.filter { $0.kind == .missing }.map { $0.path.map(\.type) }
            require(missing.contains(["Outer", "Inner", "MissingService"]), "\(report)")
            // The task-locals of tasks made afterwards bind and read as ever.
            let seen = Recorded<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                seen.set(StoppedContext.$requestID.withValue(7) { StoppedContext.requestID })
                done.signal()
            }
            done.waitInChildProcess(for: "a task binding a task-local")
            require(seen.value == 7, "a task-local bound after verifyAsync() read \(String(describing: seen.value))")
        }
    }

    /// A factory that holds an `inout` access to a class's stored property open across a resolve
    /// of something missing, reached from an `async` factory through `resolveAsync`. When the
    /// resolve ran in the task and was left by a jump, the access stayed open in the task that
    /// went on, and its next access to the property ended the process (SIGSEGV in a release build
    /// here, "Fatal access conflict detected" where the issue met it).
    @Test func anInoutAccessOpenAcrossAStoppedResolveConflictsWithNothingAfterward() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs(after: 3 * poolDeadline)
            let tally = Tally()
            let store = DependencyStore()
            store.register(Inner.self) { (store, _: Int) in
                withInout(&tally.count) { Inner(store.resolve(MissingService.self)) }
            }
            store.register(Outer.self) { store async throws in
                do {
                    _ = try await store.resolveAsync(Inner.self, arguments: 1)
                } catch {
                    // The async factory goes on where the stop reached it, in the same task.
                    tally.count += 1
                    throw error
                }
                return Outer()
            }

            let report = reportOfVerifyAsync(store)

            let missing = report.problems.filter { $0.kind == .missing }.map { $0.path.map(\.type) }
            require(missing.contains(["Outer", "Inner", "MissingService"]), "\(report)")
            // This thread and a task both access the property again.
            tally.count += 1
            let done = DispatchSemaphore(value: 0)
            Task {
                tally.count += 1
                done.signal()
            }
            done.waitInChildProcess(for: "a task writing the property")
            require(tally.count >= 4, "the property reads \(tally.count)")
        }
    }

    /// A stopped build's parked thread withdraws the chain it was running: left published, that
    /// chain would be older than every later removal in the process, which would keep its
    /// tombstones for ever and have every miss look through them (the whole suite ran 9 times
    /// slower). In a process of its own: another test's chain would keep a batch too, for a while.
    @Test func aParkedBuildKeepsNoLaterRemovalsTombstones() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            store.register(Inner.self) { store in Inner(store.resolve(MissingService.self)) }
            let report = store.verify(timeout: poolDeadline)
            require(report.problems.map(\.kind) == [.missing], "\(report)")

            let other = DependencyStore()
            other.register(Session.self) { _ in Session() }
            _ = other.resolve(Session.self)
            other.unregister(Session.self)

            require(!Tombstones.anyKept, "the removal's tombstones are kept for a chain that never ends")
        }
    }
    #endif

    /// A factory that takes a lock of its own around a resolve of something missing: its build
    /// stops there and its worker is parked, so its `defer` never runs and the lock stays held for
    /// good, as Verification.md says. The report names the problem, and the caller goes on.
    @Test(.onThreadsOfItsOwn) func aLockAFactoryHeldWhenItStoppedStaysHeld() {
        let lock = NSLock()
        let store = DependencyStore()
        store.register(Inner.self) { store in
            lock.lock()
            defer { lock.unlock() }
            return Inner(store.resolve(MissingService.self))
        }

        let report = store.verify(timeout: poolDeadline)

        #expect(report.problems.map(\.kind) == [.missing], "\(report)")
        #expect(!lock.try(), "the lock is held by the parked build")
    }
}
