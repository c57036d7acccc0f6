internal import DependencyStoreAtomics

// The sharing rule (Docs/Lifetimes.md), in one place: whether a resolve through a store layered
// over another (a request's over the app's) gets the instance the other keeps, or builds its own,
// and how the shared instances are published for such resolves to read without a lock.
//
// - What a store records: which types it ever registered (`keyFilter`), how many registrations
//   and removals it has had (`registrationGeneration`), and whether it stopped sharing
//   (`SharingRecord.shadowsAncestors`, mirrored in `stopsSharingWord`).
// - When a layered store stops sharing: it registers a type an ancestor registers too (checked at
//   its registration, `noteShadowing`, and again when an ancestor registers later, by
//   `checkShadowingIfStale`), or gets a decorator, a contribution or an observer.
// - Where the rule is applied: `DependencyStore.findInherited` (a resolve) and
//   `DependencyStore.findForFirstRead` (a property's first read, with no lock); a build that
//   resolves a value only a layered store has is that store's own (`Borrow`, in
//   `ResolutionStack`).
// - How shared instances are read with no lock: `SharedInstances`, below.

extension StoreCore {
    /// What the sharing rule records of a store, in its registry, under its lock.
    struct SharingRecord {
        /// Set when this store registers a type (and name) that an ancestor registers too, or when
        /// its next check finds that an ancestor registered one this store already has
        /// (`StoreCore.sharesAncestorsInstances(_:)`), or when it first gets a decorator, a
        /// contribution or an observer: from then on it never shares an ancestor's instances (see
        /// `sharesAncestorsInstances`). Never cleared. Set only by `StoreCore.stopsSharing(_:)`,
        /// which mirrors it in a word read with no lock.
        fileprivate(set) var shadowsAncestors = false
        /// The removal epoch when the store last checked its types against its ancestors'
        /// (`StoreCore.checkShadowing`), or was made: an ancestor's removal with a later epoch
        /// happened since. Set only in this file, under the lock (or by `startChecked`, before
        /// anyone else holds the core).
        fileprivate(set) var checkedRemovalEpoch = 0
    }

    /// Records, for a store made over a parent, that nothing its ancestors have registered so far
    /// shadows it: it registers nothing yet. Before anyone else holds the core.
    func startChecked() {
        dependency_store_store_relaxed(checkedAncestorsGeneration, ancestorsGeneration)
        // After the generation: a removal between the two reads is in neither, so the next
        // change or resolve checks again, and a removal the epoch counts came before the store
        // registered anything.
        let epoch = dependency_store_removal_epoch_now()
        withUnsafeMutablePointerToHeader { $0.pointee.sharing.checkedRemovalEpoch = epoch }
    }

    /// The address of the instances this store shares with layered stores, published for them to
    /// read without the lock (see `SharedInstances`), or `nil`; a field of `words`. Changed only
    /// through `SharedInstances`' functions, under the registry's lock.
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

    /// Whether this store may register `key`: `false` means it never has (see `keyFilter`).
    @inline(__always)
    func mayRegister(_ key: ObjectIdentifier) -> Bool {
        let (word, bit) = Self.filterPosition(of: key)
        return dependency_store_load_relaxed(keyFilter(word)) & bit != 0
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

    /// The sum of every ancestor's `registrationGeneration`, each read with acquire ordering: it
    /// changes when any of them registers or removes something, since each only grows.
    @inline(__always)
    var ancestorsGeneration: Int {
        withParent { $0.core.generationWithAncestors } ?? 0
    }

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

    /// The sum of the ancestors' `registrationGeneration` (`ancestorsGeneration`) when every type
    /// this store registers was last checked against what they register: when it is still the
    /// sum, no ancestor registered anything since, so the sharing rule's record of overrides
    /// (`Registry.shadowsAncestors`) is up to date. A type this store registers later is checked
    /// by its registration (`noteShadowing`). Written under the registry's lock; read with none.
    var checkedAncestorsGeneration: UnsafeMutablePointer<dependency_store_atomic_word> {
        dependency_store_core_checked_ancestors_generation(words)
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

    /// Nonzero once the store stopped sharing its ancestors' instances (`Registry.shadowsAncestors`
    /// was set, by an override, a decorator, a contribution or an observer), never cleared: read
    /// with no lock by a property's first read through this store of a type it never registered
    /// (`DependencyStore.findForFirstRead`), which while it is zero can go straight to
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
        registry.sharing.shadowsAncestors = true
        dependency_store_or(stopsSharingWord, 1)
    }

    /// Whether the store may share its ancestors' instances and has no observers: `false` once
    /// `stopsSharing` ran. A relaxed load, with no lock.
    @inline(__always)
    var mayShareWithoutObservers: Bool {
        dependency_store_load_relaxed(stopsSharingWord) == 0
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
        guard !registry.sharing.shadowsAncestors else { return }
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
        if !registry.sharing.shadowsAncestors {
            let since = registry.sharing.checkedRemovalEpoch
            if registry.ownKeys.contains(where: { anAncestorRegisters($0.type, name: $0.name, orRemovedAfter: since) })
            {
                stopsSharing(&registry)
            }
        }
        registry.sharing.checkedRemovalEpoch = epoch
        // Release: a property's first read that sees this sum, read with no lock, sees the word
        // `stopsSharing` set (`checkedGeneration`).
        dependency_store_store_release_word(checkedAncestorsGeneration, generation)
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
}

/// The instances a store shares with the stores layered over it (the sharing rule, see
/// Docs/Lifetimes.md), published so that a resolve through such a store reads them without the
/// store's lock: a server's request stores all fall through to the app's store, and would
/// otherwise all take its one lock.
///
/// A table, by type, of the built instances of the store's own unnamed `.singleton` and
/// custom-scoped registrations that a resolve through a layered store has asked for, added as
/// they are (under the store's lock) and never changed once published. Anything that could make
/// an entry wrong takes the whole table down, under the store's lock: the discard of an instance
/// it holds (a reset, a removal, a new registration, the store's end), observers installed, a
/// registration found to depend on values of layered stores. The next resolves take the lock
/// and add their instances again.
///
/// A reader publishes the table's address in its thread's hazard, then checks the store still
/// publishes it, and clears the hazard once it has copied its entry out (`Tombstones.protect`,
/// `unprotect`): a read is one dictionary lookup and one retain, with nobody's code in it.
///
/// No thread waits for a reader while it holds a lock. A table the store stops publishing (it
/// publishes a bigger one, or takes it down) is *retired*, under the store's lock: released at
/// once if no hazard holds it, else put on the store's list of retired tables, from which any
/// later change under the lock releases those no hazard holds any more. Releasing one there runs
/// no `deinit`: a table holds its instances strongly, but never alone, since each is held by its
/// slot until a discard, and a discard of a published instance takes the current table down and
/// the whole list of retired ones with it (`takeDownForDiscard`), which the discarding thread
/// releases once it has dropped the lock, waiting for the tables' last readers then
/// (`RetiredTables`), and before it lets go of the instances. So every instance's last release
/// stays where it was before tables existed: on the thread that discarded it, after its lock.
final class SharedInstances {
    /// The boxes of `.singleton` and custom-scoped instances (the only ones shared, all of
    /// lifetime `.cached`), by type.
    let boxes: TypeTable<InstanceBox>
    /// The next table on its store's list of retired tables, once it is on it: read and written
    /// only under that store's lock, or by the one thread that took the list out of it.
    var nextRetired: UnsafeMutableRawPointer?

    init(_ boxes: TypeTable<InstanceBox>) {
        self.boxes = boxes
    }
}

extension StoreCore {
    /// The instance of the unnamed registration for `key` that this store shares, if it has
    /// published it: read without the store's lock, retained.
    @inline(__always)
    func sharedInstance(_ key: ObjectIdentifier) -> InstanceBox? {
        // Nothing published (most stores): one relaxed load.
        guard dependency_store_is_set_relaxed(sharedInstancesCell) else { return nil }
        return readSharedInstance(key)
    }

    @inline(never)
    private func readSharedInstance(_ key: ObjectIdentifier) -> InstanceBox? {
        ResolutionStack.withCurrent { stack in
            guard let box = readSharedBox(key, protectedBy: stack.hazard) else { return nil }
            // Cleared once the box is retained: the table may go then.
            defer { Tombstones.unprotect(stack.hazard) }
            return box.takeUnretainedValue()
        }
    }

    /// Where the value of the instance of the unnamed registration for `key` that this store
    /// shares is, if it has published it: read without the store's lock, under `hazard`, which
    /// stays set when an address comes back, so that the value is not freed while the caller
    /// copies it; the caller then clears it (`Tombstones.unprotect`). No retain of the box: the
    /// table holds it, and the hazard the table. When `nil` comes back, `hazard` is clear.
    @inline(__always)
    func sharedInstanceValue(
        _ key: ObjectIdentifier, protectedBy hazard: UnsafeMutablePointer<dependency_store_atomic_address>
    ) -> UnsafeRawPointer? {
        // Nothing published (most stores): one relaxed load.
        guard dependency_store_is_set_relaxed(sharedInstancesCell) else { return nil }
        return readSharedBox(key, protectedBy: hazard).map {
            UnsafeRawPointer($0._withUnsafeGuaranteedRef { $0.valueAddress })
        }
    }

    /// The one read of the published table: the box for `key`, not retained, with `hazard` left
    /// set, which keeps the table, and so the box, alive; `nil`, with `hazard` clear, for none.
    @inline(never)
    private func readSharedBox(
        _ key: ObjectIdentifier, protectedBy hazard: UnsafeMutablePointer<dependency_store_atomic_address>
    ) -> Unmanaged<InstanceBox>? {
        let box = Tombstones.protect(sharedInstancesCell, in: hazard).flatMap { table in
            Published<SharedInstances>.borrow(table) { $0.boxes.withUnretained(key) { Unmanaged.passUnretained($0) } }
        }
        if box == nil { Tombstones.unprotect(hazard) }
        return box
    }

    /// Publishes `box`, the built instance of this store's unnamed registration for `key`, which
    /// `slot` keeps, for resolves through layered stores. Call with the registry's lock held: it
    /// reads the table it replaces with no hazard, which is safe because every replace of this
    /// store's table runs under that lock.
    func share(_ box: InstanceBox, for key: ObjectIdentifier, keptIn slot: InstanceSlot) {
        let old = dependency_store_load_seq_cst(sharedInstancesCell).map(Published<SharedInstances>.at)
        // Published meanwhile by another request that missed it at the same time.
        if old?.boxes[key] === box { return }
        var boxes = old?.boxes ?? TypeTable()
        boxes[key] = box
        let table = Published.retained(SharedInstances(boxes))
        slot.sharedIn = sharedTables
        Self.replace(in: sharedTables, with: table)
    }

    /// Takes the published table down, if any. Call with the registry's lock held.
    func unshareAll() {
        Self.replace(in: sharedTables, with: nil)
    }

    /// Publishes `table` (retained) in `tables` and retires what it replaces. Call with the lock
    /// of the store `tables` belongs to held.
    private static func replace(
        in tables: UnsafeMutablePointer<dependency_store_shared_tables>, with table: UnsafeMutableRawPointer?
    ) {
        let retired = dependency_store_shared_retired(tables)
        // What no hazard holds any more goes first: no reader can find a table on the list again.
        var kept: UnsafeMutableRawPointer?
        var next = retired.pointee
        while let address = next {
            next = Published<SharedInstances>.at(address).nextRetired
            if dependency_store_is_read(address) {
                Published<SharedInstances>.at(address).nextRetired = kept
                kept = address
            } else {
                Published<SharedInstances>.release(address)
            }
        }
        retired.pointee = kept
        guard let old = dependency_store_exchange(dependency_store_shared_published(tables), table) else { return }
        if dependency_store_is_read(old) {
            Published<SharedInstances>.at(old).nextRetired = retired.pointee
            retired.pointee = old
        } else {
            Published<SharedInstances>.release(old)
        }
    }

    /// Takes the published table down, with the list of retired ones, for a discard of an
    /// instance `tables` may hold (`InstanceSlot.discard(of:into:)`): the caller releases them once it has
    /// dropped the lock, before the instance. Call with the lock of the store `tables` belongs to
    /// held.
    static func takeDownForDiscard(
        _ tables: UnsafeMutablePointer<dependency_store_shared_tables>
    ) -> RetiredTables? {
        let retired = dependency_store_shared_retired(tables)
        var head = retired.pointee
        retired.pointee = nil
        if let old = dependency_store_exchange(dependency_store_shared_published(tables), nil) {
            Published<SharedInstances>.at(old).nextRetired = head
            head = old
        }
        return head.map(RetiredTables.init)
    }
}

/// Tables of shared instances that their store no longer publishes, which readers may still be
/// reading, taken down by a discard: their end waits until no reader reads them, then releases
/// them. Let go of them with no lock held, and before the instances the discard took out: the wait
/// is short (a reader copies one entry out, and runs nobody's code), but it is a wait, and a
/// thread waits with no lock held.
final class RetiredTables {
    private let head: UnsafeMutableRawPointer

    init(_ head: UnsafeMutableRawPointer) {
        self.head = head
    }

    deinit {
        var next = Optional(head)
        while let address = next {
            next = Published<SharedInstances>.at(address).nextRetired
            Tombstones.waitUntilUnread(address)
            Published<SharedInstances>.release(address)
        }
    }
}
