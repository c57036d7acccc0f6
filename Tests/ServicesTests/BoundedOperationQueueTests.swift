import Foundation
import Services
import Testing

/// The back-pressure that keeps URLSession on Linux from queueing a whole body for the delegate.
@Suite struct BoundedOperationQueueTests {
    /// Counts kept by the adder and by the blocks.
    final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var added = 0
        private var finished = 0
        private var mostOutstanding = 0

        func didAdd() { lock.withLock { added += 1 } }

        func blockRan() {
            lock.withLock {
                mostOutstanding = max(mostOutstanding, added - finished)
                finished += 1
            }
        }

        var result: (finished: Int, mostOutstanding: Int) { lock.withLock { (finished, mostOutstanding) } }
    }

    @Test func whoeverAddsWaitsWhileTheLimitIsQueued() {
        let queue = BoundedOperationQueue(limit: 3)
        let counts = Counts()

        // Each block does a little work, so an adder that never waited would run far ahead.
        for _ in 0..<200 {
            queue.addOperation {
                _ = (0..<2_000).reduce(0, &+)
                counts.blockRan()
            }
            counts.didAdd()
        }
        queue.waitUntilAllOperationsAreFinished()

        #expect(counts.result.finished == 200)
        #expect(counts.result.mostOutstanding <= 3)
    }

    @Test(.timeLimit(.minutes(1)))
    func aBlockThatAddsAnotherDoesNotWaitForItself() {
        let queue = BoundedOperationQueue(limit: 1)
        let counts = Counts()

        queue.addOperation {
            queue.addOperation { counts.blockRan() }
            counts.blockRan()
        }
        queue.waitUntilAllOperationsAreFinished()

        #expect(counts.result.finished == 2)
    }
}
