/// A value given to a store with `provide(_:for:)` without a name, as the store keeps it until
/// something needs its registration: one allocation, the value boxed with where it was provided.
///
/// A store per request provides a few values and resolves them, and nothing else: for that, a
/// `Registration<T>` (an object, and a closure's context holding the value) is two allocations
/// more than the value needs, and twice the work to make and to free. So the registry keeps the
/// box (`Registry.providedValues`) and a resolve hands its value out, as it hands out a kept
/// instance. Everything else that reads registrations (a lookup by type and name, the listing,
/// `verify()`, a removal, a registration that replaces it, a decorator or an observer that must
/// see a build) first turns the box into the `Registration<T>` that `provide` would have made
/// (`registration()`), which takes the box's place for good: from then on the value is a
/// registration like any other. The box's `valueType` is the registration's type.
///
/// Like `InstanceBox`, a class that is not generic, with the value inline after the header, so
/// that neither making one nor reading it looks up generic metadata at run time.
final class ProvidedValue: ManagedBuffer<ProvidedValue.Header, UInt64> {
    struct Header {
        /// Where the value is, in the room after the header.
        var value: UnsafeMutableRawPointer?
        /// The type the value was provided for: the registration's type.
        let valueType: Any.Type
        /// Where `provide` was called.
        let location: SourceLocation
        // No assembly: a value provided while one is applied gets its registration at once,
        // which `unload` finds, so the header holds nothing to retain or release but the value.
    }

    /// Boxes `value`, provided for `T` at `location`.
    static func make<T>(_ value: T, location: SourceLocation) -> ProvidedValue {
        let box = unsafeDowncast(
            create(minimumCapacity: InstanceBox.roomInWords(for: T.self)) { _ in
                Header(value: nil, valueType: T.self, location: location)
            },
            to: ProvidedValue.self)
        // Pointers first, then the value placed: see `OnceCell.publish`.
        let (header, words) = box.withUnsafeMutablePointers { ($0, $1) }
        header.pointee.value = placeValue(value, in: words)
        return box
    }

    /// The value, which must have been provided as a `T`.
    @inline(__always)
    func value<T>(as type: T.Type) -> T {
        withUnsafeMutablePointerToHeader { $0.pointee.value.unsafelyUnwrapped }.assumingMemoryBound(to: T.self).pointee
    }

    /// The registration `provide` makes for this value: what takes the box's place in the registry.
    func registration() -> AnyRegistration {
        let header = withUnsafeMutablePointerToHeader { $0.pointee }
        return makeRegistration(header.valueType, header: header)
    }

    /// `registration()`, with the value's type opened.
    private func makeRegistration<T>(_ type: T.Type, header: Header) -> AnyRegistration {
        Registration<T>(providing: value(as: T.self), name: nil, location: header.location, assembly: nil)
    }

    deinit {
        withUnsafeMutablePointerToHeader { header in
            destroyValue(of: header.pointee.valueType, at: header.pointee.value.unsafelyUnwrapped)
        }
    }
}

/// A registry's values provided without a name and not yet turned into registrations, by
/// `ObjectIdentifier` of their type: the first two in the registry itself, any more in a table.
/// A store per request provides a value or two, so it allocates nothing here.
struct ProvidedValues {
    private var firstKey: UInt = 0
    private var first: ProvidedValue?
    private var secondKey: UInt = 0
    private var second: ProvidedValue?
    private var more = TypeTable<ProvidedValue>()

    /// Whether no value is here: what every lookup that finds no registration asks.
    var isEmpty: Bool {
        @inline(__always) get { first == nil && second == nil && more.isEmpty }
    }

    func contains(_ key: ObjectIdentifier) -> Bool {
        self[key] != nil
    }

    /// The value provided for `key`, if any; setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> ProvidedValue? {
        get {
            let bits = UInt(bitPattern: key)
            if firstKey == bits, let first { return first }
            if secondKey == bits, let second { return second }
            return more[key]
        }
        set {
            let bits = UInt(bitPattern: key)
            if first != nil, firstKey == bits {
                first = newValue
            } else if second != nil, secondKey == bits {
                second = newValue
            } else if more.contains(key) {
                more[key] = newValue
            } else if let newValue {
                if first == nil {
                    (firstKey, first) = (bits, newValue)
                } else if second == nil {
                    (secondKey, second) = (bits, newValue)
                } else {
                    more[key] = newValue
                }
            }
        }
    }

    /// Every value, in no particular order.
    var values: [ProvidedValue] {
        [first, second].compactMap { $0 } + more.values
    }
}
