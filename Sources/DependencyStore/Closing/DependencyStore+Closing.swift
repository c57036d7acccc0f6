import Dispatch
import Foundation

extension DependencyStore {
    /// Closes every instance this store keeps, awaiting the `async` closes up to a deadline, and
    /// reports what failed: what an app or a server does before it quits.
    ///
    /// ```swift
    /// let report = await DependencyStore.shared.shutdown(timeout: 10)
    /// for failure in report.failures {
    ///     print(failure)              // a close that threw, or that missed the deadline
    /// }
    /// ```
    ///
    /// Every instance the store keeps (``Scope/singleton`` and custom scopes, its own and those it
    /// keeps of a parent's registrations) is let go of, as if every scope were reset, and closed:
    /// dependents first, in the reverse order the store built them, each exactly once, with no
    /// lock held. A synchronous close runs and returns; an `async` one is awaited before the next
    /// starts. Closes that an earlier `reset` or `unload` started in a task and that are still
    /// running are awaited first, under the same deadline.
    ///
    /// When the deadline passes, the close being awaited is cancelled and reported as having
    /// missed it, and the shutdown goes on without it: the synchronous closes left run, and each
    /// `async` close left is started already cancelled (so it can close at once, the hard way) and
    /// reported as missing the deadline, without being awaited. The store stays usable: what it
    /// builds afterwards it keeps, and closes when it lets go of it again. Stores layered over this
    /// one close their own instances, when they go or shut down.
    ///
    /// - Parameter timeout: How long, in seconds, all the closes together may take. Positive.
    /// - Returns: How many instances were closed, and every close that threw or missed the
    ///   deadline, each naming the instance.
    public func shutdown(timeout: Double = 5) async -> CloseReport {
        precondition(timeout > 0, Diagnosis.nonPositiveTimeout(timeout, call: "shutdown(timeout:)").text)
        return await closeKept(matching: { _ in true }, because: "shutdown(timeout: \(timeout))", timeout: timeout)
    }

    /// Discards the instances this store keeps for `scope`, as ``reset(_:fileID:line:)`` does, and
    /// awaits their closes, up to a deadline: a logout that must know the session has ended.
    ///
    /// ```swift
    /// func logOut() async {
    ///     let report = await DependencyStore.shared.reset(.session, timeout: 5)
    ///     for failure in report.failures {
    ///         print(failure)          // a close that threw, or that missed the deadline
    ///     }
    /// }
    /// ```
    ///
    /// The instances are closed dependents first, each once, with no lock held, and the `async`
    /// closes awaited one after the other, after any close an earlier call left running; past the
    /// deadline it goes on as ``shutdown(timeout:)`` does. Other scopes, and the stores layered over
    /// this one, keep their instances.
    ///
    /// > Important: As with ``reset(_:fileID:line:)``, ``Scope/unique``, ``Scope/graph`` and
    /// > ``Scope/weak`` keep nothing to reset, and trap.
    ///
    /// - Parameters:
    ///   - scope: ``Scope/singleton`` or a custom scope.
    ///   - timeout: How long, in seconds, the closes together may take. Positive.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: How many instances were closed, and every close that threw or missed the
    ///   deadline.
    public func reset(
        _ scope: Scope, timeout: Double, fileID: StaticString = #fileID, line: UInt = #line
    ) async -> CloseReport {
        checkResettable(scope, fileID: fileID, line: line)
        precondition(timeout > 0, Diagnosis.nonPositiveTimeout(timeout, call: "reset(_:timeout:)").text)
        return await closeKept(matching: { $0.scope == scope }, because: "reset(\(scope))", timeout: timeout)
    }

    /// Discards the instances this store keeps of the registrations `matching` picks, closes them
    /// behind every close queued before, and awaits it all up to `timeout` seconds.
    private func closeKept(
        matching: (AnyRegistration) -> Bool, because trigger: String, timeout: Double
    ) async -> CloseReport {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(min(timeout, 1e9) * 1_000_000_000)
        var discarded: [DiscardedInstance] = []
        registry.withLock { registry in
            registry.discardKept(matching: matching, into: &discarded)
        }
        let closes = discarded.closes()
        discarded = []
        let collector = CloseCollector(after: closeFailureReporter())
        let context = CloseContext(trigger: trigger, store: description, record: collector.record)
        let queue = core.closeQueue
        let last = queue.enqueue(closes, as: context)
        if await !queue.finished(upTo: last, deadline: deadline) {
            for missed in queue.abandon(upTo: last) {
                collector.record(.failed(CloseFailure(missed, context, reason: .missedDeadline(timeout: timeout))))
            }
            // Only synchronous closes are left to wait for; the `async` ones are abandoned.
            _ = await queue.finished(upTo: last, deadline: nil)
        }
        let (closed, failures) = collector.finish()
        return CloseReport(closed: closed, failures: failures, trigger: trigger, store: description)
    }

    /// Installs where the failures of this store's closes go, when no caller can be told: those of
    /// a `reset`, an `unload` or `unregister`, a new registration, and the end of the store (a
    /// ``shutdown(timeout:)`` returns its own).
    ///
    /// ```swift
    /// DependencyStore.shared.onCloseFailure { failure in
    ///     logger.error("\(failure)")
    /// }
    /// ```
    ///
    /// A store layered over this one reports to this handler too, unless it installs its own. With
    /// no handler in the store or its parents, a failure's message is written to standard error:
    /// it is never dropped. Installing a handler replaces the one installed before.
    ///
    /// > Important: The handler runs where the close ran: on the thread that called `reset`, or in
    /// > the task that runs the store's `async` closes. So it must be thread-safe (it is
    /// > `@Sendable`). It runs with no lock of the store held.
    ///
    /// - Parameter handler: Called with each failure.
    public func onCloseFailure(_ handler: @escaping @Sendable (CloseFailure) -> Void) {
        registry.withLock { $0.closeFailureHandler = handler }
    }

    /// Closes `closes`, which this store let go of because of `trigger`, as a caller that cannot
    /// await does (see `CloseQueue.close`). Call with no lock held.
    func close(_ closes: [PendingClose], because trigger: @autoclosure () -> String) {
        guard !closes.isEmpty else { return }
        core.closeQueue.close(closes, as: closing(because: trigger()))
    }

    /// The context of closes that this store runs because of `trigger`, whose failures go to its
    /// handler.
    func closing(because trigger: String) -> CloseContext {
        let report = closeFailureReporter()
        return CloseContext(trigger: trigger, store: description) { outcome in
            if case .failed(let failure) = outcome { report(failure) }
        }
    }

    /// The handler of this store or its nearest parent that has one, else standard error.
    func closeFailureReporter() -> @Sendable (CloseFailure) -> Void {
        for store in sequence(first: self, next: \.parent) {
            if let handler = store.registry.withLock({ $0.closeFailureHandler }) { return handler }
        }
        return { failure in
            FileHandle.standardError.write(Data("\(failure)\n".utf8))
        }
    }
}

/// What the closes of one `shutdown` or awaited `reset` ended with, until the call reports it;
/// after that, a failure of one of them (a close that missed the deadline, then threw) goes to the
/// store's handler.
private final class CloseCollector: Sendable {
    private let state = Lock((closed: 0, failures: [CloseFailure](), isOpen: true))
    private let after: @Sendable (CloseFailure) -> Void

    init(after: @escaping @Sendable (CloseFailure) -> Void) {
        self.after = after
    }

    func record(_ outcome: CloseOutcome) {
        let late = state.withLock { state -> CloseFailure? in
            switch outcome {
            case .closed:
                if state.isOpen { state.closed += 1 }
                return nil
            case .failed(let failure):
                guard state.isOpen else { return failure }
                state.failures.append(failure)
                return nil
            }
        }
        if let late { after(late) }
    }

    func finish() -> (closed: Int, failures: [CloseFailure]) {
        state.withLock { state in
            state.isOpen = false
            return (state.closed, state.failures)
        }
    }
}
