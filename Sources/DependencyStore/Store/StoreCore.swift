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
        // A new store registers nothing, so nothing its ancestors have registered so far shadows it.
        if parent != nil {
            dependency_store_store_relaxed(core.checkedAncestorsGeneration, core.ancestorsGeneration)
            // After the generation: a removal between the two reads is in neither, so the next
            // change or resolve checks again, and a removal the epoch counts came before the store
            // registered anything.
            let epoch = dependency_store_removal_epoch_now()
            core.withUnsafeMutablePointerToHeader { $0.pointee.checkedRemovalEpoch = epoch }
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
    /// The address of the instances this store shares with layered stores, published for them to
    /// read without the lock (see `SharedInstances`), or `nil`; a field of `words`. Changed only through `SharedInstances`' functions, under the registry's lock.
    var sharedInstancesCell: UnsafeMutablePointer<dependency_store_atomic_address> {
        dependency_store_shared_published(sharedTables)
    }
    /// The published table and the list of retired ones (see `SharedInstances`).
    var sharedTables: UnsafeMutablePointer<dependency_store_shared_tables> {
        dependency_store_core_shared_instances(words)
    }
    /// A filter of the types this store has ever registered (named or not): one bit per type's
    /// hash, set under the registry's lock when a registration goes in, never cleared. A clear bit
    /// says the store does not register the type, so a store layered over it that registers the
    /// type need not take this store's lock to ask (`noteShadowing`); a set one may be another
    /// type's, and the lock is taken. A field of `words`.
    ///
    /// Why a clear bit read with no lock is enough: a store that registers a type sets its bit and
    /// then counts the registration (`registrationGeneration`, a release increment); the layered
    /// store registers under its own lock and then reads the bit. If the layered store's read
    /// comes too early to see the bit, its next resolve through the sharing rule sees the count
    /// changed (an acquire load) and checks its types again, under its lock, after the bit was set
    /// (`sharesAncestorsInstances(_:)`). Either way one of them sees the other.
    func keyFilter(_ word: Int) -> UnsafeMutablePointer<dependency_store_atomic_word> {
        dependency_store_core_key_filter(words, word)
    }
    /// Nonzero once the store stopped sharing its ancestors' instances (`Registry.shadowsAncestors`
    /// was set, by an override, a decorator, a contribution or an observer), never cleared: read
    /// with no lock by a property's first read through this store of a type it never registered
    /// (`DependencyStore.sharedInstanceSkippingOwnLock`), which while it is zero can go straight to
    /// what the parent publishes. Set under the registry's lock, with `shadowsAncestors`, through
    /// `stopsSharing(_:)` only. A field of `words`.
    var stopsSharingWord: UnsafeMutablePointer<dependency_store_atomic_word> {
        dependency_store_core_stops_sharing(words)
    }

    /// Records that this store now changes what its ancestors' factories would build: it overrides
    /// one of their registrations, or got a decorator, a contribution or an observer. From now on
    /// it builds and keeps its own copies of their cached instances, even after what made the
    /// change is removed. Its copies stay the ones it hands out, as a kept instance stays until
    /// its own registration changes or a reset discards it. Call with the registry's lock held,
    /// on this store's `registry`.
    func stopsSharing(_ registry: inout Registry) {
        registry.shadowsAncestors = true
        dependency_store_or(stopsSharingWord, 1)
    }

    /// How many registrations, provided values and removals of either this store has had, ever:
    /// one more at each, under the registry's lock, after the type's bit went into `keyFilter`
    /// (`noteRegisters`) or the removal was recorded with its epoch (`noteRemoved`).
    /// With release ordering, so a store layered over this one that reads the count with acquire
    /// ordering, and sees it changed, then reads the bit. What lets the stores layered over this
    /// one learn that it registered a type they register without this store visiting them
    /// (`sharesAncestorsInstances(_:)`). A field of `words`.
    var registrationGeneration: UnsafeMutablePointer<dependency_store_atomic_word> {
        dependency_store_core_registration_generation(words)
    }

    /// The sum of the ancestors' `registrationGeneration` (`ancestorsGeneration`) when every type
    /// this store registers was last checked against what they register: when it is still the
    /// sum, no ancestor registered anything since, so the sharing rule's record of overrides
    /// (`Registry.shadowsAncestors`) is up to date. A type this store registers later is checked
    /// by its registration (`noteShadowing`). Written under the registry's lock; read with none.
    var checkedAncestorsGeneration: UnsafeMutablePointer<dependency_store_atomic_word> {
        dependency_store_core_checked_ancestors_generation(words)
    }

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

    /// The sum of every ancestor's `registrationGeneration`, each read with acquire ordering: it
    /// changes when any of them registers or removes something, since each only grows.
    @inline(__always)
    var ancestorsGeneration: Int {
        withParent { $0.core.generationWithAncestors } ?? 0
    }

    /// `checkedAncestorsGeneration`, read with no lock, with acquire ordering: when it equals the
    /// parent's `generationWithAncestors`, no ancestor registered anything since this store last
    /// checked its types against theirs. Read it first: the acquire matches the release store of
    /// `checkShadowing`, so a reader that sees the sum a check recorded sees what the check did
    /// (`stopsSharing`), and ancestors' counts at least as new as those the check added up, so
    /// equal sums mean equal counts. Then read the ancestors' counts, and then the word that says
    /// the store still shares (`mayShareWithoutObservers`).
    @inline(__always)
    var checkedGeneration: Int { dependency_store_load_acquire_word(checkedAncestorsGeneration) }

    /// This store's `registrationGeneration` plus its ancestors': the `ancestorsGeneration` of a
    /// store layered over this one. A store whose parent has no parent (a request's, over the
    /// app's) reads one count; deeper ancestors are added out of line.
    @inline(__always)
    var generationWithAncestors: Int {
        let own = dependency_store_load_acquire_word(registrationGeneration)
        return hasParent ? own &+ furtherAncestorsGeneration() : own
    }

    /// `ancestorsGeneration`, out of line: for a store whose parent has a parent.
    @inline(never)
    private func furtherAncestorsGeneration() -> Int {
        ancestorsGeneration
    }

    /// Whether an ancestor registers `key` and `name`, or, given `epoch`, removed them with a
    /// later removal epoch (`Removal.epoch`). An ancestor whose filter says it never registered `key` is not
    /// locked: a request's values, which the app does not register, take no lock of the app's.
    func anAncestorRegisters(_ key: ObjectIdentifier, name: String?, orRemovedAfter epoch: Int? = nil) -> Bool {
        var registers = false
        forEachAncestor { core in
            registers =
                core.mayRegister(key)
                && core.registry.withLock { registry in
                    if registry.registers(key, name: name) { return true }
                    guard let epoch, !registry.removals.isEmpty else { return false }
                    return registry.removals[TypeAndName(type: key, name: name)].map { $0.epoch > epoch } ?? false
                }
            return !registers
        }
        return registers
    }

    /// `registry.sharesAncestorsInstances`, once the sharing rule's record of overrides is brought
    /// up to date with what the ancestors registered since this store last looked (the pull half of
    /// `noteShadowing`: an ancestor does not visit the stores layered over it when it registers).
    /// Call with this store's lock held, on its `registry`. The ancestors' locks may be taken,
    /// after this one, as `DependencyStore.found` takes them.
    @inline(__always)
    func sharesAncestorsInstances(_ registry: inout Registry) -> Bool {
        guard registry.sharesAncestorsInstances else { return false }
        checkShadowingIfStale(&registry)
        return registry.sharesAncestorsInstances
    }

    /// Checks this store's types against its ancestors' (`checkShadowing`) if an ancestor
    /// registered or removed something since the last check, and the store still shares: what
    /// every change to what this store registers does first. Call with this store's lock held, on
    /// its `registry`.
    @inline(__always)
    func checkShadowingIfStale(_ registry: inout Registry) {
        guard !registry.shadowsAncestors else { return }
        let generation = ancestorsGeneration
        if _slowPath(dependency_store_load_relaxed(checkedAncestorsGeneration) != generation) {
            checkShadowing(&registry, against: generation)
        }
    }

    /// Checks every type this store registers against its ancestors' registrations as they are at
    /// `generation` or later, and against what they removed since the last check: stops the store
    /// sharing if one of them registers it too, or did at some moment since. Then records
    /// `generation`. Under this store's lock; every change to what this store registers makes
    /// this check first (`DependencyStore.insert`, `insertProvided`, `unregister`, `unload`), so
    /// its types have not changed since the last one, and a registration an ancestor made and
    /// removed in between still counts, as when the ancestor visited it at once.
    @inline(never)
    private func checkShadowing(_ registry: inout Registry, against generation: Int) {
        // Before the look: a removal the look does not see takes a later epoch.
        let epoch = dependency_store_removal_epoch_now()
        if !registry.shadowsAncestors {
            let since = registry.checkedRemovalEpoch
            if registry.ownKeys.contains(where: { anAncestorRegisters($0.type, name: $0.name, orRemovedAfter: since) })
            {
                stopsSharing(&registry)
            }
        }
        registry.checkedRemovalEpoch = epoch
        // Release: a property's first read that sees this sum, read with no lock, sees the word
        // `stopsSharing` set (`checkedGeneration`).
        dependency_store_store_release_word(checkedAncestorsGeneration, generation)
    }

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

    /// Whether the store may share its ancestors' instances and has no observers: `false` once
    /// `stopsSharing` ran. A relaxed load, with no lock.
    @inline(__always)
    var mayShareWithoutObservers: Bool {
        dependency_store_load_relaxed(stopsSharingWord) == 0
    }

    /// The word and bit of `key` in `keyFilter`: a multiplicative hash of the type's address.
    @inline(__always)
    private static func filterPosition(of key: ObjectIdentifier) -> (word: Int, bit: Int) {
        let hash = UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15
        let index = Int(hash >> (UInt(Int.bitWidth) - 8))  // 0 to 255: 4 words of 64 bits
        return (index >> 6, 1 << (index & 63))
    }

    /// Records in `keyFilter` that this store registers `key`, then counts the registration in
    /// `registrationGeneration`. Call with the registry's lock held.
    @inline(__always)
    func noteRegisters(_ key: ObjectIdentifier) {
        let (word, bit) = Self.filterPosition(of: key)
        dependency_store_or(keyFilter(word), bit)
        dependency_store_increment_release(registrationGeneration)
    }

    /// Records for the sharing rule that `removed` went from this store's registry with the
    /// removal epoch `epoch` (`Tombstones.bury`): each removal's `Removal.epoch` (contributions
    /// take no part in the rule), then one count more in `registrationGeneration`, as a
    /// registration is counted, so that a store layered over this one checks its types again
    /// before it next changes them or shares, and a removal it has not checked against is never
    /// held against a type it registers only after it. Call with the registry's lock held, after
    /// `Registry.remove` recorded the removals.
    func noteRemoved(_ removed: [AnyRegistration], epoch: Int, in registry: inout Registry) {
        guard !removed.isEmpty else { return }
        for registration in removed where !registration.role.isContribution {
            registry.removals[TypeAndName(type: ObjectIdentifier(registration.type), name: registration.name)]?.epoch =
                epoch
        }
        dependency_store_increment_release(registrationGeneration)
    }

    /// Whether this store may register `key`: `false` means it never has (see `keyFilter`).
    @inline(__always)
    func mayRegister(_ key: ObjectIdentifier) -> Bool {
        let (word, bit) = Self.filterPosition(of: key)
        return dependency_store_load_relaxed(keyFilter(word)) & bit != 0
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

    struct Registry {
        /// Registrations without a name, by `ObjectIdentifier` of the type they are for: the
        /// table the common resolve reads (see `TypeTable`).
        var unnamed = TypeTable<AnyRegistration>()
        /// Set when this store registers a type (and name) that an ancestor registers too, or when
        /// its next check finds that an ancestor registered one this store already has
        /// (`StoreCore.sharesAncestorsInstances(_:)`), or when it first gets a decorator, a
        /// contribution or an observer: from then on it never shares an ancestor's instances (see
        /// `sharesAncestorsInstances`). Never cleared. Set only by `StoreCore.stopsSharing(_:)`,
        /// which mirrors it in a word read with no lock.
        fileprivate(set) var shadowsAncestors = false
        /// The removal epoch when the store last checked its types against its ancestors'
        /// (`StoreCore.checkShadowing`), or was made: an ancestor's removal with a later epoch
        /// happened since. Set by `StoreCore` alone, under the lock (or before anyone else holds
        /// the core).
        fileprivate(set) var checkedRemovalEpoch = 0
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
                return inheritedSlots[ObjectIdentifier(registration)]?.slot === slot
            }
            let key = ObjectIdentifier(registration.type)
            if registration.role.isContribution {
                return contributions[key]?.contains { $0 === registration } ?? false
            }
            return stored(key, registration.name) === registration
        }

        /// Adds a child, which stays until it ends (`removeChild`).
        mutating func addChild(_ core: StoreCore) {
            children.append(core)
        }

        /// Removes a child that ended. The latest children are the likeliest to end first.
        mutating func removeChild(_ core: StoreCore) {
            if let index = children.lastIndex(where: { $0 === core }) {
                children.remove(at: index)
            }
        }

        /// What a store uses rarely (most stores of a test or a request never do), made on its
        /// first change: see `Extras`. Read through the properties below, which answer empty
        /// while it is `nil`.
        private var extras: Extras?

        /// The extras, made now if they were not.
        private mutating func extrasForChange() -> Extras {
            if let extras { return extras }
            let made = Extras()
            extras = made
            return made
        }

        /// Registrations with a name, by type and name.
        var named: [NamedKey: AnyRegistration] {
            get { extras?.named ?? .init() }
            _modify { yield &extrasForChange().named }
        }
        /// The cores of the stores layered over this one that joined it (`StoreCore.joinAncestors`:
        /// before they registered something other than a provided value, or made a slot for an
        /// inherited registration) and have not ended: a replaced registration must reach the
        /// instances they keep for it. Held strongly, and removed by
        /// the child itself when it ends (`close()`), under this lock: a weak reference would give
        /// every child core a side-table reference count, an allocation and the slow path on each
        /// of its retains and releases, about 1,500 instructions a store per request. An ended
        /// store keeps nothing a parent's change must reach (see `close()`).
        var children: [StoreCore] {
            get { extras?.children ?? [] }
            _modify { yield &extrasForChange().children }
        }
        /// This store's own instances of cached-scope registrations it inherited from an ancestor,
        /// by `ObjectIdentifier` of the registration. The entry holds the registration, so that
        /// identifier cannot be reused while the entry exists.
        var inheritedSlots: [ObjectIdentifier: (registration: AnyRegistration, slot: InstanceSlot)] {
            get { extras?.inheritedSlots ?? .init() }
            _modify { yield &extrasForChange().inheritedSlots }
        }
        /// The elements contributed to collections, by `ObjectIdentifier` of the element type, in
        /// the order contributed (see `DependencyStore+Collections.swift`).
        var contributions: [ObjectIdentifier: [AnyRegistration]] {
            get { extras?.contributions ?? .init() }
            _modify { yield &extrasForChange().contributions }
        }
        /// The decorators added to this store, by `ObjectIdentifier` of the type they decorate, in
        /// the order added.
        var decorators: [ObjectIdentifier: [Decorator]] {
            get { extras?.decorators ?? .init() }
            _modify { yield &extrasForChange().decorators }
        }
        /// What assemblies (or anyone) declared that some assembly must register, in order.
        var requirements: [Requirement] {
            get { extras?.requirements ?? [] }
            _modify { yield &extrasForChange().requirements }
        }
        /// Every registration (or named contribution) that replaced another of this store, in
        /// order; one entry per pair of places, however often it happened.
        var overrides: [OverrideRecord] {
            get { extras?.overrides ?? [] }
            _modify { yield &extrasForChange().overrides }
        }
        /// What `unregister` and `unload` removed, by type and name, for the diagnostic of a
        /// resolve that comes after; forgotten when something is registered there again. The
        /// sharing rule reads it too (`Removal.epoch`, `StoreCore.checkShadowing`): forget an entry
        /// only when the type is registered again, or stores layered over this one may miss an
        /// overlap.
        var removals: [TypeAndName: Removal] {
            get { extras?.removals ?? .init() }
            _modify { yield &extrasForChange().removals }
        }
        /// The assemblies applied to this store (nested ones too) and not unloaded since, by type,
        /// with the assemblies that applied them: what `unload` tells a never-applied assembly by.
        var appliedAssemblies: [ObjectIdentifier: [ObjectIdentifier]] {
            get { extras?.appliedAssemblies ?? .init() }
            _modify { yield &extrasForChange().appliedAssemblies }
        }
        /// The assemblies unloaded from this store and not applied again since.
        var unloadedAssemblies: Set<ObjectIdentifier> {
            get { extras?.unloadedAssemblies ?? .init() }
            _modify { yield &extrasForChange().unloadedAssemblies }
        }
        /// Collections (by element type) whose every element an `unload` removed: what a resolve
        /// of the collection that finds nothing names.
        var elementRemovals: [ObjectIdentifier: Removal] {
            get { extras?.elementRemovals ?? .init() }
            _modify { yield &extrasForChange().elementRemovals }
        }
        /// What `onCloseFailure` installed, `nil` for none; see `Closing/`.
        var closeFailureHandler: (@Sendable (CloseFailure) -> Void)? {
            get { extras?.closeFailureHandler }
            _modify { yield &extrasForChange().closeFailureHandler }
        }
        /// The store's `closeQueue`, once it has one.
        var closeQueue: CloseQueue? {
            get { extras?.closeQueue }
            _modify { yield &extrasForChange().closeQueue }
        }
        /// What `useCacheClock` installed, `nil` for none; see `CacheClock`.
        var cacheClock: InstalledClock? {
            get { extras?.cacheClock }
            _modify { yield &extrasForChange().cacheClock }
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
            !shadowsAncestors && hasNoDecoratorsNorContributions && observers == nil
        }

        /// The type and name of everything this store registers or provides itself.
        var ownKeys: [TypeAndName] {
            unnamed.values.map { TypeAndName(type: ObjectIdentifier($0.type), name: nil) }
                + named.keys.map { TypeAndName(type: $0.type, name: $0.name) }
                + providedValues.keys.map { TypeAndName(type: $0, name: nil) }
        }

        /// Every registration, provided values turned into theirs first (see `ProvidedValue`).
        var all: [AnyRegistration] {
            mutating get {
                registerProvidedValues()
                return unnamed.values + Array(named.values)
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
            contributions.values.flatMap { $0 }
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
            named.values.forEach(discard)
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
                named[NamedKey(type: type, name: name)] != nil
            } else {
                unnamed.contains(type) || providedValues.contains(type)
            }
        }

        /// The registration for `type` and `name`, as it is stored: `nil` for a value provided and
        /// not yet turned into its registration. What a resolve looks at first.
        @inline(__always)
        func stored(_ type: ObjectIdentifier, _ name: String?) -> AnyRegistration? {
            if let name { named[NamedKey(type: type, name: name)] } else { unnamed[type] }
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
                if let name { return named[NamedKey(type: type, name: name)] }
                return unnamed[type] ?? registerProvidedValue(type)
            }
            set {
                if let name {
                    named[NamedKey(type: type, name: name)] = newValue
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
    /// nor destroys them. Only ever touched under the registry's lock, through the registry.
    final class Extras {
        @exclusivity(unchecked) var named: [NamedKey: AnyRegistration] = .init()
        @exclusivity(unchecked) var children: [StoreCore] = []
        @exclusivity(unchecked) var inheritedSlots:
            [ObjectIdentifier: (registration: AnyRegistration, slot: InstanceSlot)] = .init()
        @exclusivity(unchecked) var contributions: [ObjectIdentifier: [AnyRegistration]] = .init()
        @exclusivity(unchecked) var decorators: [ObjectIdentifier: [Decorator]] = .init()
        @exclusivity(unchecked) var requirements: [Requirement] = []
        @exclusivity(unchecked) var overrides: [OverrideRecord] = []
        @exclusivity(unchecked) var removals: [TypeAndName: Removal] = .init()
        @exclusivity(unchecked) var appliedAssemblies: [ObjectIdentifier: [ObjectIdentifier]] = .init()
        @exclusivity(unchecked) var unloadedAssemblies = Set<ObjectIdentifier>()
        @exclusivity(unchecked) var elementRemovals: [ObjectIdentifier: Removal] = .init()
        @exclusivity(unchecked) var closeFailureHandler: (@Sendable (CloseFailure) -> Void)?
        @exclusivity(unchecked) var closeQueue: CloseQueue?
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

/// A store's core, held weakly: what a `ResolveObservation` holds, which must not keep a store alive.
struct WeakCore {
    weak var core: StoreCore?
}
