internal import DependencyStoreAtomics

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
    /// instance `tables` may hold (`InstanceSlot.discard()`): the caller releases them once it has
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
