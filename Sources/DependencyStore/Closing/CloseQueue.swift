import Dispatch

/// Why a store is closing instances, and where a failure goes: one per `reset`, `unload`,
/// `shutdown` or end of a store.
struct CloseContext: Sendable {
    /// What let go of the instances, as the caller wrote it: `reset(.session)`, `shutdown()`, or
    /// `the end of the store`.
    let trigger: String
    /// The store, as diagnostics name it.
    let store: String
    /// Where each outcome goes: a shutdown counts them; otherwise only failures are reported.
    let record: @Sendable (CloseOutcome) -> Void
}

/// How one close ended.
enum CloseOutcome: Sendable {
    case closed
    case failed(CloseFailure)
}

/// The closes of one store, run one at a time and in order, each with no lock held.
///
/// A synchronous caller (`reset`, `unload`, a new registration, the store's end) cannot await, so
/// it runs what it can at once: the closes before the first `async` one, on its own thread, when
/// nothing of this store is still closing. The rest go here, and a task runs them in the order
/// they came, awaiting each `async` close before it starts the next: dependents are closed before
/// what they depend on, whichever call let go of them. `shutdown` queues all of its closes and
/// awaits them up to its deadline; past it, `abandon` stops awaiting what is running, cancels it,
/// and starts the `async` closes still waiting cancelled, without awaiting them.
///
/// Every close queued runs exactly once: it is taken out of `waiting` under the lock by the one
/// task that runs it. An instance is queued at most once, because only the call that took it out
/// of its slot (`InstanceSlot.discard`, under the store's lock) holds it.
final class CloseQueue: Sendable {
    private struct Item: Sendable {
        /// Its place in the queue, from 1: what `finished(upTo:deadline:)` waits for.
        let index: Int
        let close: PendingClose
        let context: CloseContext
    }

    /// The close that runs now, and how to stop awaiting it.
    private struct Running {
        let item: Item
        let fate: Lock<Fate>
        /// The task of an `async` close, to cancel; `nil` for a synchronous one.
        let task: Task<Void, Never>?
        /// Lets the queue go on to the next close without waiting for this one.
        let stopAwaiting: (@Sendable () -> Void)?
    }

    /// What became of a close that runs: whichever of its end and a deadline comes first decides.
    private enum Fate {
        case running, ended, abandoned
    }

    private struct State {
        var waiting: [Item] = []
        /// A task runs `waiting`, or will as soon as the synchronous caller that started it has run
        /// its own closes. Always true while `waiting` is not empty.
        var isDraining = false
        /// The index of the last item queued.
        var queued = 0
        /// The index of the last item that ended (or was abandoned): items end in order.
        var finished = 0
        /// Items up to this index are past a shutdown's deadline: an `async` one among them is
        /// started cancelled and not awaited.
        var abandonedUpTo = 0
        /// The item the draining task took out of `waiting` and has not made `running` yet: an
        /// `async` one among them that a deadline passes meanwhile starts cancelled, and is missed.
        var taken: Item?
        var running: Running?
        var waiters: [(upTo: Int, signal: OneShot<Bool>)] = []

        mutating func append(_ closes: some Collection<PendingClose>, as context: CloseContext) {
            for close in closes {
                queued += 1
                waiting.append(Item(index: queued, close: close, context: context))
            }
        }
    }

    private let state = Lock(State())

    /// Runs `closes`, dependents first, as a caller that cannot await can: at once, on this
    /// thread, as far as they are synchronous and nothing of this store is still closing; the rest
    /// in order after them, in a task. Call with no lock held.
    func close(_ closes: [PendingClose], as context: CloseContext) {
        guard !closes.isEmpty else { return }
        let (now, startsDraining) = state.withLock { state -> (ArraySlice<PendingClose>, Bool) in
            if state.isDraining {
                // Behind what is still closing: what this call let go of may be what those depend on.
                state.append(closes, as: context)
                return ([], false)
            }
            let firstAsync = closes.firstIndex(where: \.isAsync) ?? closes.endIndex
            guard firstAsync < closes.endIndex else { return (closes[...], false) }
            state.append(closes[firstAsync...], as: context)
            // Claimed now, started once the closes before it have run here: a call that comes
            // meanwhile queues behind.
            state.isDraining = true
            return (closes[..<firstAsync], true)
        }
        for close in now {
            guard case .sync(let body) = close.action else { continue }
            context.record(Self.outcome(of: close, as: context, body))
        }
        if startsDraining { startDraining() }
    }

    /// Queues `closes` behind every close queued before, and returns the index of the last close
    /// queued: what `finished(upTo:deadline:)` waits for.
    func enqueue(_ closes: [PendingClose], as context: CloseContext) -> Int {
        let (last, startsDraining) = state.withLock { state -> (Int, Bool) in
            state.append(closes, as: context)
            guard !state.isDraining, !state.waiting.isEmpty else { return (state.queued, false) }
            state.isDraining = true
            return (state.queued, true)
        }
        if startsDraining { startDraining() }
        return last
    }

    /// Whether every close up to `index` has ended by `deadline` (uptime nanoseconds; `nil`: no
    /// deadline, wait for them).
    func finished(upTo index: Int, deadline: UInt64?) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let signal = OneShot(continuation)
            let ended = state.withLock { state -> Bool in
                if state.finished >= index { return true }
                state.waiters.append((index, signal))
                return false
            }
            if ended {
                signal.resume(returning: true)
                return
            }
            guard let deadline else { return }
            // A Dispatch timer, not a task: the deadline must pass on time even when the
            // concurrency pool is busy (with the very closes it bounds, say).
            let timer = DispatchWorkItem { signal.resume(returning: false) }
            signal.setTimer(timer)
            DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline), execute: timer)
        }
    }

    /// Stops awaiting the closes up to `index` once a shutdown's deadline has passed: the one that
    /// runs now is cancelled and no longer awaited, and each `async` close still waiting will be
    /// started cancelled and not awaited. Returns the closes that missed the deadline: the one that
    /// runs now, synchronous or not, and those `async` ones. The synchronous closes still waiting
    /// run as usual.
    func abandon(upTo index: Int) -> [PendingClose] {
        let (stopped, waiting) = state.withLock { state -> (Running?, [PendingClose]) in
            state.abandonedUpTo = max(state.abandonedUpTo, index)
            var waiting = state.waiting.filter { $0.index <= index && $0.close.isAsync }.map(\.close)
            // Taken out of `waiting` but not running yet: `run` sees the deadline passed and starts
            // it cancelled (an `async` one; a synchronous one runs as usual). Left out here, a
            // shutdown on a busy machine reported one close fewer than it missed.
            if let taken = state.taken, taken.index <= index, taken.close.isAsync {
                waiting.insert(taken.close, at: 0)
            }
            guard let running = state.running, running.item.index <= index else { return (nil, waiting) }
            return (running, waiting)
        }
        guard let stopped else { return waiting }
        // It may have ended meanwhile: then it did not miss the deadline.
        let abandoned = stopped.fate.withLock { fate -> Bool in
            guard fate == .running else { return false }
            fate = .abandoned
            return true
        }
        guard abandoned else { return waiting }
        // With no lock held: cancelling runs the close's cancellation handlers.
        stopped.task?.cancel()
        stopped.stopAwaiting?()
        return [stopped.item.close] + waiting
    }

    // MARK: - The task that runs the queue

    private func startDraining() {
        Task.detached { [self] in
            while let item = next() {
                await run(item)
                finish(item)
            }
        }
    }

    private func next() -> Item? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.isDraining = false
                return nil
            }
            let item = state.waiting.removeFirst()
            state.taken = item
            return item
        }
    }

    private func finish(_ item: Item) {
        let ready = state.withLock { state -> [OneShot<Bool>] in
            state.running = nil
            state.taken = nil
            state.finished = item.index
            let ready = state.waiters.filter { $0.upTo <= item.index }.map(\.signal)
            state.waiters.removeAll { $0.upTo <= item.index }
            return ready
        }
        for signal in ready {
            signal.resume(returning: true)
        }
    }

    private func run(_ item: Item) async {
        let fate = Lock(Fate.running)
        switch item.close.action {
        case .sync(let body):
            state.withLock {
                $0.taken = nil
                $0.running = Running(item: item, fate: fate, task: nil, stopAwaiting: nil)
            }
            Self.record(Self.outcome(of: item.close, as: item.context, body), of: item, fate: fate)
        case .async(let body):
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ended = OneShot(continuation)
                // Decided before its task exists: a close past a shutdown's deadline cancels its own
                // task before its body runs, so that it starts cancelled. Cancelled from here once
                // made, its body could run first, uncancelled, and end as closed (seen under the
                // thread sanitizer).
                let pastDeadline = state.withLock { state -> Bool in
                    guard item.index <= state.abandonedUpTo else { return false }
                    state.taken = nil  // reported by the `abandon` that passed it
                    return true
                }
                if pastDeadline { fate.withLock { $0 = .abandoned } }
                let task = Task.detached {
                    if pastDeadline { withUnsafeCurrentTask { $0?.cancel() } }
                    let outcome: CloseOutcome
                    do {
                        try await body()
                        outcome = .closed
                    } catch {
                        outcome = .failed(CloseFailure(item.close, item.context, reason: .threw(error)))
                    }
                    Self.record(outcome, of: item, fate: fate)
                    ended.resume(returning: ())
                }
                if pastDeadline {
                    ended.resume(returning: ())
                    return
                }
                // Running from now on, for a deadline to cancel; one that passed since the look
                // above cancels it here.
                let passedMeanwhile = state.withLock { state -> Bool in
                    state.taken = nil
                    guard item.index > state.abandonedUpTo else { return true }
                    state.running = Running(
                        item: item, fate: fate, task: task, stopAwaiting: { ended.resume(returning: ()) })
                    return false
                }
                if passedMeanwhile {
                    fate.withLock { $0 = .abandoned }
                    task.cancel()
                    ended.resume(returning: ())
                }
            }
        }
    }

    /// Records how a close ended, unless a deadline gave up on it first: then its shutdown has
    /// reported it as missed, and only an error other than the cancellation it was sent is news.
    private static func record(_ outcome: CloseOutcome, of item: Item, fate: Lock<Fate>) {
        let abandoned = fate.withLock { fate -> Bool in
            if fate == .abandoned { return true }
            fate = .ended
            return false
        }
        switch outcome {
        case .closed where abandoned:
            return
        case .failed(let failure) where abandoned:
            if case .threw(let error) = failure.reason, error is CancellationError { return }
            item.context.record(outcome)
        default:
            item.context.record(outcome)
        }
    }

    /// How `body`, the synchronous close `close`, ends when run now.
    private static func outcome(of close: PendingClose, as context: CloseContext, _ body: () throws -> Void)
        -> CloseOutcome
    {
        do {
            try body()
            return .closed
        } catch {
            return .failed(CloseFailure(close, context, reason: .threw(error)))
        }
    }
}

/// A continuation resumed once, by whichever of several parties comes first; the others' resumes
/// do nothing. A timer set on it is cancelled when it is resumed.
final class OneShot<Value: Sendable>: Sendable {
    private let state: Lock<(continuation: CheckedContinuation<Value, Never>?, timer: DispatchWorkItem?)>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        state = Lock((continuation, nil))
    }

    func resume(returning value: Value) {
        let (continuation, timer) = state.withLock { state in
            defer { state = (nil, nil) }
            return state
        }
        timer?.cancel()
        continuation?.resume(returning: value)
    }

    /// Keeps `timer` to cancel on resume; cancels it now if that has happened.
    func setTimer(_ timer: DispatchWorkItem) {
        let resumed = state.withLock { state -> Bool in
            guard state.continuation != nil else { return true }
            state.timer = timer
            return false
        }
        if resumed { timer.cancel() }
    }
}
