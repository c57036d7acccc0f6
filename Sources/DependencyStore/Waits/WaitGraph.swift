/// Who waits for which build, for threads and tasks alike: the one place that tells a wait that
/// will end from one that never can.
///
/// An *agent* is what runs factories and may wait: a thread (named by its `ResolutionStack`'s
/// address) or the task of a shared `async` build (named by its `AsyncBuild`'s address). It
/// waits for a *target*: a gate that a thread holds while it builds a cached instance, or an
/// `async` build in flight. A thread waits for one target at a time; a build's factory may await
/// several at once (`async let`, a task group), so an agent has a list of waits.
///
/// Consulted only by an agent about to wait: it follows the target's holder to what that holder
/// waits for, and so on, along every wait. The search ends at holders that run (the wait will
/// end) or back at the agent itself: a cycle, in which each waits for the next and none can go on.
///
/// Every agent registers its wait under the one lock before it blocks or suspends, so of two that
/// close a cycle, the one that registers second sees the other's entry and reports the cycle. A
/// holder is known before it can register a wait of its own (a gate's owner word is written on
/// entry; a build holds itself from creation), and stops holding only when it is done.
enum WaitGraph {
    /// What an agent waits for.
    enum Target {
        /// A cached instance that the thread holding this gate is building.
        case gate(RawGate)
        /// An `async` build in flight.
        case build(AsyncBuild)
        /// Work handed to another agent, held by that agent once it runs it: a main-actor
        /// factory that a verification worker has the main actor build (see `verifyAsync()`).
        case handoff(Handoff)

        /// The agent that must finish for the wait to end, `nil` when none holds it any more.
        /// Call with the graph's lock held (a build's `isFinished` is guarded by it).
        var holder: UnsafeMutableRawPointer? {
            switch self {
            case .gate(let gate): gate.owner
            case .build(let build): build.isFinished ? nil : build.identity
            case .handoff(let handoff): handoff.holder
            }
        }

        func isSame(as other: Target) -> Bool {
            switch (self, other) {
            case (.gate(let a), .gate(let b)): a.base == b.base
            case (.build(let a), .build(let b)): a === b
            case (.handoff(let a), .handoff(let b)): a === b
            default: false
            }
        }
    }

    /// One wait of one agent.
    struct Waiter {
        let target: Target
        /// What it waits for, as the message of a cycle names it.
        let subject: WaitSubject
        /// The registrations the agent is building, outermost first, as they were when it began to
        /// wait.
        let chain: [AnyRegistration]
    }

    struct State {
        /// What each waiting agent waits for.
        var waiting: [UnsafeMutableRawPointer: [Waiter]] = [:]
        /// Verification workers that will never leave the gates they hold (stopped on a problem,
        /// or still running past the timeout), with that problem's line, and the stack of a
        /// stopped worker's ended thread: held, so that its address names no other thread.
        var stopped: [UnsafeMutableRawPointer: (cause: String, stack: ResolutionStack?)] = [:]
        /// The threads of the verification workers that are still running, by worker.
        var workers: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]
    }

    static let state = Lock(State())

    /// Registers `agent` as waiting, unless the wait could never end: then it stays unregistered
    /// and the answer says why: the waits of the cycle, this one first, or, for a verification
    /// worker, the first holder on the way that is a stopped verification worker.
    static func beginWait(
        of agent: UnsafeMutableRawPointer,
        as waiter: Waiter,
        isVerificationWorker: Bool = false
    ) -> Gate.Refusal? {
        state.withLock { state in
            var visited = [agent]
            if let path = pathBack(to: agent, from: waiter.target, in: state, visited: &visited) {
                return .cycle([waiter] + path)
            }
            if isVerificationWorker, let cause = visited.dropFirst().compactMap({ state.stopped[$0]?.cause }).first {
                return .heldByStoppedWorker(cause: cause)
            }
            state.waiting[agent, default: []].append(waiter)
            return nil
        }
    }

    /// The waits that lead from `target` back to `agent`, if any, depth first over every wait of
    /// every holder on the way, each added to `visited` in the order it is met.
    private static func pathBack(
        to agent: UnsafeMutableRawPointer,
        from target: Target,
        in state: State,
        visited: inout [UnsafeMutableRawPointer]
    ) -> [Waiter]? {
        guard let holder = target.holder else { return nil }
        if holder == agent { return [] }
        guard !visited.contains(holder) else { return nil }
        visited.append(holder)
        // A holder waiting at a gate it already holds got in, and runs.
        for next in state.waiting[holder] ?? [] where next.target.holder != holder {
            if let path = pathBack(to: agent, from: next.target, in: state, visited: &visited) {
                return [next] + path
            }
        }
        return nil
    }

    /// `agent` no longer waits for `target`: it got in, or what it awaited finished.
    static func endWait(of agent: UnsafeMutableRawPointer, for target: Target) {
        state.withLock { state in
            guard var waits = state.waiting[agent],
                let index = waits.firstIndex(where: { $0.target.isSame(as: target) })
            else { return }
            waits.remove(at: index)
            state.waiting[agent] = waits.isEmpty ? nil : waits
        }
    }

    /// Work one agent hands another and waits for.
    final class Handoff: @unchecked Sendable {
        /// The agent running it, `nil` before it starts and after it ends; guarded by `state`.
        fileprivate(set) var holder: UnsafeMutableRawPointer?
    }

    /// `agent` starts running `handoff` (or, with `nil`, has ended it).
    static func hold(_ handoff: Handoff, by agent: UnsafeMutableRawPointer?) {
        state.withLock { _ in handoff.holder = agent }
    }

    /// An `async` build finished: nothing waits for it any more.
    static func finished(_ build: AsyncBuild) {
        state.withLock { _ in build.isFinished = true }
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

    /// The worker will not leave the gates it holds (its thread ends, keeping `stack`, or it runs
    /// past its timeout), because of `cause`; unless it has finished meanwhile.
    static func workerStopped(_ worker: VerificationWorker, cause: String, keeping stack: ResolutionStack?) {
        state.withLock { state in
            if let thread = state.workers[ObjectIdentifier(worker)] { state.stopped[thread] = (cause, stack) }
        }
    }
}
