/// Which threads are waiting at which gate, to tell a wait that will end from one that never can.
///
/// Consulted only by a thread that found a gate taken and is about to block: it registers what
/// it waits for, then follows the gate's holder to what that thread waits for, and so on. The
/// walk ends at a thread that is running (the wait will end: keep waiting), at a gate that was
/// left meanwhile (the same), or back at this thread: a cycle, in which every thread waits for
/// the next and none can go on.
///
/// Every waiting thread registers under the one lock before it blocks, so of two threads that
/// close a cycle, the one that registers second sees the other's entry and reports the cycle.
/// A holder writes its gate's owner before it can register a wait of its own, and clears it only
/// when it leaves, so an entry found in the walk always describes a thread that is blocked (or
/// about to block) while holding the gates the walk passed through.
enum WaitGraph {
    /// One waiting thread.
    struct Waiter {
        /// Where it waits. Its memory lives while the entry exists: the waiting thread holds
        /// the object the gate belongs to.
        let gate: RawGate
        /// What it waits for.
        let subject: WaitSubject
        /// The registrations it is building, outermost first, as they were when it began to wait.
        let chain: [AnyRegistration]
    }

    struct State {
        /// The threads waiting at a gate, by their resolution stack's address.
        var waiting: [UnsafeMutableRawPointer: Waiter] = [:]
        /// Verification workers that will never leave the gates they hold (stopped on a problem,
        /// or still running past the timeout), with that problem's line.
        var stopped: [UnsafeMutableRawPointer: String] = [:]
        /// The threads of the verification workers that are still running, by worker.
        var workers: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]
    }

    static let state = Lock(State())

    /// Registers the thread of `stack` as waiting, unless the wait could never end: then it stays
    /// unregistered and the answer says why.
    static func beginWait(of stack: ResolutionStack, as waiter: Waiter) -> Gate.Refusal? {
        let thread = stack.identity
        let isVerificationWorker = stack.verificationWorker != nil
        return state.withLock { state in
            var cycle = [waiter]
            var gate = waiter.gate
            var visited: Set<UnsafeMutableRawPointer> = [thread]
            while let holder = gate.owner {
                if holder == thread { return .cycle(cycle) }
                if isVerificationWorker, let cause = state.stopped[holder] {
                    return .heldByStoppedWorker(cause: cause)
                }
                // A holder that is not waiting runs, and will leave in time; one that is waiting
                // at a gate it already holds got in and runs too.
                guard let next = state.waiting[holder], next.gate.owner != holder,
                    visited.insert(holder).inserted
                else { break }
                cycle.append(next)
                gate = next.gate
            }
            state.waiting[thread] = waiter
            return nil
        }
    }

    /// The thread of `stack` got in: it no longer waits.
    static func endWait(of stack: ResolutionStack) {
        state.withLock { $0.waiting[stack.identity] = nil }
    }

    // MARK: - Verification workers

    /// A verification worker starts building on the thread of `stack`.
    static func workerStarted(_ worker: VerificationWorker, on stack: ResolutionStack) {
        state.withLock { $0.workers[ObjectIdentifier(worker)] = stack.identity }
    }

    /// The worker returned: its thread may end, and its address be reused by another thread.
    static func workerFinished(_ worker: VerificationWorker) {
        state.withLock { state in
            if let thread = state.workers.removeValue(forKey: ObjectIdentifier(worker)) {
                state.stopped[thread] = nil
            }
        }
    }

    /// The worker will not leave the gates it holds (it is parked, or past its timeout), because
    /// of `cause`; unless it has finished meanwhile.
    static func workerStopped(_ worker: VerificationWorker, cause: String) {
        state.withLock { state in
            if let thread = state.workers[ObjectIdentifier(worker)] { state.stopped[thread] = cause }
        }
    }
}
