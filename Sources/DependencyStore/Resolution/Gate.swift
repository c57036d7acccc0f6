internal import DependencyStoreAtomics
import Foundation

/// The memory of a gate, seen through a pointer: the owner word, then a published word (used by
/// `OnceCell`), in raw memory of its own that never moves. Raw, so an injected property can keep
/// its gate and its value in one allocation.
///
/// Layout: [0] owner, [8] published (release/acquire).
///
/// The owner word is the gate: the address of the holder's resolution stack, or 0 when nobody is
/// inside, with its lowest bit set while some thread waits (the addresses are aligned, so the bit
/// is free). A thread enters with one compare-and-swap from 0 to its address, and leaves with
/// one exchange back to 0; only when the exchange finds the bit set does it wake the waiters.
/// A gate has no mutex of its own: a thread that must wait parks on `GateParking`, one condition
/// shared by every gate, since waiting is rare (two threads reading one property for the first
/// time at once, or a cached instance being built) and short.
///
/// Why no wake is lost: a waiter sets the bit, checking that the owner is still there, while it
/// holds the parking lock, and keeps that lock until it sleeps on the condition; a holder that
/// finds the bit when it leaves takes the parking lock before it wakes anyone, so it wakes the
/// waiter after the waiter sleeps. Had the holder left first, the waiter's compare-and-swap would
/// fail, and it would find the gate free. Every woken waiter looks again, and sets the bit again
/// if another got in first. The protocol is also written down in Docs/ThreadSafety.md.
@usableFromInline
struct RawGate {
    @usableFromInline let base: UnsafeMutableRawPointer

    static let headerSize = 2 * MemoryLayout<UnsafeMutableRawPointer?>.stride

    /// The owner word's bit that says a thread waits.
    private static let waitersBit: UInt = 1

    /// Initialises a gate in `base`, which must hold `headerSize` bytes aligned to 8.
    init(initializingAt base: UnsafeMutableRawPointer) {
        self.base = base
        base.initializeMemory(as: UnsafeMutableRawPointer?.self, repeating: nil, count: 2)
    }

    /// The gate already initialised in `base`.
    init(existingAt base: UnsafeMutableRawPointer) {
        self.base = base
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

    /// Publishes `address`, where the value is whole: a release store, which a read of
    /// `published` (acquire) pairs with. Once, from the one thread inside the gate.
    @inline(__always)
    func publishOnce(_ address: UnsafeMutableRawPointer) {
        precondition(publishedCell.pointee == nil, "DependencyStore: an injected value was published twice")
        dependency_store_store_release(publishedCell, address)
    }

    /// The thread inside (by the address of its resolution stack), if any.
    @inline(__always)
    var owner: UnsafeMutableRawPointer? {
        let word = UInt(bitPattern: dependency_store_load_acquire(ownerCell))
        return UnsafeMutableRawPointer(bitPattern: word & ~Self.waitersBit)
    }

    /// Whether the thread of `stack` is inside.
    @inline(__always)
    func isHeld(by stack: ResolutionStack) -> Bool {
        owner == stack.identity
    }

    /// See `Gate.enter`.
    @inline(__always)
    func enter(on stack: ResolutionStack, waitingFor subject: @autoclosure () -> WaitSubject) -> Gate.Refusal? {
        if _fastPath(dependency_store_compare_exchange(ownerCell, nil, stack.identity)) { return nil }
        return enterWaiting(on: stack, subject: subject())
    }

    /// `enter`, when another thread is inside: registers the wait (or refuses one that could never
    /// end), then parks until this thread gets in.
    @inline(never)
    private func enterWaiting(on stack: ResolutionStack, subject: WaitSubject) -> Gate.Refusal? {
        let waiter = WaitGraph.Waiter(target: .gate(self), subject: subject, chain: stack.registrations())
        if let refusal = WaitGraph.beginWait(
            of: stack.identity, as: waiter, isVerificationWorker: stack.verificationWorker != nil)
        {
            return refusal
        }
        let me = stack.identity
        GateParking.condition.lock()
        while true {
            let word = dependency_store_load_acquire(ownerCell)
            if word == nil {
                if dependency_store_compare_exchange(ownerCell, nil, me) { break }
                continue
            }
            let bits = UInt(bitPattern: word)
            if bits & Self.waitersBit == 0 {
                let marked = UnsafeMutableRawPointer(bitPattern: bits | Self.waitersBit)
                // The holder left, or another waiter marked it, meanwhile: look again.
                if !dependency_store_compare_exchange(ownerCell, word, marked) { continue }
            }
            GateParking.condition.wait()
        }
        GateParking.condition.unlock()
        WaitGraph.endWait(of: me, for: .gate(self))
        return nil
    }

    /// Leaves the gate entered with `enter`, waking the threads that wait for it, if any.
    @inline(__always)
    func leave() {
        let word = dependency_store_exchange_release(ownerCell, nil)
        if _slowPath(UInt(bitPattern: word) & Self.waitersBit != 0) {
            GateParking.wakeAll()
        }
    }
}

/// Where a thread waits for a gate another thread holds (see `RawGate`): one condition for every
/// gate of the process.
enum GateParking {
    static let condition = NSCondition()

    /// Wakes every waiting thread: each looks at its own gate again.
    @inline(never)
    static func wakeAll() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
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
        raw = RawGate(initializingAt: .allocate(byteCount: RawGate.headerSize, alignment: 16))
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
