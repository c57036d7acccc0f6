import Foundation
import Testing

// Why an exit test runs its waits on threads of their own.
//
// Swift Testing runs an exit test's child process, and in the parent reads the child's back
// channel (and, when the test observes them, its standard output and error) with blocking reads
// to their end, in child tasks of the test's task: each holds a thread of the concurrency pool for
// as long as the child runs. The pool has one thread a core, two here, so one exit test that
// observes standard error held the whole pool until its child ended; beside a busy loop on each
// core a child runs for seconds, and the tests that await work on the pool (an async close, a
// shutdown) waited past their 60 s deadlines: every test of a run ended at once, 80 s in.
//
// `.exitTestThreads` gives the test's task, and so those child tasks, which inherit it (SE-0417),
// an executor that runs each job on a thread of its own, so the blocking reads block only their
// own threads. At most two exit tests run at a time, as when they held the pool's two threads,
// so a parallel run does not start ninety children at once; the others wait with a suspension,
// which holds no thread.

struct ExitTestThreadsTrait: TestTrait {}

extension Trait where Self == ExitTestThreadsTrait {
    static var exitTestThreads: Self { Self() }
}

#if compiler(>=6.1)
extension ExitTestThreadsTrait: TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            try await ExitTestSlots.shared.withSlot {
                try await withTaskExecutorPreference(ThreadPerJob.shared) { try await function() }
            }
        } else {
            try await function()
        }
    }
}

/// Runs each job on a new thread: for exit tests' blocking reads, which hold their thread until
/// the child process ends.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class ThreadPerJob: TaskExecutor, @unchecked Sendable {
    static let shared = ThreadPerJob()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        Thread { job.runSynchronously(on: ThreadPerJob.shared.asUnownedTaskExecutor()) }.start()
    }
}
#endif

/// How many exit tests run at once: a suspension, not a blocked thread, for those that wait.
actor ExitTestSlots {
    static let shared = ExitTestSlots(slots: 2)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(slots: Int) {
        free = slots
    }

    func withSlot(_ body: @Sendable () async throws -> Void) async throws {
        await acquire()
        do {
            try await body()
        } catch {
            release()
            throw error
        }
        release()
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
