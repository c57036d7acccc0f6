internal import DependencyStoreAtomics

/// The memory of a gate, seen through a pointer: the owner word, a published word (used by
/// `OnceCell`), then the platform mutex, in raw memory of its own that never moves. Raw, so an
/// injected property can keep its gate and its value in one allocation.
///
/// Layout: [0] owner (release/acquire), [8] published (release/acquire), [16] mutex.
@usableFromInline
struct RawGate {
    @usableFromInline let base: UnsafeMutableRawPointer

    static let mutexOffset = 2 * MemoryLayout<UnsafeMutableRawPointer?>.stride
    static let headerSize = mutexOffset + MemoryLayout<PlatformMutex>.stride

    /// Initialises a gate in `base`, which must hold `headerSize` bytes aligned to 8.
    init(initializingAt base: UnsafeMutableRawPointer) {
        self.base = base
        base.initializeMemory(as: UnsafeMutableRawPointer?.self, repeating: nil, count: 2)
        mutex.initializeMutex()
    }

    /// The gate already initialised in `base`.
    init(existingAt base: UnsafeMutableRawPointer) {
        self.base = base
    }

    /// Destroys the mutex; the caller frees the memory.
    func destroy() {
        mutex.destroyMutex()
    }

    @inline(__always)
    private var mutex: UnsafeMutablePointer<PlatformMutex> {
        (base + Self.mutexOffset).assumingMemoryBound(to: PlatformMutex.self)
    }

    @inline(__always)
    var ownerCell: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        base.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    @inline(__always)
    var publishedCell: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        base.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) + 1
    }

    /// The published value's address (see `OnceCell`), or `nil`: an acquire load. Not
    /// inlinable, so clients need not see the C atomics module.
    @usableFromInline
    var published: UnsafeMutableRawPointer? {
        dependency_store_load_acquire(publishedCell)
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

    /// See `Gate.enter`.
    func enter(on stack: ResolutionStack, waitingFor subject: @autoclosure () -> WaitSubject) -> Gate.Refusal? {
        if !mutex.tryLockMutex() {
            let waiter = WaitGraph.Waiter(target: .gate(self), subject: subject(), chain: stack.registrations())
            let refusal = WaitGraph.beginWait(
                of: stack.identity, as: waiter, isVerificationWorker: stack.verificationWorker != nil)
            if let refusal { return refusal }
            mutex.lockMutex()
            WaitGraph.endWait(of: stack.identity, for: .gate(self))
        }
        dependency_store_store_release(ownerCell, stack.identity)
        return nil
    }

    /// Leaves the gate entered with `enter`.
    func leave() {
        dependency_store_store_release(ownerCell, nil)
        mutex.unlockMutex()
    }
}

/// A gate with memory of its own: a cached scope's slot.
///
/// It knows which thread holds it, so that a thread about to wait can find out, through
/// `WaitGraph`, whether the holder is (directly or through others) waiting for it. Only a thread
/// that is about to block pays for that: an uncontended `enter` is one `tryLock` and one atomic
/// store.
final class Gate {
    let raw: RawGate

    init() {
        raw = RawGate(initializingAt: .allocate(byteCount: RawGate.headerSize, alignment: 16))
    }

    deinit {
        raw.destroy()
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

    /// Enters the gate for the thread of `stack`, waiting while another thread is inside, unless
    /// that wait could never end; then it does not enter and says why.
    @inline(__always)
    func enter(on stack: ResolutionStack, waitingFor subject: @autoclosure () -> WaitSubject) -> Refusal? {
        raw.enter(on: stack, waitingFor: subject())
    }

    /// Leaves the gate entered with `enter`.
    @inline(__always)
    func leave() {
        raw.leave()
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
