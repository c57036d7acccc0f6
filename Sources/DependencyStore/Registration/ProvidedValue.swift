internal import DependencyStoreAtomics

/// A value given to a store with `provide(_:for:)` without a name, as the store keeps it until
/// something needs its registration, when no room of the store's core takes it
/// (`ProvidedValueRoom`: the value is too wide, or the rooms are taken): one allocation, the value
/// boxed with where it was provided.
///
/// A store per request provides a few values and resolves them, and nothing else: for that, a
/// `Registration<T>` (an object, and a closure's context holding the value) is two allocations
/// more than the value needs, and twice the work to make and to free. So the registry keeps the
/// value in a room or this box (`Registry.providedValues`) and a resolve hands it out, as it hands
/// out a kept instance. Everything else that reads registrations (a lookup by type and name, the
/// listing, `verify()`, a removal, a registration that replaces it, a decorator or an observer
/// that must see a build) first turns the value into the `Registration<T>` that `provide` would
/// have made (`ProvidedValues.takeRegistration`), which takes its place for good: from then on
/// the value is a registration like any other. The box's `valueType` is the registration's type.
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
            create(minimumCapacity: OnceCell<T>.roomInWords) { _ in
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
        makeRegistration(header.valueType)
    }

    /// `registration()`, with the value's type opened.
    private func makeRegistration<T>(_ type: T.Type) -> AnyRegistration {
        Registration<T>(providing: value(as: T.self), name: nil, location: header.location, assembly: nil)
    }

    deinit {
        withUnsafeMutablePointerToHeader { header in
            destroyValue(of: header.pointee.valueType, at: header.pointee.value.unsafelyUnwrapped)
        }
    }
}

/// Room for one value provided without a name, in the allocation of the store's core (see
/// `StoreCore.make`): the value's words first, then this record of the room, which says whose the
/// value is (the key of the type it was provided for, 0 while the room is free) and where
/// `provide` was called. The value's words are bound to the value's type while it is there and
/// the record's to this type for as long as the core lives: no memory is read as two types. A
/// store per request provides a value or two: in rooms, they cost no allocation at all, where a
/// `ProvidedValue` box costs one each, with its free at the store's end (about 300 instructions
/// a value).
///
/// A room's value may be read only under the store's lock, since a removal or the turn into a
/// registration moves it out under that lock: a resolve copies it out before it lets go (see
/// `DependencyStore.Lookup.valueUnderLock`). The core's `deinit` destroys what is still there.
@usableFromInline
struct ProvidedValueRoom {
    /// `ObjectIdentifier` of the type the value was provided for, as bits; 0 for a free room.
    var key: UInt
    /// Where `provide` was called.
    var location: SourceLocation
    /// How the value is destroyed at the core's end, if it is still here.
    var destruction: ValueDestruction

    /// How many rooms a core has: as many as a request usually provides values.
    static var count: Int { 2 }

    /// How many bytes a value may take: five words, so that an existential fits, and most values
    /// a request provides.
    @inlinable
    static var valueBytes: Int { 5 * MemoryLayout<Int>.stride }

    /// How many words a room takes, its value's and its record's: what `StoreCore.make` asks for.
    static var words: Int {
        (valueBytes + MemoryLayout<ProvidedValueRoom>.stride) / MemoryLayout<Int>.stride
    }

    /// Whether a `T` fits a room: its size and alignment. A constant wherever `T` is known.
    @inlinable
    static func fits<T>(_: T.Type) -> Bool {
        MemoryLayout<T>.size <= valueBytes && MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment
    }

    /// Binds the records of the `count` rooms from `rooms` on, when the core is made. The words
    /// were made as zeroed integers: a record of zeros is a free room (key 0), whose location is
    /// read only once `ProvidedValues.reserveRoom` has set it. Both types are trivial, so the bits stay as they are.
    static func bindRooms(at rooms: UnsafeMutablePointer<Int>) {
        for index in 0..<count {
            _ = (Room(rooms, at: index).valueAddress + valueBytes).bindMemory(to: ProvidedValueRoom.self, capacity: 1)
        }
    }

    /// The type the value was provided for. The room must be in use.
    var type: Any.Type { unsafeBitCast(key, to: Any.Type.self) }
}

/// One room, by the address of its first word (see `ProvidedValueRoom`).
struct Room {
    let words: UnsafeMutablePointer<Int>

    /// The room `index` of those from `rooms` on.
    @inline(__always)
    init(_ rooms: UnsafeMutablePointer<Int>, at index: Int) {
        words = rooms + index * ProvidedValueRoom.words
    }

    /// The room whose value is at `valueAddress`.
    @inline(__always)
    init(valueAddress: UnsafeMutableRawPointer) {
        words = valueAddress.assumingMemoryBound(to: Int.self)
    }

    /// The room's value, bound to its type while the room is in use.
    @inline(__always)
    var valueAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(words) }

    /// The room's record, after the value's words.
    @inline(__always)
    var record: UnsafeMutablePointer<ProvidedValueRoom> {
        (UnsafeMutableRawPointer(words) + ProvidedValueRoom.valueBytes).assumingMemoryBound(
            to: ProvidedValueRoom.self)
    }

    /// Moves the value out into the registration `provide` would have made for it, and frees the
    /// room. The room must be in use.
    func takeRegistration() -> AnyRegistration {
        let registration = makeRegistration(record.pointee.type)
        record.pointee.key = 0
        return registration
    }

    /// `takeRegistration()`, with the value's type opened.
    private func makeRegistration<T>(_ type: T.Type) -> AnyRegistration {
        Registration<T>(
            providing: valueAddress.assumingMemoryBound(to: T.self).move(), name: nil,
            location: record.pointee.location, assembly: nil)
    }

    /// Destroys the value, if the room is in use, and frees the room: at the core's end.
    func dropValue() {
        guard isInUse else { return }
        record.pointee.destruction.destroy(record.pointee.type, at: valueAddress)
        record.pointee.key = 0
    }

    /// Whether a value is in the room.
    @inline(__always)
    var isInUse: Bool { record.pointee.key != 0 }
}

/// A registry's values provided without a name and not yet turned into registrations, by
/// `ObjectIdentifier` of their type: in the core's rooms (`ProvidedValueRoom`) while they fit
/// and there is one free, in `ProvidedValue` boxes in a table otherwise. A type is in one place
/// at most. Only ever touched under the store's lock.
struct ProvidedValues {
    /// The first word of the core's rooms.
    private let rooms: UnsafeMutablePointer<Int>
    /// The core's filter of the types whose values went into rooms (`StoreCore.providedFilter`).
    private let filter: UnsafeMutablePointer<dependency_store_atomic_word>
    /// How many rooms are in use: what `isEmpty` reads, without reading the rooms.
    private(set) var roomsInUse = 0
    private var boxes = TypeTable<ProvidedValue>()

    init(rooms: UnsafeMutablePointer<Int>, filter: UnsafeMutablePointer<dependency_store_atomic_word>) {
        self.rooms = rooms
        self.filter = filter
    }

    /// The bit of `key` in the filter: one of 64, by a multiplicative hash of the type's address.
    @inline(__always)
    static func filterBit(of key: ObjectIdentifier) -> Int {
        let hash = UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15
        return 1 << Int(hash >> (UInt(Int.bitWidth) - 6))
    }

    /// Whether no value is here: what every lookup that finds no registration asks.
    var isEmpty: Bool {
        @inline(__always) get { roomsInUse == 0 && boxes.isEmpty }
    }

    /// Where the value provided for `key` is.
    enum Place {
        case room(Room)
        case box(ProvidedValue)
    }

    /// The room of the value provided for `key`, if it is in one.
    @inline(__always)
    private func room(of key: ObjectIdentifier) -> Room? {
        guard roomsInUse != 0 else { return nil }
        return firstRoom { $0.record.pointee.key == UInt(bitPattern: key) }
    }

    /// The first room `matching` picks, if any.
    @inline(__always)
    private func firstRoom(_ matching: (Room) -> Bool) -> Room? {
        for index in 0..<ProvidedValueRoom.count {
            let room = Room(rooms, at: index)
            if matching(room) { return room }
        }
        return nil
    }

    /// Where the value provided for `key` is, if any.
    @inline(__always)
    func place(of key: ObjectIdentifier) -> Place? {
        if let room = room(of: key) { return .room(room) }
        return boxes[key].map(Place.box)
    }

    @inline(__always)
    func contains(_ key: ObjectIdentifier) -> Bool {
        room(of: key) != nil || boxes.contains(key)
    }

    /// Adds `box`, the value provided for `key`, which takes no room. Nothing may be provided for
    /// `key` yet.
    mutating func add(_ box: ProvidedValue, for key: ObjectIdentifier) {
        boxes[key] = box
    }

    /// A free room, which from now on says it holds a value provided at `location`, destroyed by
    /// `destruction`, or `nil` when none is free. The caller places the value there (at
    /// `Room.valueAddress`), then calls `fill`, under the same hold of the store's lock.
    @inline(__always)
    func reserveRoom(at location: SourceLocation, destruction: ValueDestruction) -> Room? {
        guard roomsInUse < ProvidedValueRoom.count, let room = firstRoom({ !$0.isInUse }) else { return nil }
        room.record.pointee.location = location
        room.record.pointee.destruction = destruction
        return room
    }

    /// Counts `room`, reserved and holding its value, as the place of the value provided for `key`.
    @inline(__always)
    mutating func fill(_ room: Room, for key: ObjectIdentifier) {
        room.record.pointee.key = UInt(bitPattern: key)
        roomsInUse += 1
        dependency_store_or(filter, Self.filterBit(of: key))
    }

    /// Takes the value provided for `key`, if any, out of its place, as the registration `provide`
    /// would have made for it: what then takes its place in the registry.
    mutating func takeRegistration(_ key: ObjectIdentifier) -> AnyRegistration? {
        if let room = room(of: key) {
            roomsInUse -= 1
            return room.takeRegistration()
        }
        guard let box = boxes[key] else { return nil }
        boxes[key] = nil
        return box.registration()
    }

    /// The keys of every value, in no particular order.
    var keys: [ObjectIdentifier] {
        var keys = boxes.values.map { ObjectIdentifier($0.header.valueType) }
        guard roomsInUse != 0 else { return keys }
        for index in 0..<ProvidedValueRoom.count {
            let room = Room(rooms, at: index)
            if room.isInUse { keys.append(ObjectIdentifier(room.record.pointee.type)) }
        }
        return keys
    }

    /// Destroys the values still in rooms: at the core's end, when nothing else holds it.
    mutating func dropValues() {
        guard roomsInUse != 0 else { return }
        for index in 0..<ProvidedValueRoom.count { Room(rooms, at: index).dropValue() }
        roomsInUse = 0
    }
}
