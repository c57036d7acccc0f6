/// A built instance, boxed so that a slot can hold an instance of any type without being generic.
///
/// One allocation, of a class that is not generic: the value's type in the header, the value
/// inline after it, at the first address its alignment allows. Reading it as a `T` needs only
/// `T`, which the resolve has at hand; a generic box (`Box<T>`) would make code that is not
/// specialised look up `Box<T>`'s metadata at run time, to make one or to read it, which costs as
/// much as the rest of the resolve of a built singleton.
final class InstanceBox: ManagedBuffer<InstanceBox.Header, UInt64> {
    struct Header {
        /// Where the value is, in the room after the header: one load for a resolve to find it.
        var value: UnsafeMutableRawPointer?
        /// The type of the value, to destroy it with the box.
        let valueType: Any.Type
    }

    /// Boxes `value`.
    static func make<T>(_ value: T) -> InstanceBox {
        let box = unsafeDowncast(
            create(minimumCapacity: OnceCell<T>.roomInWords) { _ in Header(value: nil, valueType: T.self) },
            to: InstanceBox.self)
        // Pointers first, then the value placed: see `OnceCell.publish`.
        let (header, words) = box.withUnsafeMutablePointers { ($0, $1) }
        header.pointee.value = placeValue(value, in: words)
        return box
    }

    /// The value, which must have been boxed as a `T`.
    @inline(__always)
    func value<T>(as type: T.Type) -> T {
        valueAddress.assumingMemoryBound(to: T.self).pointee
    }

    /// Where the value is.
    @inline(__always)
    var valueAddress: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToHeader { $0.pointee.value.unsafelyUnwrapped }
    }

    deinit {
        withUnsafeMutablePointerToHeader { header in
            destroyValue(of: header.pointee.valueType, at: header.pointee.value.unsafelyUnwrapped)
        }
    }
}

/// The first address at or after `words` aligned to `alignment`: where a box of words keeps a
/// value (`InstanceBox`, `OnceStorage`, whose `OnceCell.valueSlot` the caller's module inlines).
@inlinable @inline(__always)
func alignedAddress(_ words: UnsafeMutablePointer<UInt64>, alignment: Int) -> UnsafeMutableRawPointer {
    let mask = UInt(alignment - 1)
    return UnsafeMutableRawPointer(bitPattern: (UInt(bitPattern: words) + mask) & ~mask).unsafelyUnwrapped
}

/// Initialises `value` in the words after a box's header, at the first address its alignment
/// allows, and returns that address: where `InstanceBox`, `ProvidedValue` and `OnceCell` keep
/// their value, in room that `OnceCell.roomInWords` counted.
@inline(__always)
func placeValue<T>(_ value: T, in words: UnsafeMutablePointer<UInt64>) -> UnsafeMutableRawPointer {
    let address = alignedAddress(words, alignment: MemoryLayout<T>.alignment)
    // One copy of one value: not `initializeMemory(as:repeating:count:)`, whose loop unspecialised
    // code runs through the runtime's array copy.
    address.bindMemory(to: T.self, capacity: 1).initialize(to: value)
    return address
}

/// How a value kept where only its metatype is known is destroyed: told where the value's type is
/// known (`of(_:)`), in code specialised for it, so that the common values need not go through
/// the type's witnesses (`destroyValue`, about 45 instructions a value).
@usableFromInline
enum ValueDestruction: UInt8 {
    /// Nothing to do: a trivial value (an integer, a struct of them).
    case none
    /// Release the one strong reference the value is: an instance of a class.
    case release
    /// Destroy it through its type (`destroyValue`): anything else, an existential included.
    case generic

    /// How a `T` is destroyed. A constant where `T` is known.
    @inlinable
    static func of<T>(_: T.Type) -> ValueDestruction {
        if _isPOD(T.self) { return .none }
        if T.self is AnyObject.Type { return .release }
        return .generic
    }

    /// Destroys the value of type `type` at `address` this way.
    @inline(__always)
    func destroy(_ type: Any.Type, at address: UnsafeMutableRawPointer) {
        switch self {
        case .none: break
        case .release: Unmanaged<AnyObject>.fromOpaque(address.load(as: UnsafeRawPointer.self)).release()
        case .generic: destroyValue(of: type, at: address)
        }
    }
}

/// Destroys the `Value` at `address`: for a box that knows the value's type only as a metatype.
func destroyValue<Value>(of type: Value.Type, at address: UnsafeMutableRawPointer) {
    // Moved out and dropped: one call of the type's destroy, where `deinitialize(count: 1)` goes
    // through the runtime's array destroy (about 55 instructions more a value, unspecialised).
    _ = address.assumingMemoryBound(to: Value.self).move()
}
