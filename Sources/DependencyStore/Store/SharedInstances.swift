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
/// `unprotect`). A store that takes a table down or replaces it waits, under its lock, until no
/// hazard holds the old address (`Tombstones.waitUntilUnread`): a read is one dictionary lookup
/// and one retain, with nobody's code in it. Then it releases the table, there and then, as
/// before the table existed: a table holds its instances strongly, but never alone (each is held
/// by its slot too, or by the discard that takes the table down until it has closed the
/// instance), so that release runs no `deinit`, and every instance's last release stays where
/// it was, on the thread that discarded it, after it dropped the lock.
final class SharedInstances {
    /// The boxes of `.singleton` and custom-scoped instances (the only ones shared, all of
    /// lifetime `.cached`), by type.
    let boxes: TypeTable<InstanceBox>

    init(_ boxes: TypeTable<InstanceBox>) {
        self.boxes = boxes
    }
}

extension StoreCore {
    /// The instance of the unnamed registration for `key` that this store shares, if it has
    /// published it: read without the store's lock.
    @inline(__always)
    func sharedInstance(_ key: ObjectIdentifier) -> InstanceBox? {
        // Nothing published (most stores): one relaxed load.
        guard dependency_store_load_relaxed(sharedInstancesBits) != 0 else { return nil }
        return readSharedInstance(key)
    }

    @inline(never)
    private func readSharedInstance(_ key: ObjectIdentifier) -> InstanceBox? {
        ResolutionStack.withCurrent { stack in
            let hazard = stack.hazard
            // Cleared after the entry (and its instance) is copied out: the table may go then.
            defer { Tombstones.unprotect(hazard) }
            guard let table = Tombstones.protect(sharedInstancesCell, in: hazard) else { return nil }
            return Unmanaged<SharedInstances>.fromOpaque(table)._withUnsafeGuaranteedRef { $0.boxes[key] }
        }
    }

    /// Where the value of the instance of the unnamed registration for `key` that this store
    /// shares is, if it has published it: read without the store's lock, under `hazard`, which
    /// stays set when an address comes back, so that the value is not freed while the caller
    /// copies it; the caller then clears it (`Tombstones.unprotect`). No retain of the box: the
    /// table holds it, and the hazard the table. When `nil` comes back, `hazard` is clear.
    @inline(__always)
    func sharedInstanceValue(
        _ key: ObjectIdentifier, protectedBy hazard: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> UnsafeRawPointer? {
        // Nothing published (most stores): one relaxed load.
        guard dependency_store_load_relaxed(sharedInstancesBits) != 0 else { return nil }
        return readSharedInstanceValue(key, protectedBy: hazard)
    }

    @inline(never)
    private func readSharedInstanceValue(
        _ key: ObjectIdentifier, protectedBy hazard: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> UnsafeRawPointer? {
        let address = Tombstones.protect(sharedInstancesCell, in: hazard).flatMap { table in
            Unmanaged<SharedInstances>.fromOpaque(table)._withUnsafeGuaranteedRef {
                $0.boxes.withUnretained(key) { box in UnsafeRawPointer(box.valueAddress) }
            }
        }
        if address == nil { Tombstones.unprotect(hazard) }
        return address
    }

    /// Publishes `box`, the built instance of this store's unnamed registration for `key`, which
    /// `slot` keeps, for resolves through layered stores. Call with the registry's lock held: it
    /// reads the table it replaces with no hazard, which is safe because every replace of this
    /// store's table runs under that lock.
    func share(_ box: InstanceBox, for key: ObjectIdentifier, keptIn slot: InstanceSlot) {
        let old = dependency_store_load_seq_cst(sharedInstancesCell).map {
            Unmanaged<SharedInstances>.fromOpaque($0).takeUnretainedValue()
        }
        // Published meanwhile by another request that missed it at the same time.
        if old?.boxes[key] === box { return }
        var boxes = old?.boxes ?? TypeTable()
        boxes[key] = box
        let table = Unmanaged.passRetained(SharedInstances(boxes)).toOpaque()
        slot.sharedIn = sharedInstancesCell
        Self.replace(in: sharedInstancesCell, with: table)
    }

    /// Takes the published table down, if any. Call with the registry's lock held.
    func unshareAll() {
        Self.replace(in: sharedInstancesCell, with: nil)
    }

    /// Publishes `table` (retained) in `cell` and releases what it replaces, once no reader reads
    /// it. Call with the lock of the store `cell` belongs to held.
    static func replace(
        in cell: UnsafeMutablePointer<UnsafeMutableRawPointer?>, with table: UnsafeMutableRawPointer?
    ) {
        guard let old = dependency_store_exchange(cell, table) else { return }
        Tombstones.waitUntilUnread(old)
        Unmanaged<SharedInstances>.fromOpaque(old).release()
    }
}
