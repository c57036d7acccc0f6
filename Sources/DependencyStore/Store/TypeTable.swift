/// Values by the `ObjectIdentifier` of a type: a store's registrations without a name (the table
/// the common resolve reads, under the store's lock), and the instances a store shares with
/// layered stores (`SharedInstances`, read without it).
///
/// A `Dictionary` would hash each key with SipHash, about 90 instructions a lookup, and a request
/// that reads four dependencies through its own store and the app's looks up eight times. The keys
/// here are addresses of type metadata, distinct and stable, so a multiplication spreads them well
/// enough: open addressing, linear probing, a power-of-two capacity at most half full, and
/// deletion by shifting back the entries after the removed one (no tombstones). An empty table
/// allocates nothing; the first entry allocates room for four.
///
/// A value type with copy-on-write storage, as a dictionary is: `all` and a listing copy it. The
/// storage holds its values as `AnyObject` and is not generic, so that neither a table's release
/// nor a copy looks up generic metadata at run time; the table casts back with no check, since
/// it only ever stores `Value`s.
struct TypeTable<Value: AnyObject> {
    private var storage: TypeTableStorage?

    /// How many registrations the table holds.
    var count: Int { storage?.counts.count ?? 0 }

    var isEmpty: Bool { count == 0 }

    /// The value for `key`, if any; setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> Value? {
        @inline(__always)
        get {
            guard let storage else { return nil }
            return storage.find(key).map { unsafeDowncast($0, to: Value.self) }
        }
        set {
            if let newValue {
                makeUniqueWithRoom()
                storage.unsafelyUnwrapped.insert(newValue, bits: UInt(bitPattern: key))
            } else if storage?.find(key) != nil {
                makeUnique()
                storage.unsafelyUnwrapped.remove(key)
            }
        }
    }

    /// `body` on the value for `key`, found without retaining it; `nil` when there is none.
    @inline(__always)
    func withUnretained<R>(_ key: ObjectIdentifier, _ body: (Value) -> R) -> R? {
        guard let storage, let found = storage.findUnretained(key) else { return nil }
        return found._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: Value.self)) }
    }

    /// Whether there is a value for `key`, found without retaining it.
    @inline(__always)
    func contains(_ key: ObjectIdentifier) -> Bool {
        storage?.contains(key) ?? false
    }

    /// Calls `body` with every value, in no particular order.
    func forEach(_ body: (Value) throws -> Void) rethrows {
        try storage?.visit { try body(unsafeDowncast($0, to: Value.self)) }
    }

    /// Every value, in no particular order.
    var values: [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        forEach { values.append($0) }
        return values
    }

    /// Storage of its own, for a mutation.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.map { $0.copy(capacity: $0.counts.capacity) }
        }
    }

    /// Storage of its own with room for one more entry while staying at most half full.
    private mutating func makeUniqueWithRoom() {
        // Asked before anything else holds the storage: a second reference makes it look shared.
        let unique = isKnownUniquelyReferenced(&storage)
        guard let current = storage else {
            storage = TypeTableStorage.make(capacity: 4)
            return
        }
        let (count, capacity) = current.counts
        if (count + 1) * 2 > capacity {
            storage = current.copy(capacity: capacity * 2)
        } else if !unique {
            storage = current.copy(capacity: capacity)
        }
    }
}

/// One entry: the key's bits (0 for none) and the value.
struct TypeTableEntry {
    var key: UInt
    var value: AnyObject?
}

/// The header of a `TypeTable`'s storage.
struct TypeTableHeader {
    var count: Int
    /// A power of two.
    let capacity: Int
    /// `64 - log2(capacity)`: how far the product is shifted to give an index.
    let shift: UInt
}

/// The storage of a `TypeTable`: a header, then `capacity` entries.
final class TypeTableStorage: ManagedBuffer<TypeTableHeader, TypeTableEntry> {
    static func make(capacity: Int) -> TypeTableStorage {
        let shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        let buffer = create(minimumCapacity: capacity) { _ in
            TypeTableHeader(count: 0, capacity: capacity, shift: shift)
        }
        let storage = unsafeDowncast(buffer, to: TypeTableStorage.self)
        storage.withUnsafeMutablePointerToElements {
            $0.initialize(repeating: TypeTableEntry(key: 0, value: nil), count: capacity)
        }
        return storage
    }

    /// The count and the capacity, read through the header's address: reading `header` itself,
    /// a stored property of `ManagedBuffer`, would take a run-time exclusivity check.
    @inline(__always)
    var counts: (count: Int, capacity: Int) {
        withUnsafeMutablePointerToHeader { ($0.pointee.count, $0.pointee.capacity) }
    }

    deinit {
        // Entry by entry rather than `deinitialize(count:)`, which goes through the runtime's
        // generic array destroy: a store per request's table of two values ends here.
        withUnsafeMutablePointers { header, entries in
            for index in 0..<header.pointee.capacity where entries[index].key != 0 {
                entries[index].value = nil
            }
        }
    }

    /// Where the search for `key` starts: Fibonacci hashing, the top bits of a product with the
    /// golden ratio, which spreads addresses whose low bits are all zero.
    @inline(__always)
    private static func home(of key: UInt, shift: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    @inline(__always)
    func find(_ key: ObjectIdentifier) -> AnyObject? {
        // The probe written out rather than through `index(of:)`: the resolve of a built
        // singleton runs it, and the shared helper costs it about 9 instructions.
        let bits = UInt(bitPattern: key)
        return withUnsafeMutablePointers { header, entries in
            let mask = header.pointee.capacity &- 1
            var index = Self.home(of: bits, shift: header.pointee.shift)
            while true {
                let entry = entries + index
                if entry.pointee.key == bits { return entry.pointee.value }
                if entry.pointee.key == 0 { return nil }
                index = (index &+ 1) & mask
            }
        }
    }

    /// `find`, without retaining what it finds: valid while the storage holds it.
    @inline(__always)
    func findUnretained(_ key: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        let bits = UInt(bitPattern: key)
        return withUnsafeMutablePointers { header, entries in
            let index = Self.index(of: bits, in: header, entries)
            guard index >= 0 else { return nil }
            return entries[index].value.map { Unmanaged.passUnretained($0) }
        }
    }

    @inline(__always)
    func contains(_ key: ObjectIdentifier) -> Bool {
        withUnsafeMutablePointers { header, entries in
            Self.index(of: UInt(bitPattern: key), in: header, entries) >= 0
        }
    }

    /// Where the entry for `bits` is, or -1: linear probing from its home to it or to a free entry.
    @inline(__always)
    private static func index(
        of bits: UInt, in header: UnsafeMutablePointer<TypeTableHeader>, _ entries: UnsafeMutablePointer<TypeTableEntry>
    ) -> Int {
        let mask = header.pointee.capacity &- 1
        var index = home(of: bits, shift: header.pointee.shift)
        while true {
            let key = entries[index].key
            if key == bits { return index }
            if key == 0 { return -1 }
            index = (index &+ 1) & mask
        }
    }

    /// Adds or replaces the entry for the key whose bits are `bits`. The table must have room (see
    /// `TypeTable`).
    func insert(_ value: AnyObject, bits: UInt) {
        withUnsafeMutablePointers { header, entries in
            let mask = header.pointee.capacity &- 1
            var index = Self.home(of: bits, shift: header.pointee.shift)
            while entries[index].key != 0, entries[index].key != bits {
                index = (index &+ 1) & mask
            }
            if entries[index].key == 0 { header.pointee.count += 1 }
            entries[index] = TypeTableEntry(key: bits, value: value)
        }
    }

    /// Removes the entry for `key`, which must be there, and shifts back the entries that
    /// probed past it, so that every search still finds what it looks for.
    func remove(_ key: ObjectIdentifier) {
        let bits = UInt(bitPattern: key)
        withUnsafeMutablePointers { header, entries in
            let mask = header.pointee.capacity &- 1
            let shift = header.pointee.shift
            var hole = Self.home(of: bits, shift: shift)
            while entries[hole].key != bits { hole = (hole &+ 1) & mask }
            var next = (hole &+ 1) & mask
            while entries[next].key != 0 {
                let home = Self.home(of: entries[next].key, shift: shift)
                // The entry may move into the hole when its home is not in (hole, next]: its
                // search passes the hole on the way to it.
                let distanceToNext = (next &- home) & mask
                let distanceToHole = (hole &- home) & mask
                if distanceToHole < distanceToNext {
                    entries[hole] = entries[next]
                    hole = next
                }
                next = (next &+ 1) & mask
            }
            entries[hole] = TypeTableEntry(key: 0, value: nil)
            header.pointee.count -= 1
        }
    }

    /// Calls `body` with every value, in no particular order.
    func visit(_ body: (AnyObject) throws -> Void) rethrows {
        try withUnsafeMutablePointers { header, entries in
            for index in 0..<header.pointee.capacity {
                if let value = entries[index].value { try body(value) }
            }
        }
    }

    /// A copy with `capacity` entries, at least twice the count.
    func copy(capacity: Int) -> TypeTableStorage {
        let copy = TypeTableStorage.make(capacity: capacity)
        withUnsafeMutablePointers { header, entries in
            for index in 0..<header.pointee.capacity {
                if let value = entries[index].value {
                    copy.insert(value, bits: entries[index].key)
                }
            }
        }
        return copy
    }
}
