internal import DependencyStoreAtomics

/// What a ``DependencyStore`` resolves with: its registrations, the instances it keeps for them,
/// its parent and its name in diagnostics.
///
/// The store a user holds is a handle over its core. The split is what lets a store be freed:
/// an instance the store keeps (a `.singleton`, say) may have `@Injected` properties, and a
/// property must be able to resolve after its owner was built. If such a property held the store,
/// the store would hold the instance, the instance the property and the property the store: none
/// would ever be freed. So a property created while the store builds an instance it keeps holds
/// only this core, and when the last user of the handle lets go, the handle *closes* the core:
/// every kept instance is released (outside the lock, so their `deinit` may resolve), and the
/// core keeps nothing from then on. What is left is freed with the last property that holds it.
///
/// The core is one allocation: it is the storage of its registry's lock (a `LockStorage`), whose
/// state, the `Registry`, also holds what never changes (parent, name, verifier), and whose words
/// after the mutex hold what is read without the lock (`stageCount` and those after it). So it
/// has no stored property of its own: a buffer's `create` would not initialise one.
final class StoreCore: LockStorage<StoreCore.Registry> {
    /// Makes a core: with its handle, all a store allocates until it registers something.
    static func make(origin: DependencyStore.Origin, parent: DependencyStore?, verifier: Verifier?) -> StoreCore {
        let core = make(extraWords: roomsOffset + roomWords) { words in
            // Every field zero (`dependency_store_core_words()` is the C struct's zero value).
            let atomics = words.bindMemory(to: dependency_store_core_words.self, capacity: 1)
            atomics.initialize(to: dependency_store_core_words())
            // The rooms for provided values (see `ProvidedValueRoom`), read and written only
            // through `Registry.providedValues`, under the registry's lock: zeroed, all free.
            let rooms = (words + roomsOffset * MemoryLayout<Int>.stride).bindMemory(to: Int.self, capacity: roomWords)
            rooms.initialize(repeating: 0, count: roomWords)
            ProvidedValueRoom.bindRooms(at: rooms)
            return Registry(
                parent: parent, origin: origin, verifier: verifier, rooms: rooms,
                filter: dependency_store_core_provided_filter(atomics))
        }
        if parent != nil {
            core.startChecked()
            dependency_store_store_relaxed(core.stageCount, layeredStageBias)
        }
        return core
    }

    /// Where the rooms for provided values start in the extra words: after the words read with
    /// no lock (`dependency_store_core_words`, whose layout the C compiler makes).
    private static var roomsOffset: Int {
        MemoryLayout<dependency_store_core_words>.stride / MemoryLayout<Int>.stride
    }

    /// The words the rooms for provided values take.
    private static var roomWords: Int { ProvidedValueRoom.count * ProvidedValueRoom.words }

    /// The words read and written with no lock, each one a field of a C struct with an `_Atomic`
    /// type, reached by name through the functions of `DependencyStoreAtomics.h`; first in the
    /// extra words, bound to that struct by `make`.
    @inline(__always)
    var words: UnsafeMutablePointer<dependency_store_core_words> {
        extraWords.assumingMemoryBound(to: dependency_store_core_words.self)
    }

    /// Everything the store knows, behind its one lock.
    var registry: Lock<Registry> {
        @inline(__always) get { Lock(storage: self) }
    }

    // `parent`, `origin` and `verifier` never change after `make`: read in place, without the lock.

    /// The store that resolves what this one does not register itself, if any.
    var parent: DependencyStore? { withUnsafeMutablePointerToHeader { $0.pointee.parent } }
    /// Runs, one at a time and in order, the closes of instances this store let go of that could
    /// not run where it did (see `Closing/`). Made the first time the store closes something, so
    /// that a store that never does (most stores of a test or a request) does not allocate it.
    var closeQueue: CloseQueue {
        registry.withLock { registry in
            if let queue = registry.closeQueue { return queue }
            let queue = CloseQueue()
            registry.closeQueue = queue
            return queue
        }
    }
    /// What diagnostics call the store.
    var origin: DependencyStore.Origin { withUnsafeMutablePointerToHeader { $0.pointee.origin } }
    /// Set on the throw-away copy `verify()` builds in, and only there.
    var verifier: Verifier? { withUnsafeMutablePointerToHeader { $0.pointee.verifier } }
    // No reference back to the store: a weak one would give every store a side-table reference
    // count, and each retain and release of a store (every `execute`, most resolves) would take
    // the slow path, about 150 instructions. A property bound to the core resolves through a
    // handle of its own over the same core instead (`DependencyStore.resolving(through:)`).

    /// The count of this store's own stages (see `hasStagesInScope`, which reads its ancestors'
    /// too): its decorators, plus one on a verification copy, plus `layeredStageBias` when the
    /// store has a parent. Outside the registry: a build reads it with no lock. Changed only
    /// through `adjustStagesInScope`.
    var stageCount: UnsafeMutablePointer<dependency_store_atomic_word> { dependency_store_core_stage_count(words) }

    /// What a layered store's `stageCount` starts at: never zero, so a build through a store
    /// without a parent reads only its own count, and one through a layered store learns from the
    /// same load that it must read its ancestors' counts (no store has that many stages).
    static var layeredStageBias: Int { 1 << 30 }

    /// Whether the store is on its parent's list of children (`Registry.children`): 0 while it
    /// is not (it has kept nothing and registered nothing but values), 1 once it joined
    /// (`joinAncestors`), 2 once it ended without being on the list, or left it (`close()`).
    /// Changed by compare-and-exchange only, from 0 under the parent's lock to 1, or to 2 by the
    /// end, so a store joins at most once and never after its end. A field of `words`.
    var membership: UnsafeMutablePointer<dependency_store_atomic_word> { dependency_store_core_membership(words) }

    /// A filter of the types whose values have ever been put in this store's rooms (see
    /// `ProvidedValueRoom`): one bit per type's hash, set under the registry's lock when a value
    /// goes into a room, never cleared. A clear bit says no room holds a value for the type, so
    /// the first read of a property need not take the lock to look (see
    /// `DependencyStore.ownValueLeavingLockHeld`); a set one may be another type's.
    /// A value put in a room while the read runs, on another thread, may or may not be seen, as
    /// with any change made while a resolve runs; the read's general path, which takes the lock,
    /// finds it. Set through `ProvidedValues` only. A field of `words`.
    var providedFilter: UnsafeMutablePointer<dependency_store_atomic_word> {
        dependency_store_core_provided_filter(words)
    }

    /// Whether a room of this store may hold a value provided for `key`: `false` means none ever
    /// did (see `providedFilter`). A relaxed load, with no lock.
    @inline(__always)
    func mayHoldInRoom(_ key: ObjectIdentifier) -> Bool {
        dependency_store_load_relaxed(providedFilter) & ProvidedValues.filterBit(of: key) != 0
    }

    /// `body` on the parent, `nil` for a store without one. Borrowed, not retained: every store
    /// holds its parent, and the caller this one.
    @inline(__always)
    func withParent<Result>(_ body: (DependencyStore) -> Result) -> Result? {
        withUnsafeMutablePointerToHeader { header in
            header.pointee.parent.map { Unmanaged.passUnretained($0) }.map { $0._withUnsafeGuaranteedRef(body) }
        }
    }

    /// Runs `body` on the core of each ancestor, the parent first, until it returns `false`.
    /// Borrowed, not retained, as `withParent`.
    @inline(__always)
    func forEachAncestor(_ body: (StoreCore) -> Bool) {
        var next = withParent { Unmanaged.passUnretained($0.core) }
        while let ancestor = next {
            next = ancestor._withUnsafeGuaranteedRef { core in
                guard body(core) else { return nil }
                return core.withParent { Unmanaged.passUnretained($0.core) }
            }
        }
    }

    /// Whether the store has a parent, read without retaining it.
    @inline(__always)
    var hasParent: Bool { withUnsafeMutablePointerToHeader { $0.pointee.parent != nil } }

    /// Puts this store on its parent's list of children, and each ancestor on its parent's, the
    /// furthest first, unless it is there already or ended: so that a removal, a reset or a
    /// replacement in an ancestor reaches what this store keeps. Called before a store keeps or
    /// registers anything but a value (`provide`), which is why a store per request that only
    /// provides values and reads the app's instances never takes the app's lock for it. Called
    /// with no lock held; it takes the ancestors' locks one at a time.
    @inline(__always)
    func joinAncestors() {
        guard dependency_store_load_relaxed(membership) == 0, hasParent else { return }
        joinAncestorsNow()
    }

    @inline(never)
    private func joinAncestorsNow() {
        withParent { parent in
            parent.core.joinAncestors()
            parent.registry.withLock { registry in
                if dependency_store_compare_exchange_word(membership, 0, 1) {
                    registry.addChild(self)
                }
            }
        }
    }

    deinit {
        // Nobody reads it any more: a reader resolves through a store over this one, which holds it.
        // Its tables, if it published any: no reader is left to wait for.
        if dependency_store_is_set_relaxed(sharedInstancesCell)
            || dependency_store_shared_retired(sharedTables).pointee != nil,
            let tables = Self.takeDownForDiscard(sharedTables)
        {
            _ = consume tables
        }
        // The values still in rooms: no lock, since nothing else holds the core any more.
        withUnsafeMutablePointerToHeader { $0.pointee.providedValues.dropValues() }
    }

    @dynamicMemberLookup
    struct Registry {
        /// Registrations without a name, by `ObjectIdentifier` of the type they are for: the
        /// table the common resolve reads (see `TypeTable`).
        var unnamed = TypeTable<AnyRegistration>()
        /// What the sharing rule records of this store (see `Store/Sharing.swift`).
        var sharing = SharingRecord()
        /// Set when the store is released: from then on a cached scope builds for the one resolve
        /// that asks and keeps nothing, so nothing can tie the core to an instance again.
        var isClosed = false
        /// What `observeResolves` installed, `nil` for none; see `Tracing/`.
        var observers: ResolveObservers?
        /// How many instances this store's slots have kept, ever: the last one's `sequence`.
        var keptCount = 0

        // What never changes after `make`, which `StoreCore` reads in place without the lock.
        // Not first: a `withLock` on another thread is an `inout` access to the registry, which
        // the thread sanitizer counts as a write of the registry's first word, so a read of that
        // word without the lock would be reported though nothing ever writes it again.

        /// The store that resolves what this one does not register itself, if any.
        let parent: DependencyStore?
        /// What diagnostics call the store.
        let origin: DependencyStore.Origin
        /// Set on the throw-away copy `verify()` builds in, and only there.
        let verifier: Verifier?

        init(
            parent: DependencyStore?, origin: DependencyStore.Origin, verifier: Verifier?,
            rooms: UnsafeMutablePointer<Int>, filter: UnsafeMutablePointer<dependency_store_atomic_word>
        ) {
            self.parent = parent
            self.origin = origin
            self.verifier = verifier
            providedValues = ProvidedValues(rooms: rooms, filter: filter)
        }
        /// Whether a `.weak` slot of this store has ever held an instance (which `keptCount` does
        /// not count). With `keptCount` 0, no slot of the store holds anything: its end has
        /// nothing to discard, and skips the walk (`close()`).
        var keptWeakly = false

        /// Whether `slot` is where this store keeps `registration`'s instance now: the slot of a
        /// registration (or contribution) it holds, or its own slot for an ancestor's. Not once
        /// a removal or a new registration took `registration` away.
        func owns(_ slot: InstanceSlot, of registration: AnyRegistration) -> Bool {
            guard registration.slot === slot else {
                return self.inheritedSlots[ObjectIdentifier(registration)]?.slot === slot
            }
            let key = ObjectIdentifier(registration.type)
            if registration.role.isContribution {
                return self.contributions[key]?.contains { $0 === registration } ?? false
            }
            return stored(key, registration.name) === registration
        }

        /// Adds a child, which stays until it ends (`removeChild`).
        mutating func addChild(_ core: StoreCore) {
            self.children.append(core)
        }

        /// Removes a child that ended. The latest children are the likeliest to end first.
        mutating func removeChild(_ core: StoreCore) {
            if let index = self.children.lastIndex(where: { $0 === core }) {
                self.children.remove(at: index)
            }
        }

        /// What a store uses rarely (most stores of a test or a request never do), made on its
        /// first change: see `Extras`. Read through `subscript(dynamicMember:)`, which answers
        /// empty while it is `nil`.
        private var extras: Extras?

        /// The extras, made now if they were not.
        private mutating func extrasForChange() -> Extras {
            if let extras { return extras }
            let made = Extras()
            extras = made
            return made
        }

        /// A field of `Extras` (`registry.named`, say): read as the field's empty value while the
        /// store has no extras, which a change makes. Inlined, so that the key path, a constant at
        /// each use, becomes a plain access of the field. The registry's own code (its extensions
        /// included) writes `self.named`: a bare name does not go through this subscript.
        subscript<Value: EmptyFieldValue>(dynamicMember field: ReferenceWritableKeyPath<Extras, Value>) -> Value {
            @inline(__always) get { extras.map { $0[keyPath: field] } ?? .empty }
            @inline(__always) _modify { yield &extrasForChange()[keyPath: field] }
        }
        /// Whether no decorator and no contribution was ever added: read by the sharing rule on
        /// every resolve through a layered store, without making the extras.
        private var hasNoDecoratorsNorContributions: Bool {
            guard let extras else { return true }
            return extras.decorators.isEmpty && extras.contributions.isEmpty
        }

        /// Whether a resolve through this store of an ancestor's `.singleton`, `.weak` or custom
        /// scope gets the instance that ancestor keeps (the sharing rule, Docs/Lifetimes.md): the
        /// store changes nothing the ancestor's factories would resolve, since it overrides
        /// nothing, and has no decorators, completion steps, contributions or observers of its
        /// own. A store that only adds values of its own (a request's) shares.
        var sharesAncestorsInstances: Bool {
            !sharing.shadowsAncestors && hasNoDecoratorsNorContributions && observers == nil
        }

        /// The type and name of everything this store registers or provides itself.
        var ownKeys: [TypeAndName] {
            unnamed.values.map { TypeAndName(type: ObjectIdentifier($0.type), name: nil) }
                + self.named.keys.map { TypeAndName(type: $0.type, name: $0.name) }
                + providedValues.keys.map { TypeAndName(type: $0, name: nil) }
        }

        /// Every registration, provided values turned into theirs first (see `ProvidedValue`).
        var all: [AnyRegistration] {
            mutating get {
                registerProvidedValues()
                return unnamed.values + Array(self.named.values)
            }
        }

        /// Values provided without a name and not yet asked for as registrations, by
        /// `ObjectIdentifier` of their type (see `ProvidedValue`): a resolve hands the value out,
        /// and anything else that reads registrations turns one into its registration first
        /// (`registerProvidedValue`). A type is never both here and in `unnamed`.
        var providedValues: ProvidedValues

        /// Turns the value provided for `key`, if any, into its registration, which takes its
        /// place in `unnamed`, and returns it.
        mutating func registerProvidedValue(_ key: ObjectIdentifier) -> AnyRegistration? {
            guard let registration = providedValues.takeRegistration(key) else { return nil }
            unnamed[key] = registration
            return registration
        }

        /// `registerProvidedValue` of every value provided.
        mutating func registerProvidedValues() {
            guard !providedValues.isEmpty else { return }
            for key in providedValues.keys {
                _ = registerProvidedValue(key)
            }
        }

        /// Every element contributed to a collection of this store.
        var allContributions: [AnyRegistration] {
            self.contributions.values.flatMap { $0 }
        }

        /// Takes the instances out of every slot of the store whose registration `matching`
        /// picks, adding them to `discarded`: what `reset`, `unload`, `shutdown` and the store's end
        /// share. Slot by slot, building no array: a store per request ends once per request,
        /// usually with no slot at all.
        func discardKept(matching: (AnyRegistration) -> Bool, into discarded: inout [DiscardedInstance]) {
            func discard(_ registration: AnyRegistration) {
                if let slot = registration.slot, matching(registration) {
                    slot.discard(of: registration, into: &discarded)
                }
            }
            unnamed.forEach(discard)
            self.named.values.forEach(discard)
            guard let extras else { return }
            for elements in extras.contributions.values { elements.forEach(discard) }
            for entry in extras.inheritedSlots.values where matching(entry.registration) {
                entry.slot.discard(of: entry.registration, into: &discarded)
            }
        }

        /// Whether there is a registration for `type` and `name`, found without retaining it.
        @inline(__always)
        func registers(_ type: ObjectIdentifier, name: String?) -> Bool {
            if let name {
                self.named[NamedKey(type: type, name: name)] != nil
            } else {
                unnamed.contains(type) || providedValues.contains(type)
            }
        }

        /// The registration for `type` and `name`, as it is stored: `nil` for a value provided and
        /// not yet turned into its registration. What a resolve looks at first.
        @inline(__always)
        func stored(_ type: ObjectIdentifier, _ name: String?) -> AnyRegistration? {
            if let name { self.named[NamedKey(type: type, name: name)] } else { unnamed[type] }
        }

        /// Whether nothing is registered or provided for `type` without a name: where a value
        /// provided for it goes in as it is, replacing nothing (a type is never both).
        func hasNothingUnnamed(for type: ObjectIdentifier) -> Bool {
            stored(type, nil) == nil && !providedValues.contains(type)
        }

        /// The registration for `type` and `name`: the unnamed table when there is no name, where
        /// a value provided for `type` is turned into its registration first. Setting one (or
        /// `nil`) replaces whatever was there, a provided value included.
        subscript(type: ObjectIdentifier, name: String?) -> AnyRegistration? {
            mutating get {
                if let name { return self.named[NamedKey(type: type, name: name)] }
                return unnamed[type] ?? registerProvidedValue(type)
            }
            set {
                if let name {
                    self.named[NamedKey(type: type, name: name)] = newValue
                } else {
                    // Every caller read the registration first, which took any value provided.
                    if !providedValues.isEmpty { _ = registerProvidedValue(type) }
                    unnamed[type] = newValue
                }
            }
        }
    }

    /// The parts of a registry that most stores never use, in an object of their own made on
    /// first use (`Registry.extrasForChange`): a store that uses none of them neither initialises
    /// nor destroys them. Only ever touched under the registry's lock, through the registry, which
    /// reads each field as `registry.named` (say), empty while the store has no extras.
    final class Extras {
        /// Registrations with a name, by type and name.
        @exclusivity(unchecked) var named: [NamedKey: AnyRegistration] = .init()
        /// The cores of the stores layered over this one that joined it (`StoreCore.joinAncestors`:
        /// before they registered something other than a provided value, or made a slot for an
        /// inherited registration) and have not ended: a replaced registration must reach the
        /// instances they keep for it. Held strongly, and removed by
        /// the child itself when it ends (`close()`), under this lock: a weak reference would give
        /// every child core a side-table reference count, an allocation and the slow path on each
        /// of its retains and releases, about 1,500 instructions a store per request. An ended
        /// store keeps nothing a parent's change must reach (see `close()`).
        @exclusivity(unchecked) var children: [StoreCore] = []
        /// This store's own instances of cached-scope registrations it inherited from an ancestor,
        /// by `ObjectIdentifier` of the registration. The entry holds the registration, so that
        /// identifier cannot be reused while the entry exists.
        @exclusivity(unchecked) var inheritedSlots:
            [ObjectIdentifier: (registration: AnyRegistration, slot: InstanceSlot)] = .init()
        /// The elements contributed to collections, by `ObjectIdentifier` of the element type, in
        /// the order contributed (see `DependencyStore+Collections.swift`).
        @exclusivity(unchecked) var contributions: [ObjectIdentifier: [AnyRegistration]] = .init()
        /// The decorators added to this store, by `ObjectIdentifier` of the type they decorate, in
        /// the order added.
        @exclusivity(unchecked) var decorators: [ObjectIdentifier: [Decorator]] = .init()
        /// What assemblies (or anyone) declared that some assembly must register, in order.
        @exclusivity(unchecked) var requirements: [Requirement] = []
        /// Every registration (or named contribution) that replaced another of this store, in
        /// order; one entry per pair of places, however often it happened.
        @exclusivity(unchecked) var overrides: [OverrideRecord] = []
        /// What `unregister` and `unload` removed, by type and name, for the diagnostic of a
        /// resolve that comes after; forgotten when something is registered there again. The
        /// sharing rule reads it too (`Removal.epoch`, `StoreCore.checkShadowing`): forget an entry
        /// only when the type is registered again, or stores layered over this one may miss an
        /// overlap.
        @exclusivity(unchecked) var removals: [TypeAndName: Removal] = .init()
        /// The assemblies applied to this store (nested ones too) and not unloaded since, by type,
        /// with the assemblies that applied them: what `unload` tells a never-applied assembly by.
        @exclusivity(unchecked) var appliedAssemblies: [ObjectIdentifier: [ObjectIdentifier]] = .init()
        /// The assemblies unloaded from this store and not applied again since.
        @exclusivity(unchecked) var unloadedAssemblies = Set<ObjectIdentifier>()
        /// Collections (by element type) whose every element an `unload` removed: what a resolve
        /// of the collection that finds nothing names.
        @exclusivity(unchecked) var elementRemovals: [ObjectIdentifier: Removal] = .init()
        /// What `onCloseFailure` installed, `nil` for none; see `Closing/`.
        @exclusivity(unchecked) var closeFailureHandler: (@Sendable (CloseFailure) -> Void)?
        /// The store's `closeQueue`, once it has one.
        @exclusivity(unchecked) var closeQueue: CloseQueue?
        /// What `useCacheClock` installed, `nil` for none; see `CacheClock`.
        @exclusivity(unchecked) var cacheClock: InstalledClock?
    }

    /// Runs `body` on the registry of every store layered over this one, at any depth (and on this
    /// store's own first, with `includingSelf`), that joined its parent's list (a store that only
    /// provides values never does), holding one store's lock at a time. A child joins under its
    /// parent's lock, so one that joins meanwhile is either visited or joined after `body` ran on
    /// its parent.
    func forEachDescendant(includingSelf: Bool, _ body: (StoreCore, inout Registry) -> Void) {
        var pending = includingSelf ? [self] : registry.withLock { $0.children }
        while let core = pending.popLast() {
            core.registry.withLock { registry in
                pending += registry.children
                body(core, &registry)
            }
        }
    }

    /// Makes every store layered over this one, at any depth, forget what it built and keeps for
    /// the registrations in `removed`, which this store no longer has: the next resolve through
    /// them builds from the registration that replaced them. Adds what they kept to `discards`,
    /// for the caller to close once no lock is held.
    func forgetInDescendants(_ removed: [AnyRegistration], into discards: inout Discards) {
        guard !removed.isEmpty else { return }
        var slots: [InstanceSlot] = []
        forEachDescendant(includingSelf: false) { core, registry in
            var discarded: [DiscardedInstance] = []
            for registration in removed {
                if let entry = registry.inheritedSlots.removeValue(forKey: ObjectIdentifier(registration)) {
                    slots.append(entry.slot)
                    entry.slot.discard(of: entry.registration, into: &discarded)
                }
            }
            discards.add(discarded, of: core)
        }
        // The slots are dropped here, with no lock held, as the instances are once closed.
        _ = slots
    }

    /// Discards the instances this store, and every store layered over it, keeps of the
    /// registrations `matching` picks, adding them to `discards`.
    func discardKeptInstances(into discards: inout Discards, matching: (AnyRegistration) -> Bool) {
        forEachDescendant(includingSelf: true) { core, registry in
            var discarded: [DiscardedInstance] = []
            registry.discardKept(matching: matching, into: &discarded)
            discards.add(discarded, of: core)
        }
    }

    /// Adds `delta` to the count of this store's own stages. The stores layered over it read it
    /// themselves (`DependencyStore.hasStagesInScope`), so it is not pushed down to them: a store
    /// need not be on this one's list of children to see a decorator added later.
    func adjustStagesInScope(by delta: Int) {
        dependency_store_add(stageCount, delta)
    }

    /// Whether an ancestor has stages of its own (see `adjustStagesInScope`): the parent's count
    /// read here, through the parent's handle, which holds its address; the grandparent's and
    /// further out of line, for the parent is usually the app's store, with no parent of its own.
    @inline(__always)
    var ancestorsHaveStages: Bool {
        withParent { parent in
            let count = dependency_store_load_relaxed(parent.stageCount)
            return count != 0 && (count != Self.layeredStageBias || parent.core.furtherAncestorsHaveStages())
        } ?? false
    }

    /// `ancestorsHaveStages`, from the parent on.
    @inline(never)
    private func furtherAncestorsHaveStages() -> Bool {
        var found = false
        forEachAncestor { core in
            let count = dependency_store_load_relaxed(core.stageCount)
            found = count != 0 && count != Self.layeredStageBias
            return !found
        }
        return found
    }

    /// Closes and releases every instance the store keeps, and keeps none from now on: called
    /// when the store is released. The instances are closed and released after the lock is
    /// dropped, so a `close()` or a `deinit` that resolves from this store completes. Nothing here
    /// can await: the closes before the first `async` one run now, and that one and those after
    /// it in a task, in order (see `CloseQueue`).
    func close() {
        var discarded: [DiscardedInstance] = []
        registry.withLock { registry in
            registry.isClosed = true
            // Most stores (one per request, one per test) never kept anything: no walk.
            if registry.keptCount != 0 || registry.keptWeakly {
                registry.discardKept(matching: { _ in true }, into: &discarded)
            }
        }
        // An ended store keeps nothing from now on, so its parent's resets, removals and
        // registrations have nothing to take from it: it leaves the parent's list, if it joined
        // it, and never joins it later. One that never joined (a request's store that only
        // provided values) takes no lock of the parent's.
        if !dependency_store_compare_exchange_word(membership, 0, 2),
            dependency_store_load_relaxed(membership) == 1
        {
            withParent { parent in
                parent.registry.withLock { $0.removeChild(self) }
                dependency_store_store_relaxed(membership, 2)
            }
        }
        // Most stores (one per request, one per test) end keeping nothing: nothing to sort.
        guard !discarded.isEmpty else { return }
        let closes = discarded.closes()
        // Dropped here, with no lock held: their deinits may resolve through this core.
        discarded = []
        guard !closes.isEmpty else { return }
        let store = DependencyStore.resolving(through: self)
        closeQueue.close(closes, as: store.closing(because: "the end of the store"))
    }
}

/// The type of a field of `StoreCore.Extras`, which a store without extras reads as `empty`.
protocol EmptyFieldValue {
    static var empty: Self { get }
}

extension Array: EmptyFieldValue {
    static var empty: Self { Self() }
}

extension Dictionary: EmptyFieldValue {
    static var empty: Self { Self() }
}

extension Set: EmptyFieldValue {
    static var empty: Self { Self() }
}

extension Optional: EmptyFieldValue {
    static var empty: Self { nil }
}

/// A store's core, held weakly: what a `ResolveObservation` holds, which must not keep a store alive.
struct WeakCore {
    weak var core: StoreCore?
}
