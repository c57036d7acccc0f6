internal import DependencyStoreAtomics

/// A value written once and then read by any thread without a lock, with the gate its one writer
/// holds and what its first read resolves with, all in one allocation: how an injected property
/// (``Injected``, ``OptionalInjected``, and so `Lazy`) keeps its value.
///
/// The allocation is a `OnceStorage`: its header holds the binding, name and requester of the first
/// read; its elements hold the gate (a C struct with atomic fields; see `RawGate`), then the
/// value's room, then the name if there is one. The header holds no word another thread writes, so
/// no read of a header field can race the gate. The value is initialised in place and its address
/// published with a release store; a reader that loads the address with acquire sees the whole
/// value. Nothing writes it again: a set (`set(_:wrapper:declaring:)`) publishes another address,
/// and keeps every value it replaced until the storage goes.
///
/// The cell is a struct of two words: the storage, which owns everything, and the gate's address
/// in it, so that a read (`gate.published`) is one non-generic load, as it was when the gate had
/// an allocation of its own.
@usableFromInline
struct OnceCell<Value> {
    @usableFromInline let gate: RawGate
    @usableFromInline let storage: OnceStorage

    /// Allocates a cell whose first read resolves with `binding`, `name` and `requester`.
    init(binding: consuming InjectedBinding, name: String?, requester: Requester) {
        (storage, gate) = OnceStorage.make(
            binding: binding, name: name, requester: requester, valueType: Value.self,
            destruction: .generic, words: Self.roomInWords)
    }

    /// The cell of an `@Injected` (or, with `optional`, an `@OptionalInjected`) property being
    /// created now: bound as `InjectedBinding.forPropertyBeingCreated()` binds, and declared to
    /// the verification copy it is created in, if it is. Inlined into the property's initialiser,
    /// which the caller's module specialises: the value's room is a constant there, and the rest
    /// is one call of a function that is not generic (see `OnceStorage.makeForPropertyBeingCreated`).
    @inlinable
    init(
        propertyDeclaredAt fileID: StaticString, line: UInt, name: String?, declaring declared: Any.Type, optional: Bool
    ) {
        // Almost every property has no name: its call passes none (`name` is a constant here).
        if let name {
            (storage, gate) = OnceStorage.makeForPropertyBeingCreated(
                valueType: Value.self, destruction: .of(Value.self), words: Self.roomInWords, declaring: declared,
                optional: optional, name: name, fileID: fileID, line: line)
        } else {
            (storage, gate) = OnceStorage.makeForPropertyBeingCreated(
                valueType: Value.self, destruction: .of(Value.self), words: Self.roomInWords, declaring: declared,
                optional: optional, fileID: fileID, line: line)
        }
    }

    /// Where the storage keeps a `Value`: the first address its alignment allows in the
    /// elements (see `placeValue`).
    @inlinable
    var valueSlot: UnsafeMutableRawPointer {
        alignedAddress(storage.valueRoom, alignment: MemoryLayout<Value>.alignment)
    }

    /// `valueSlot`, for a first read that found its value (`OnceStorage.beginFirstRead(of:)`),
    /// which carries the room: no call into the library for it.
    @inlinable
    func valueSlot(for read: FirstRead) -> UnsafeMutableRawPointer {
        alignedAddress(read.room.unsafelyUnwrapped, alignment: MemoryLayout<Value>.alignment)
    }

    /// How many words of the storage's elements a `Value` takes: its size, with enough over for an
    /// alignment above the words'. A constant wherever `Value` is known.
    @inlinable
    static var roomInWords: Int {
        let alignment = MemoryLayout<Value>.alignment
        let bytes = MemoryLayout<Value>.size + max(0, alignment - MemoryLayout<UInt64>.alignment)
        return (bytes + MemoryLayout<UInt64>.stride - 1) / MemoryLayout<UInt64>.stride
    }

    /// The header: what the first read resolves with, read in place. Valid while the cell is,
    /// which holds the storage. `binding` is read and cleared only inside `gate`.
    var header: UnsafeMutablePointer<OnceHeader> {
        storage.withUnsafeMutablePointerToHeader { $0 }
    }

    /// The store the first read resolves from, before it has: what verification records the
    /// property's edge in.
    var bindingStore: DependencyStore { header.pointee.binding.store }

    /// The name the property resolves by.
    var name: String? { OnceHeader.name(in: header) }

    /// Who resolves: the property on its first read, or the `Lazy` handle made of it.
    var requester: Requester { header.pointee.requester }

    /// Sets the property to `value`: what every later read returns (see ``Injected``'s setter).
    /// Inside the gate, so that a first read in flight publishes first; the first value goes to
    /// the room, each later one to an allocation of its own, since a reader without a lock may be
    /// copying the one it replaces. A set before the first read lets go of the store: the
    /// property never resolves. The binding is released after the gate is left: it may be the
    /// store's last owner, whose end runs closes.
    func set(_ value: Value, wrapper: String, declaring type: Any.Type) {
        let header = self.header
        enterGateToSet(
            gate, wrapper: wrapper, type: type, name: OnceHeader.name(in: header), requester: header.pointee.requester)
        let released: InjectedBinding
        if let published = gate.published {
            let replacement = SetValue(value)
            released = OnceHeader.keep(replacement, replacing: published, in: header)
            gate.replace(with: UnsafeMutableRawPointer(replacement.address))
        } else {
            released = OnceHeader.takeBindingForSet(in: header)
            publish(value)
        }
        gate.leave()
        withExtendedLifetime(released) {}
    }

    /// Publishes `value`. Call once, from the one thread inside the gate.
    func publish(_ value: Value) {
        // The words' address first, then the value placed there: a closure that captured the
        // value would be generic over it, and not inlined in code unspecialised for its type.
        let address = placeValue(value, in: storage.valueRoom)
        gate.publishOnce(address)
    }
}

/// How the first read of a property got on at its gate (`OnceHeader.enterGate`).
enum FirstReadEntry {
    /// This thread is inside this property's own resolution, and did not enter: the factory needs
    /// the value it is building. Waiting for the gate would deadlock; resolving again lets the
    /// store detect the cycle on this thread's chain and trap with the whole chain.
    case insideOwnResolution
    /// Another read published the value, at this address; the gate is left again.
    case published(UnsafeMutableRawPointer)
    /// Inside the gate, with nothing published: this read resolves, publishes, then leaves.
    case entered
}

/// What the first read of an `@Injected` property found (`OnceStorage.beginFirstRead(of:)`),
/// before it copies anything: the value's address, and what holds the value there until the read
/// has copied it (`OnceStorage.finishFirstRead(_:publishing:)`).
@usableFromInline
struct FirstRead {
    /// Where the value is, published or found; `nil` when the read resolves through the store
    /// instead (see `Injected.resolveFirstThroughTheStore(insideGate:)`).
    @usableFromInline let address: UnsafeRawPointer?
    /// Whether the value was found (and the read publishes a copy, and finishes), rather than
    /// published already by another read, which never changes and needs no finish: a found
    /// value comes back inside the gate, a published one outside it.
    @inlinable var found: Bool { address != nil && insideGate }
    /// For a read that resolves through the store: whether it holds the gate, which it leaves
    /// once it has published; `false` when this thread was inside this property's own
    /// resolution already (a cycle, which the store reports).
    @usableFromInline let insideGate: Bool
    /// For a found value: the storage's room for it, where the read places its copy (see
    /// `OnceCell.valueSlot(for:)`), found by the library, which knows where the gate ends.
    @usableFromInline var room: UnsafeMutablePointer<UInt64>?
    /// The thread's hazard, which holds a found instance a store shares (see
    /// `StoreCore.sharedInstanceValue`); `nil` for a value in a room of the store, which its lock
    /// holds.
    let hazard: UnsafeMutablePointer<dependency_store_atomic_address>?

    /// The read resolves through the store, inside the gate or, in a cycle, not.
    init(throughTheStoreInsideGate insideGate: Bool) {
        self.init(address: nil, insideGate: insideGate, hazard: nil)
    }

    /// Another read published `address`.
    init(published address: UnsafeRawPointer) {
        self.init(address: address, insideGate: false, hazard: nil)
    }

    /// Found at `address`, held by `hazard`, or by the store's lock when it is `nil`.
    init(found address: UnsafeRawPointer, hazard: UnsafeMutablePointer<dependency_store_atomic_address>?) {
        self.init(address: address, insideGate: true, hazard: hazard)
    }

    private init(
        address: UnsafeRawPointer?, insideGate: Bool, hazard: UnsafeMutablePointer<dependency_store_atomic_address>?
    ) {
        self.address = address
        self.insideGate = insideGate
        self.hazard = hazard
        room = nil
    }
}

/// The header of an injected property's one allocation.
@usableFromInline
struct OnceHeader {
    /// What the first read resolves from; read and cleared only inside the gate.
    var binding: InjectedBinding
    /// The store of a `.store` binding, unretained: what the first read resolves through. The
    /// binding holds the store until the read drops both; read from here, the store is not
    /// retained and released around the resolve, as a store read out of `binding` is (the
    /// optimiser cannot tell that the resolve leaves the header alone).
    var store: Unmanaged<DependencyStore>?
    /// The name, when there is one: kept after the value's room (see `OnceStorage.make`), so
    /// that a property without a name (almost all) neither retains nor releases one. A `String?`
    /// here cost about 40 instructions a property (a copy at its creation, a destroy at its end,
    /// two words more to write). Set once, as the storage is made.
    var nameAddress: UnsafeMutablePointer<String>?
    let requester: Requester
    /// The type of the value, to destroy it with the storage.
    let valueType: Any.Type
    /// How the value is destroyed with the storage.
    let destruction: ValueDestruction

    init(
        binding: consuming InjectedBinding, requester: Requester, valueType: Any.Type, destruction: ValueDestruction
    ) {
        // Read without a copy of the store: a copy's retain and release outlived the property's
        // creation in the optimised code, about 40 instructions a property.
        store = binding.unretainedStore
        self.binding = binding
        nameAddress = nil
        self.requester = requester
        self.valueType = valueType
        self.destruction = destruction
    }

    /// Forgets what the first read resolved from, once it has: the property holds nothing of the
    /// store any more, unless it was the store's last owner. Then it keeps the store for as long
    /// as it lives (`InjectedBinding.resolvedKeeping`): letting go would end the store here, and
    /// its end would close what it kept, the value this read hands out among them, before the
    /// caller had it (`let model = store.execute { Model() }` with `store` gone). Only the read
    /// inside the gate calls this, after its resolve: a read inside the property's own resolution
    /// (an observer's) leaves the binding to it.
    ///
    /// Field by field, through the pointer, each a read or a write that ends at once: a `mutating`
    /// method, even one of the binding, is an access to the whole header for as long as it runs,
    /// gate words included, which other threads read and write atomically meanwhile (the thread
    /// sanitizer reports it).
    @inline(__always)
    static func dropBinding(in header: UnsafeMutablePointer<OnceHeader>) {
        header.pointee.store = nil
        guard case .store(var store) = header.pointee.binding else {
            header.pointee.binding = .resolved
            return
        }
        // The pattern's copy is the only other reference once the binding lets go of its own.
        header.pointee.binding = .resolved
        if isKnownUniquelyReferenced(&store) {
            header.pointee.binding = .resolvedKeeping(store)
        }
    }

    /// What a set before the first read takes of the binding: the store, or what it resolves
    /// through, for the caller to release once it has left the gate. Field by field, as
    /// `dropBinding(in:)`.
    static func takeBindingForSet(in header: UnsafeMutablePointer<OnceHeader>) -> InjectedBinding {
        header.pointee.store = nil
        let taken = header.pointee.binding
        header.pointee.binding = .resolved
        return taken
    }

    /// Keeps `replacement`, whose value a set publishes in place of the one at `published`, for
    /// as long as the storage lives, in the binding (`.replaced`): after a first read, the binding
    /// holds nothing to resolve with, at most the store a first read kept. Returns what the caller
    /// releases after leaving the gate. Inside the gate.
    static func keep(
        _ replacement: AnyObject, replacing published: UnsafeMutableRawPointer,
        in header: UnsafeMutablePointer<OnceHeader>
    ) -> InjectedBinding {
        switch header.pointee.binding {
        case .replaced(let replaced):
            replaced.values.append(replacement)
            return .resolved
        case .resolvedKeeping(let store):
            header.pointee.binding = .replaced(ReplacedValues(firstValue: published, keeping: store, replacement))
            return .resolved
        case .resolved, .store, .core:
            let taken = takeBindingForSet(in: header)
            header.pointee.binding = .replaced(ReplacedValues(firstValue: published, keeping: nil, replacement))
            return taken
        }
    }

    /// Enters the gate of the property whose header this is, for its first read, on the thread of
    /// `stack` (borrowed: the thread's storage holds it): what every first read does before it resolves (`resolveOnce`,
    /// `OnceStorage.beginFirstRead(of:)`). A wait for another thread inside that could never end
    /// (a cycle across threads) traps with both chains. A value another read published meanwhile
    /// comes back with the gate left again: the value there is never written or freed while the
    /// property lives (a set publishes another address).
    @inline(__always)
    static func enterGate(
        _ gate: RawGate, in header: UnsafeMutablePointer<OnceHeader>, on stack: Unmanaged<ResolutionStack>,
        resolving type: Any.Type
    ) -> FirstReadEntry {
        if gate.owner == stack.toOpaque() { return .insideOwnResolution }
        stack._withUnsafeGuaranteedRef {
            gate.enterProperty(on: $0, type: type, name: name(in: header), requester: header.pointee.requester)
        }
        if let published = gate.published {
            gate.leave()
            return .published(published)
        }
        return .entered
    }

    /// The name the property resolves by, read in place: through the pointer, field by field. A
    /// computed property of the header, called through `pointee`, copied the whole header first
    /// in an unoptimised build (gate words, binding and all), racing the gate's holder.
    @inline(__always)
    static func name(in header: UnsafeMutablePointer<OnceHeader>) -> String? {
        header.pointee.nameAddress?.pointee
    }
}

/// The one allocation of an injected property: `OnceHeader`, then room for the value, which is
/// there once published.
@usableFromInline
final class OnceStorage: ManagedBuffer<OnceHeader, UInt64> {
    /// Allocates the storage of a cell whose first read resolves with `binding`, `name` and
    /// `requester`, with `words` for a value of `valueType`, and initialises its gate. Not generic,
    /// so that making one looks up no generic class's metadata at run time (about 200
    /// instructions a property). The binding is moved into the header, where the closure would
    /// copy it and this function release it.
    @inline(__always)
    static func make(
        binding: consuming InjectedBinding, name: String?, requester: Requester, valueType: Any.Type,
        destruction: ValueDestruction, words: Int
    ) -> (OnceStorage, RawGate) {
        var binding = Optional(binding)
        // The gate after the value's room, and a name after the gate.
        let capacity = Self.gateWords + words + (name == nil ? 0 : Self.nameWords)
        let buffer = create(minimumCapacity: capacity) { _ in
            var taken: InjectedBinding?
            swap(&taken, &binding)
            return OnceHeader(
                binding: taken.unsafelyUnwrapped, requester: requester, valueType: valueType,
                destruction: destruction)
        }
        let storage = unsafeDowncast(buffer, to: OnceStorage.self)
        if let name {
            storage.withUnsafeMutablePointers { header, elements in
                header.pointee.nameAddress = UnsafeMutableRawPointer(elements + Self.gateWords + words)
                    .initializeMemory(as: String.self, repeating: name, count: 1)
            }
        }
        return (storage, RawGate(initializingAt: storage.gateAddress))
    }

    /// The first read of an `@Injected` property, up to the copy of its value, which the caller
    /// makes in code specialised for the value's type (`Injected.resolveFirst()`): enters the
    /// gate as `resolveOnce` does, and finds the value without the generic resolve when it can
    /// (`DependencyStore.findForFirstRead`), leaving the gate held with what holds the value, for
    /// `finishFirstRead(_:publishing:)`. A value another read published comes back with the gate
    /// left. A read that must resolve through the store comes back inside the gate, to resolve
    /// and publish there; outside it, when this thread is inside this property's own resolution
    /// already (a cycle the store reports).
    @usableFromInline
    func beginFirstRead(of type: Any.Type) -> FirstRead {
        // The header and the thread's stack, neither retained: this storage holds the one, the
        // thread's storage the other, for as long as this runs.
        let header = withUnsafeMutablePointerToHeader { $0 }
        let stack = ResolutionStack.currentUnretained
        switch OnceHeader.enterGate(RawGate(existingAt: gateAddress), in: header, on: stack, resolving: type) {
        case .insideOwnResolution: return FirstRead(throughTheStoreInsideGate: false)
        case .published(let published): return FirstRead(published: published)
        case .entered: break
        }
        if header.pointee.nameAddress == nil, let store = header.pointee.store,
            var found = store._withUnsafeGuaranteedRef({
                $0.findForFirstRead(ObjectIdentifier(type), hazard: stack._withUnsafeGuaranteedRef { $0.hazard })
            })
        {
            found.room = valueRoom
            return found
        }
        return FirstRead(throughTheStoreInsideGate: true)
    }

    /// Ends the first read that `beginFirstRead(of:)` found its value for, once the caller copied
    /// it to `slot` (the storage's `valueSlot`): lets go of what held the found value, drops the
    /// binding (`OnceHeader.dropBinding(in:)`), publishes `slot` and leaves the gate.
    @usableFromInline
    func finishFirstRead(_ read: FirstRead, publishing slot: UnsafeMutableRawPointer) {
        withUnsafeMutablePointerToHeader { header in
            header.pointee.store.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.letGo(of: read) }
            OnceHeader.dropBinding(in: header)
            let gate = RawGate(existingAt: gateAddress)
            gate.publishOnce(slot)
            gate.leave()
        }
    }

    /// `make`, for a property being created now (see `OnceCell.init(propertyDeclaredAt:...)`):
    /// bound to ``DependencyStore/shared`` by `InjectedBinding.forPropertyBeingCreated()`, and
    /// declared to the verifier as a `declared` (an optional one with `optional`) when the store
    /// is a verification copy. All a property's creation runs in the library, in one call.
    @usableFromInline @inline(never)
    static func makeForPropertyBeingCreated(
        valueType: Any.Type, destruction: ValueDestruction, words: Int, declaring declared: Any.Type, optional: Bool,
        fileID: StaticString, line: UInt
    ) -> (OnceStorage, RawGate) {
        makeForPropertyBeingCreated(
            valueType: valueType, destruction: destruction, words: words, declaring: declared, optional: optional,
            named: nil, fileID: fileID, line: line)
    }

    /// `makeForPropertyBeingCreated`, for a property with a name.
    @usableFromInline @inline(never)
    static func makeForPropertyBeingCreated(
        valueType: Any.Type, destruction: ValueDestruction, words: Int, declaring declared: Any.Type, optional: Bool,
        name: String, fileID: StaticString, line: UInt
    ) -> (OnceStorage, RawGate) {
        makeForPropertyBeingCreated(
            valueType: valueType, destruction: destruction, words: words, declaring: declared, optional: optional,
            named: name, fileID: fileID, line: line)
    }

    @inline(__always)
    private static func makeForPropertyBeingCreated(
        valueType: Any.Type, destruction: ValueDestruction, words: Int, declaring declared: Any.Type, optional: Bool,
        named name: String?, fileID: StaticString, line: UInt
    ) -> (OnceStorage, RawGate) {
        let binding = InjectedBinding.forPropertyBeingCreated()
        // Only whether there is one: holding the verifier across `make` cost every property a
        // retain and a release.
        let verified = binding.verifier != nil
        let location = SourceLocation(fileID: fileID, line: line)
        let made = make(
            binding: consume binding, name: name, requester: .injectedProperty(location), valueType: valueType,
            destruction: destruction, words: words)
        if _slowPath(verified) {
            declare(made.0, as: declared, optional: optional, at: location)
        }
        return made
    }

    /// Where the gate is: the first of the elements, whose alignment is a word's, as the C
    /// struct's is.
    @inline(__always)
    var gateAddress: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 })
    }

    /// Where the value's room begins: after the gate. Not inlined into a client: only a first
    /// read asks, once.
    @usableFromInline
    var valueRoom: UnsafeMutablePointer<UInt64> {
        withUnsafeMutablePointerToElements { $0 + Self.gateWords }
    }

    /// The words the gate takes before the value's room: the C struct's size, as its compiler lays
    /// it out, in whole words (its alignment is a word's).
    static var gateWords: Int {
        (RawGate.size + MemoryLayout<UInt64>.stride - 1) / MemoryLayout<UInt64>.stride
    }

    /// Declares the property of `storage`, made in a verification copy, to its verifier.
    @inline(never)
    private static func declare(
        _ storage: OnceStorage, as declared: Any.Type, optional: Bool, at location: SourceLocation
    ) {
        storage.withUnsafeMutablePointerToHeader { header in
            header.pointee.binding.verifier.unsafelyUnwrapped.declared(
                declared, name: OnceHeader.name(in: header), optional: optional, in: header.pointee.binding.store,
                at: location)
        }
    }

    /// The words a name takes after the value's room.
    static var nameWords: Int {
        (MemoryLayout<String>.size + MemoryLayout<UInt64>.stride - 1) / MemoryLayout<UInt64>.stride
    }

    deinit {
        withUnsafeMutablePointerToHeader { header in
            // The value in the room: a set's later values are their allocations' to destroy.
            let value: UnsafeMutableRawPointer?
            if case .replaced(let replaced) = header.pointee.binding {
                value = replaced.firstValue
            } else {
                value = RawGate(existingAt: gateAddress).published
            }
            if let value {
                header.pointee.destruction.destroy(header.pointee.valueType, at: value)
            }
            header.pointee.nameAddress?.deinitialize(count: 1)
        }
        // The header itself is destroyed by `ManagedBuffer`.
    }
}

/// What sets of a property published after its first value: kept until the property goes, since a
/// read takes no lock and may be copying any of them. The binding holds it (`.replaced`).
final class ReplacedValues {
    /// The first value published, in the storage's room.
    let firstValue: UnsafeMutableRawPointer
    /// The store the first read kept (`InjectedBinding.resolvedKeeping`), kept still.
    let keeping: DependencyStore?
    /// The later values, each a `SetValue`, in the order they were set.
    var values: [AnyObject]

    init(firstValue: UnsafeMutableRawPointer, keeping: DependencyStore?, _ replacement: AnyObject) {
        self.firstValue = firstValue
        self.keeping = keeping
        values = [replacement]
    }
}

/// A value a set published in place of another: an allocation of its own, which never moves.
final class SetValue<Value> {
    let address: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        address = .allocate(capacity: 1)
        address.initialize(to: value)
    }

    deinit {
        address.deinitialize(count: 1)
        address.deallocate()
    }
}
