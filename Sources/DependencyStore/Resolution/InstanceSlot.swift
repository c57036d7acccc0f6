/// Where a store keeps the instance of a ``Scope/singleton``, ``Scope/weak`` or custom-scoped
/// registration.
///
/// `box`, `object` and `generation` are guarded by the lock of the store that owns the slot;
/// `gate` is held by the one thread building the instance, so that others asking at the same
/// time wait for it instead of building their own.
final class InstanceSlot: @unchecked Sendable {
    let gate = Gate()
    /// The instance of a `.singleton` or custom scope, in an `InstanceBox`.
    var box: AnyObject?
    /// The instance of a `.weak` scope: the object itself, held weakly.
    weak var object: AnyObject?
    /// Bumped by every reset, so a build that was running during a reset does not cache its
    /// result afterwards.
    var generation = 0
    /// The build of an `async` (or main-actor) registration that `resolveAsync` callers are
    /// awaiting, so that it runs once however many tasks ask first.
    var inFlight: AsyncBuild?

    /// What the slot keeps: the box, or the weakly held object. Call with the owning store's lock
    /// held.
    @inline(__always)
    var kept: AnyObject? { box ?? object }

    /// Forgets the instance and returns what the slot held strongly, for the caller to release
    /// once it has dropped the store's lock (a `deinit` may resolve from the store). Call with the
    /// owning store's lock held.
    func discard() -> AnyObject? {
        let released = box
        box = nil
        object = nil
        generation &+= 1
        return released
    }
}
