/// A close that did not succeed: it threw, or a shutdown's deadline passed before it ended.
///
/// A store reports each one, never dropping it: ``DependencyStore/shutdown(timeout:)`` returns the
/// failures of its closes in its ``CloseReport``; the closes of a `reset`, an `unload`, a new
/// registration or the end of a store go to the handler ``DependencyStore/onCloseFailure(_:)``
/// installed, or to standard error when none is.
///
/// ```swift
/// store.onCloseFailure { failure in
///     logger.error("\(failure)")   // the whole message: what, which instance, where, and why
/// }
/// ```
public struct CloseFailure: CustomStringConvertible {
    /// What went wrong.
    public enum Reason {
        /// The close threw this error.
        case threw(any Error)
        /// The close had not ended when the deadline of ``DependencyStore/shutdown(timeout:)``,
        /// this many seconds after it started, passed. It was cancelled, and the shutdown went on.
        case missedDeadline(timeout: Double)
    }

    /// The instance, as its registration names it: `Session`, or `Networking (named "backup")`.
    public let instance: String
    /// Where the instance's type was registered: `App/Wiring.swift:12`.
    public let registeredAt: String
    /// What let go of the instance: `reset(.session)`, `unload(SessionAssembly.self)`,
    /// `unregister(Session.self)`, `a new registration of Session`, `shutdown(timeout: 5.0)`, or
    /// `the end of the store`.
    public let trigger: String
    /// The store that let go of it, as diagnostics name it.
    public let store: String
    /// What went wrong.
    public let reason: Reason
    /// The whole message: what happened, to which instance, where it was registered, and what to do.
    public let description: String

    init(_ close: PendingClose, _ context: CloseContext, reason: Reason) {
        instance = close.label
        registeredAt = close.registeredAt.description
        trigger = context.trigger
        store = context.store
        self.reason = reason
        let (error, timeout): (String?, Double?) =
            switch reason {
            case .threw(let error): ("\(error)", nil)
            case .missedDeadline(let timeout): (nil, timeout)
            }
        description =
            Diagnosis.closeFailed(
                instance: close.label, registeredAt: close.registeredAt, trigger: context.trigger,
                store: context.store, error: error, missedDeadline: timeout
            ).text
    }
}

extension CloseFailure: Sendable {}
extension CloseFailure.Reason: Sendable {}
