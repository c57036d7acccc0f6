internal import DependencyStoreAtomics

/// The lock one thread holds while it builds something that others must wait for: a cached
/// scope's instance, an `@Injected` property's first value.
///
/// It knows which thread holds it, so that a thread about to wait can find out, through
/// `WaitGraph`, whether the holder is (directly or through others) waiting for it: a cycle that
/// would otherwise hang both threads forever. Only a thread that is about to block pays for that:
/// an uncontended `enter` is one `tryLock` and one atomic store.
final class Gate {
    private let lock = Lock()
    /// The resolution stack of the thread inside, or `nil`: written by that thread with release
    /// ordering, read by waiting threads with acquire ordering.
    private let ownerCell: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    init() {
        ownerCell = .allocate(capacity: 1)
        ownerCell.initialize(to: nil)
    }

    deinit {
        ownerCell.deallocate()
    }

    /// The thread inside (by the address of its resolution stack), if any.
    @inline(__always)
    var owner: UnsafeMutableRawPointer? {
        dependency_store_load_acquire(ownerCell)
    }

    /// Whether the thread of `stack` is inside.
    @inline(__always)
    func isHeld(by stack: ResolutionStack) -> Bool {
        owner == stack.identity
    }

    /// Why a thread did not enter.
    enum Refusal {
        /// The threads, this one first, each waiting for the next one's gate, the last for this
        /// one's: waiting would never end.
        case cycle([WaitGraph.Waiter])
        /// The gate is held by a verification worker that stopped on a problem and never returns;
        /// the problem's line.
        case heldByStoppedWorker(cause: String)
    }

    /// Enters the gate for the thread of `stack`, waiting while another thread is inside, unless
    /// that wait could never end; then it does not enter and says why.
    ///
    /// - Parameter subject: What is built behind the gate, for the message of a cycle.
    /// - Returns: `nil` once inside; call `leave()` after. Otherwise why the thread did not enter.
    func enter(on stack: ResolutionStack, waitingFor subject: @autoclosure () -> WaitSubject) -> Refusal? {
        if !lock.tryLock() {
            let waiter = WaitGraph.Waiter(gate: self, subject: subject(), chain: stack.registrations())
            if let refusal = WaitGraph.beginWait(of: stack, as: waiter) { return refusal }
            lock.lock()
            WaitGraph.endWait(of: stack)
        }
        dependency_store_store_release(ownerCell, stack.identity)
        return nil
    }

    /// Leaves the gate entered with `enter`.
    func leave() {
        dependency_store_store_release(ownerCell, nil)
        lock.unlock()
    }
}

extension Gate: @unchecked Sendable {}

/// What a thread waits for at a gate, as the message of a cross-thread cycle names it.
enum WaitSubject {
    /// The instance of a cached-scope registration, being built in `store`.
    case instance(AnyRegistration, store: DependencyStore)
    /// The first value of an injected property (or a `Lazy` handle), for `requester`.
    case property(type: Any.Type, name: String?, requester: Requester)

    /// The type (and name) awaited: `MyApp.Greeting (named "formal")`.
    var typeLabel: String {
        switch self {
        case .instance(let registration, _): Diagnostics.label(of: registration)
        case .property(let type, let name, _): Diagnostics.label(of: type, name: name)
        }
    }

    /// The same, with where it is being built.
    var label: String {
        switch self {
        case .instance(let registration, let store):
            "'\(Diagnostics.label(of: registration))' in \(store)"
        case .property(let type, let name, .lazyHandle(let location)):
            "the first use of the Lazy handle made at \(location) ('\(Diagnostics.label(of: type, name: name))')"
        case .property(let type, let name, let requester):
            "the first read of the @Injected property declared at \(requester.location) ('\(Diagnostics.label(of: type, name: name))')"
        }
    }
}
