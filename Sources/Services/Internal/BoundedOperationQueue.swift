import Foundation

/// A serial operation queue that makes whoever adds a block wait while `limit` blocks are already
/// queued or running: back-pressure for a URLSession delegate.
///
/// URLSession on Linux (FoundationNetworking, over libcurl) hands each piece of a body it
/// receives to the delegate queue as a block and goes straight on reading; it cannot pause. When
/// the body arrives faster than the delegate handles it (a local server, a gzip body inflating
/// 1000 to 1), the queued pieces hold the whole body in memory however early the delegate means to
/// refuse it. With this queue as the delegate queue, the reading thread waits for room instead, so
/// at most `limit` pieces (16 KiB each on Linux) are ever held.
///
/// The blocks run on a serial dispatch queue of their own, which Dispatch gives a thread whenever
/// it has work (an "overcommit" queue), so they run even while the reading thread waits and every
/// worker of the shared pool is busy; the room a block takes is given back when that block ends,
/// on that same queue.
///
/// > Important: Nothing that runs on this queue may wait for URLSession's own work queue (as
/// > `URLSessionTask.cancel()` and `URLSession.invalidateAndCancel()` do): that queue may be the
/// > one waiting for room here. Hand such calls to another queue.
package final class BoundedOperationQueue: OperationQueue, @unchecked Sendable {
    private let room: DispatchSemaphore
    /// Held here: `underlyingQueue` does not keep its queue alive.
    private let serialQueue = DispatchQueue(label: "BoundedOperationQueue")

    package init(limit: Int) {
        room = DispatchSemaphore(value: limit)
        super.init()
        maxConcurrentOperationCount = 1
        underlyingQueue = serialQueue
    }

    override package func addOperation(_ block: @escaping @Sendable () -> Void) {
        // A block that adds another must not wait for room that only its own end can make.
        guard OperationQueue.current !== self else {
            super.addOperation(block)
            return
        }
        room.wait()
        super.addOperation { [room] in
            block()
            room.signal()
        }
    }
}
