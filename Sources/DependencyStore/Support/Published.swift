/// An object published through an atomic address (a store's table of shared instances, the
/// removals' list of batches): retained once when it is published, read by address under a
/// reader's hazard, and released once nobody can read it any more. The one place those addresses
/// turn back into objects.
enum Published<Object: AnyObject> {
    /// The address of `object`, retained: what publishing it holds.
    @inline(__always)
    static func retained(_ object: Object) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(object).toOpaque()
    }

    /// The object at `address`: its publishing holds it, and the caller's hazard, lock or list
    /// keeps that from being released while the caller uses it.
    @inline(__always)
    static func at(_ address: UnsafeMutableRawPointer) -> Object {
        Unmanaged<Object>.fromOpaque(address).takeUnretainedValue()
    }

    /// The object at `address`, borrowed for `body`, with no retain: its publishing holds it, and
    /// the caller's hazard, lock or list keeps that from being released meanwhile.
    @inline(__always)
    static func borrow<R>(_ address: UnsafeMutableRawPointer, _ body: (Object) -> R) -> R {
        Unmanaged<Object>.fromOpaque(address)._withUnsafeGuaranteedRef(body)
    }

    /// Lets go of what publishing the object at `address` retained.
    @inline(__always)
    static func release(_ address: UnsafeMutableRawPointer) {
        Unmanaged<Object>.fromOpaque(address).release()
    }
}
