internal import DependencyStoreAtomics

/// A gate, seen through a pointer to its memory (`dependency_store_gate`, a C struct whose fields
/// are `_Atomic`): memory of its own that never moves, or the first bytes of an injected
/// property's one allocation, before its value.
///
/// The gate is a mutex that its holder holds while it resolves, beside the holder's identity (the
/// address of its resolution stack), which the wait-for graph follows, and the address of the value
/// an injected property publishes once. A thread enters with a try-lock of the mutex, then writes
/// its identity; it leaves by clearing the identity, then unlocking. A thread that finds the gate
/// held first records what it waits for and walks the wait-for graph (`WaitGraph`), which traps on
/// a cycle instead of waiting; then it sleeps on the gate's own mutex, so the platform knows which
/// thread it waits for: on Apple platforms an `os_unfair_lock`, which lends the waiter's priority
/// to the holder (a main thread waiting for a build on a utility thread), on Linux a futex word of
/// the gate's own, on which only this gate's waiters sleep, and which the kernel wakes one at a
/// time. A woken waiter holds the gate, finds what the holder built or published, and leaves.
///
/// The holder's identity is written just after the mutex is taken and cleared just before it is
/// released: a walk that reads no holder meanwhile takes the wait to be one that ends, which it is,
/// as that holder is running. The protocol is also written down in Docs/ThreadSafety.md.
@usableFromInline
struct RawGate {
    @usableFromInline let base: UnsafeMutableRawPointer

    /// The bytes a gate takes, and their alignment: the C struct's, as its compiler lays it out.
    static var size: Int { MemoryLayout<dependency_store_gate>.stride }
    static var alignment: Int { MemoryLayout<dependency_store_gate>.alignment }

    /// A gate over `base`, which has room for one (`size`, `alignment`) and is uninitialised:
    /// made free, with nothing published.
    init(initializingAt base: UnsafeMutableRawPointer) {
        self.base = base
        // A C struct of trivial fields: its C initialiser sets every one.
        dependency_store_gate_init(base.bindMemory(to: dependency_store_gate.self, capacity: 1))
    }

    /// The gate already made at `base`.
    init(existingAt base: UnsafeMutableRawPointer) {
        self.base = base
    }

    @inline(__always)
    var cell: UnsafeMutablePointer<dependency_store_gate> {
        base.assumingMemoryBound(to: dependency_store_gate.self)
    }

    /// The address an injected property published, or `nil`: loaded with acquire ordering, so
    /// the value there is whole.
    @usableFromInline
    var published: UnsafeMutableRawPointer? {
        dependency_store_gate_published(cell)
    }

    /// Publishes the value's address, with release ordering. Only the holder calls this, once.
    @inline(__always)
    func publishOnce(_ address: UnsafeMutableRawPointer) {
        precondition(
            dependency_store_gate_publish(cell, address), "DependencyStore: an injected value was published twice")
    }

    /// Publishes `address` in place of the published one, with release ordering: a set of the
    /// property. Only the holder calls this, and keeps the old value alive for readers.
    func replace(with address: UnsafeMutableRawPointer) {
        dependency_store_gate_replace(cell, address)
    }

    /// The holder's identity, or `nil` when the gate is free (or its holder is just entering or
    /// leaving).
    @inline(__always)
    var owner: UnsafeMutableRawPointer? {
        dependency_store_gate_owner(cell)
    }

    /// Whether the thread whose stack is `stack` holds the gate.
    @inline(__always)
    func isHeld(by stack: ResolutionStack) -> Bool {
        owner == stack.identity
    }

    /// Enters the gate for `stack`'s thread, waiting while another thread holds it. A wait that
    /// would never end (a cycle across threads) comes back as a refusal, and so does a wait for a
    /// build verification stopped; the gate is not entered then. `subject` describes what the
    /// thread waits for, in a cycle's report.
    @inline(__always)
    func enter(on stack: ResolutionStack, waitingFor subject: @autoclosure () -> WaitSubject) -> Gate.Refusal? {
        if _fastPath(dependency_store_gate_try_enter(cell, stack.identity)) { return nil }
        return enterWaiting(on: stack, subject: subject())
    }

    /// Enters the gate of a property (of `type` and `name`, read for `requester`) for `stack`'s
    /// thread, as `enter` does; a wait that could never end traps, with both chains
    /// (`DependencyStore.refused`). What every first read, set and re-read of an injected
    /// property does to get in.
    @inline(__always)
    func enterProperty(
        on stack: ResolutionStack, type: Any.Type, name: @autoclosure () -> String?,
        requester: @autoclosure () -> Requester
    ) {
        if let refusal = enter(on: stack, waitingFor: .property(type: type, name: name(), requester: requester())) {
            DependencyStore.refused(refusal, resolving: type, name: name(), at: requester())
        }
    }

    @inline(never)
    private func enterWaiting(on stack: ResolutionStack, subject: WaitSubject) -> Gate.Refusal? {
        let waiter = WaitGraph.Waiter(target: .gate(self), subject: subject, chain: stack.registrations())
        if let refusal = WaitGraph.beginWait(
            of: stack.identity, as: waiter, isVerificationWorker: stack.verificationWorker != nil)
        {
            return refusal
        }
        dependency_store_gate_enter_waiting(cell, stack.identity)
        WaitGraph.endWait(of: stack.identity, for: .gate(self))
        return nil
    }

    /// Leaves the gate, which this thread holds, and wakes one waiter if any sleeps.
    @inline(__always)
    func leave() {
        dependency_store_gate_leave(cell)
    }
}

/// A gate with memory of its own: a cached scope's slot.
///
/// It knows which thread holds it, so that a thread about to wait can find out, through
/// `WaitGraph`, whether the holder is (directly or through others) waiting for it. Only a thread
/// that is about to block pays for that: an uncontended `enter` is one compare-and-swap.
final class Gate {
    let raw: RawGate

    init() {
        raw = RawGate(initializingAt: .allocate(byteCount: RawGate.size, alignment: RawGate.alignment))
    }

    deinit {
        raw.base.deallocate()
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
}
