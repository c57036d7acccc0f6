import Foundation
import Testing

@testable import DependencyStore

/// The library's one lock (`Lock`), whose mutex on Linux is a word on a futex
/// (`DependencyStoreMutex.h`): a thread that finds it held spins, then sleeps in the kernel, and
/// the unlock that finds a sleeper wakes one.
struct LockTests {
    /// Eight threads add to a count under the lock, each holding it a while, so that most locks
    /// find it held and many threads sleep: no addition is lost. A lock that let two threads in
    /// loses some (the read and the write of the count are apart).
    @Test(.onThreadsOfItsOwn) func eightThreadsAddingUnderTheLockLoseNothing() {
        let lock = Lock(0)
        let threads = 8
        let additions = 5_000
        onManyThreads(threads: threads) { _, _ in
            for _ in 0..<additions {
                lock.withLock { count in
                    let seen = count
                    // Work while holding it, with the count read and not yet written.
                    for spin in 0..<20 { blackHoleInLockTests(spin) }
                    count = seen + 1
                }
            }
        }
        #expect(lock.withLock { $0 } == threads * additions)
    }

    /// Threads that arrive while another holds the lock for 50 ms outlast the spin and sleep on
    /// the futex; the holder's unlock wakes one, and each in turn wakes the next: all of them get
    /// in before the deadline. An unlock that did not wake a sleeper leaves them asleep, and the
    /// round fails at its deadline instead of hanging.
    @Test(.onThreadsOfItsOwn) func threadsAsleepOnAHeldLockAreAllWoken() {
        let lock = Lock(0)
        let holding = DispatchSemaphore(value: 0)
        onManyThreads(threads: 5) { _, thread in
            if thread == 0 {
                lock.withLock { count in
                    holding.signal()
                    usleep(50_000)
                    count += 1
                }
                return
            }
            holding.wait(for: "the holder to take the lock")
            holding.signal()
            lock.withLock { $0 += 1 }
        }
        #expect(lock.withLock { $0 } == 5)
    }
}

/// Keeps `value` from being optimised away.
@inline(never)
private func blackHoleInLockTests(_ value: Int) {
    withExtendedLifetime(value) {}
}
