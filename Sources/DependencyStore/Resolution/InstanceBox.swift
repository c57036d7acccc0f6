/// A built instance, boxed so that a slot can hold an instance of any type without being generic.
///
/// The value lives behind a raw pointer in this non-generic base, so reading it as a `T` needs
/// only `T`, which the resolve has at hand: reading a field of a generic class (`Box<T>.value`)
/// from code that is not specialised would look up `Box<T>`'s metadata at run time first, which
/// costs as much as the rest of the resolve of a built singleton.
class InstanceBox {
    let value: UnsafeMutableRawPointer

    fileprivate init(value: UnsafeMutableRawPointer) {
        self.value = value
    }

    /// Boxes `value`.
    static func make<T>(_ value: T) -> InstanceBox {
        TypedInstanceBox(value)
    }

    /// The value, which must have been boxed as a `T`.
    @inline(__always)
    func value<T>(as type: T.Type) -> T {
        value.assumingMemoryBound(to: T.self).pointee
    }
}

/// The subclass that knows the type, to destroy the value with the box.
private final class TypedInstanceBox<T>: InstanceBox {
    init(_ value: T) {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        super.init(value: UnsafeMutableRawPointer(pointer))
    }

    deinit {
        let pointer = value.assumingMemoryBound(to: T.self)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
