import Foundation
import Testing

// Why a synchronous test that blocks runs on threads of its own.
//
// Swift Testing starts every test of a parallel run at once, as jobs of the concurrency pool, which
// has one thread a core: two here. A synchronous test that waits for threads it started, sleeps or
// spins holds one of those threads for as long as it runs, and the jobs queued behind it wait: the
// test-start jobs of the rest of the suite, and the continuations of the tests that await work on
// the pool (an async close, a shutdown, a task the test started). Beside a busy loop on each core,
// such an await waited more than 60 s for a thread, and tests with long, correct deadlines failed:
// a slow machine then said nothing about the code.
//
// `.onThreadsOfItsOwn` moves the test's body off the pool: the test's task prefers an executor with
// threads of its own (SE-0417), so its synchronous body runs there, and the pool stays free for the
// awaiting tests. It is the same task, so `Test.current`, and with it `Issue.record`, still name
// the test. Tasks the body starts with `Task {}` do not inherit the preference: they run on the
// pool as they would anywhere. `onManyThreads`, the stress tests' helper, records an issue when it
// is called from a test without the trait, so a new stress test cannot forget it.

/// Runs the test's body on `BlockingTestThreads`, not on the concurrency pool: for a synchronous
/// test that waits for threads, sleeps or spins.
struct ThreadsOfItsOwnTrait: TestTrait {}

extension Trait where Self == ThreadsOfItsOwnTrait {
    /// Runs the test's body on threads of its own, not on the concurrency pool: see
    /// `ThreadsOfItsOwn.swift`.
    static var onThreadsOfItsOwn: Self { Self() }
}

// TestScoping arrived in Swift 6.1 and task executors in macOS 15 and iOS 18: elsewhere the trait
// does nothing, the test runs on the pool as before, and `onManyThreads` does not ask for it.
#if compiler(>=6.1)
extension ThreadsOfItsOwnTrait: TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            try await withTaskExecutorPreference(BlockingTestThreads.shared) { try await function() }
        } else {
            try await function()
        }
    }
}

/// Two threads that run the jobs of tests marked `.onThreadsOfItsOwn`, first come first served:
/// two such tests at a time, one a core, as the pool ran them before.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class BlockingTestThreads: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingTestThreads(threads: 2)

    /// The key each of its threads carries in its thread dictionary: how `onManyThreads` tells
    /// that it runs on one. (Not the thread's name: on Linux that is the kernel's, at most 15
    /// bytes, and a thread inherits its creator's.)
    static let threadKey = "BlockingTestThreads"

    /// Whether the calling thread is one of these.
    static var isCurrent: Bool { Thread.current.threadDictionary[threadKey] != nil }

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queued: [UnownedJob] = []

    private init(threads: Int) {
        for _ in 0..<threads {
            Thread { [unowned self] in
                Thread.current.threadDictionary[Self.threadKey] = true
                self.runJobs()
            }.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queued.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() -> Never {
        while true {
            condition.lock()
            // An idle thread waiting for the next test's job, not a test waiting: it wakes each
            // second to look again, and never gives up, since a job may come at any time. The
            // tests' own waits have deadlines that fail them.
            while queued.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: 1)) }
            let job = queued.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
#endif

/// Records an issue when a test blocks a thread of the concurrency pool where `.onThreadsOfItsOwn`
/// would have kept it off: called by the helpers that block for a whole round of threads.
func expectOffTheConcurrencyPool(sourceLocation: SourceLocation) {
    #if compiler(>=6.1)
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return }
    guard Test.current != nil, !BlockingTestThreads.isCurrent else { return }
    Issue.record(
        """
        this test blocks a thread of the concurrency pool while its threads run, and the tests that \
        await work on the pool wait behind it: add `.onThreadsOfItsOwn` to its @Test
        """,
        sourceLocation: sourceLocation)
    #endif
}
