internal import DependencyStoreAtomics

/// A value written once and then read by any thread without a lock: how an injected property
/// returns its value after the first read.
///
/// The value is copied into memory of its own, and the pointer to it is published with a release
/// store; a reader that loads the pointer with acquire sees the whole value. Nothing writes the
/// value again, so reading it needs no lock. Not generic, so a reader needs only the value's
/// type, which it has: see `InstanceBox` for why that matters.
final class PublishedSlot {
    private let cell: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Destroys the published value; set before it is published, read only by `deinit`.
    private var destroy: ((UnsafeMutableRawPointer) -> Void)?

    init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: nil)
    }

    deinit {
        if let value = cell.pointee { destroy?(value) }
        cell.deallocate()
    }

    /// The published value's address, or `nil` while nothing is published.
    @inline(__always)
    var published: UnsafeMutableRawPointer? {
        dependency_store_load_acquire(cell)
    }

    /// Publishes `value`. Call once, from the one thread that resolved it.
    func publish<T>(_ value: T) {
        precondition(cell.pointee == nil, "DependencyStore: an injected value was published twice")
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        destroy = { raw in
            let typed = raw.assumingMemoryBound(to: T.self)
            typed.deinitialize(count: 1)
            typed.deallocate()
        }
        dependency_store_store_release(cell, UnsafeMutableRawPointer(pointer))
    }
}
