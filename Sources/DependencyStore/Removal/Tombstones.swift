internal import DependencyStoreAtomics

/// What lets a resolution chain that began before an `unload` (or `unregister`) finish as if the
/// removal came after it: a logout that races a background refresh must not trap the refresh
/// halfway through its factories.
///
/// Every removal takes the next *removal epoch*, a process-wide count. A chain (the outermost
/// build on a thread and everything its factories resolve) publishes the epoch it began in, in a
/// cell of its thread's `ResolutionStack`. A removal that finds a chain begun before it keeps
/// what it removed as a *tombstone batch*; a resolve of that chain that finds nothing (the miss
/// path, never the hit path) looks there, and builds what the removal took away. Once no chain
/// begun before a batch is running, the batch goes, and with it the last reference to what it
/// removed.
///
/// The order is the epoch's:
/// - A removal increments the epoch inside the critical section of its store's lock in which it
///   removes, so a chain whose epoch is the new one or later looks up (under that lock) after
///   everything was removed: it is after the removal, and sees none of it.
/// - A chain publishes its epoch, then reads it again, until the two agree; a removal increments,
///   then reads the cells. Both sequentially consistent, so one of them sees the other: a chain
///   begun before a removal is always found by it, and its batch kept.
/// - The outermost registration of a chain was looked up before the chain began. The lookup
///   records the epoch it ran in, under the lock of the store that holds the registration (an
///   `.unkept` lookup carries it, others leave it in `ResolutionStack.lookupEpoch`); a chain that
///   begins in a later epoch may have raced a removal of that very registration: unless the store
///   still resolves to it, the resolve looks it up again, after the removal.
///
/// The instances the store kept for what it removed are not in the batch: the removal closes and
/// releases them at once, as it always did. What a chain builds from a tombstone is kept for the
/// rest of the chain in slots of its own (`ChainSlots`: on the thread's stack, or in an `async`
/// chain's `AsyncChainEpoch`), so a `.singleton` is built once in it, and closed when the chain
/// ends, as the removal would have closed it had it come after. (So a chain that resolved the
/// session's token before the removal and resolves it again after gets two tokens: the first one
/// closed by the removal.) A build under way in a slot the removal took away goes to the chain's
/// slot too, when it ends (see `keep`): the store no longer holds the slot, so keeping it there
/// would keep it for nobody, and close it never.
enum Tombstones {
    // The removal epoch, the count of kept batches and the records of what threads and chains
    // publish are C globals (`DependencyStoreAtomics`), which every lookup of a registration to
    // build reads with no `swift_once` check, and every removal and store walks with no lock.

    /// What serialises the writers of the batches kept: a removal that keeps one (`bury`), and
    /// the end of a chain that lets go of those no running chain needs (`prune`), which only ever
    /// tries it: a resolve never waits for it, and a read of the batches never takes it. It holds
    /// the lists of batches no longer published that a reader was still reading when they went
    /// (retired): each holds only batches the published list holds too, so releasing one runs no
    /// `deinit`, until a prune takes a batch out of the published list; that prune takes these
    /// out with it. (Not private: `WaitTests` holds it to show that no resolve waits for it.)
    static let writers = Lock([UnsafeMutableRawPointer]())

    /// The batches kept, as the miss path reads them: an immutable list, published through
    /// `dependency_store_tombstone_list` and read under the thread's hazard, as a store's table of
    /// shared instances is (see `SharedInstances`).
    final class BatchList {
        let batches: [Batch]

        init(_ batches: [Batch]) {
            self.batches = batches
        }
    }

    /// What a thread with a resolution stack, or a running `async` chain, publishes for others to
    /// read: a record claimed from the process's list (`dependency_store_chain_cells`), with no
    /// lock, and given back when the thread exits or the chain ends.
    struct Cells {
        let record: UnsafeMutablePointer<dependency_store_chain_cells>

        /// 0 while no chain runs there, else the removal epoch the chain began in: what removals
        /// read.
        var chain: UnsafeMutablePointer<dependency_store_atomic_word> { dependency_store_cells_chain(record) }

        /// The address of the table of shared instances the thread is reading, if any: what a
        /// store that replaces its table reads (see `SharedInstances`). An `async` chain's stays
        /// `nil`: a thread reads a table, not a chain.
        var hazard: UnsafeMutablePointer<dependency_store_atomic_address> { dependency_store_cells_hazard(record) }

        /// Claims a record, zeroed.
        static func make() -> Cells {
            Cells(record: dependency_store_claim_cells())
        }

        /// Gives the record back (its thread exits, or its chain ended), and lets go of the
        /// batches no running chain needs.
        func free() {
            dependency_store_unclaim_cells(record)
            if _slowPath(anyKept) { prune() }
        }
    }

    /// What one removal took from one store.
    struct Batch {
        /// The store it removed from. Strongly: a weak reference would give the store's core a
        /// side table, and every later retain and release of it the slow path; the batch goes
        /// once the chains older than it end.
        let core: StoreCore
        let epoch: Int
        let registrations: [AnyRegistration]
        /// `unload(SessionAssembly.self)`: what the close of an instance built from it names.
        let how: String
    }

    /// The epoch now: what a lookup records.
    @inline(__always)
    static var currentEpoch: Int {
        dependency_store_current_removal_epoch()
    }

    /// Whether any batch is kept.
    @inline(__always)
    static var anyKept: Bool {
        dependency_store_tombstones_kept()
    }

    // MARK: - Chains

    /// Publishes, in `cell`, the epoch a chain begins in, and returns it.
    @inline(__always)
    static func begin(in cell: UnsafeMutablePointer<dependency_store_atomic_word>) -> Int {
        dependency_store_begin_chain(cell)
    }

    /// Clears `cell` at the end of its chain, and lets go of the batches no running chain needs.
    @inline(__always)
    static func end(in cell: UnsafeMutablePointer<dependency_store_atomic_word>) {
        dependency_store_end_chain(cell)
        if _slowPath(anyKept) { prune() }
    }

    /// Lets go of the batches no running chain needs, unless another thread writes the batches
    /// now: that writer then does it for this one (`pruneIfRequested`), so a chain's end never
    /// waits for the lock. Call with no lock held.
    @inline(never)
    static func prune() {
        let requested = dependency_store_prune_requested()
        dependency_store_store_release_word(requested, 1)
        dependency_store_fence()
        while dependency_store_load_acquire_word(requested) != 0 {
            guard
                let released = writers.withLockIfFree({ retired in
                    dependency_store_store_relaxed(requested, 0)
                    return prune(&retired)
                })
            else { return }
            // Released here, with no lock held: a registration's factory may hold what has a
            // deinit. Each list once no reader reads it.
            for address in released {
                waitUntilUnread(address)
                Published<BatchList>.release(address)
            }
        }
    }

    /// `prune()`, if the end of a chain asked for it while this thread held the writers' lock.
    /// Call with no lock held: what is let go of may run a `deinit`.
    static func pruneIfRequested() {
        dependency_store_fence()
        if dependency_store_load_acquire_word(dependency_store_prune_requested()) != 0 { prune() }
    }

    /// The published list, not retained: valid under the writers' lock, or a hazard.
    private static var publishedList: BatchList? {
        dependency_store_load_seq_cst(dependency_store_tombstone_list()).map {
            Published<BatchList>.at($0)
        }
    }

    /// Publishes `batches` in place of the list published now, and returns that list (retained by
    /// its publishing) for the caller to let go of. Call with the writers' lock held.
    private static func publish(_ batches: [Batch]) -> UnsafeMutableRawPointer? {
        let list = batches.isEmpty ? nil : Published.retained(BatchList(batches))
        return dependency_store_exchange(dependency_store_tombstone_list(), list)
    }

    // MARK: - Removals

    /// Called by a removal, inside the critical section of `core`'s lock in which it removed
    /// `registrations`: takes the next epoch, and keeps them as a batch if a chain begun before
    /// it is running. Returns the epoch, which the store records with the removal (`Removal.epoch`).
    @discardableResult
    static func bury(_ registrations: [AnyRegistration], from core: StoreCore, how: String) -> Int {
        let removal = dependency_store_next_removal_epoch()
        guard !registrations.isEmpty else { return removal }
        writers.withLock { retired in
            guard dependency_store_chains_begun_before(removal) else { return }
            let batch = Batch(core: core, epoch: removal, registrations: registrations, how: how)
            dependency_store_add_tombstone_batches(1)
            guard let old = publish((publishedList?.batches ?? []) + [batch]) else { return }
            // The new list holds every batch of the old one: releasing the old runs no deinit,
            // here under the store's lock, once no reader reads it; until then it waits.
            if dependency_store_is_read(old) {
                retired.append(old)
            } else {
                Published<BatchList>.release(old)
            }
        }
        return removal
    }

    /// Publishes the batches a chain begun before them still needs, in place of the list
    /// published now, and returns the lists that held the others (that one and the retired ones),
    /// for the caller to release once it has dropped the lock, each once no reader reads it.
    private static func prune(_ retired: inout [UnsafeMutableRawPointer]) -> [UnsafeMutableRawPointer] {
        guard let batches = publishedList?.batches else { return [] }
        let oldest = dependency_store_oldest_chain()
        let needed = batches.filter { oldest != 0 && oldest < $0.epoch }
        guard needed.count != batches.count else { return [] }
        dependency_store_add_tombstone_batches(needed.count - batches.count)
        var released = retired
        retired = []
        if let old = publish(needed) { released.append(old) }
        return released
    }

    /// `body` on the batches kept, read with no lock: under this thread's hazard, which nothing
    /// else holds while a resolve looks for a registration.
    private static func withBatches<R>(_ body: ([Batch]) -> R) -> R {
        ResolutionStack.withCurrent { stack in
            let hazard = stack.hazard
            assert(dependency_store_load_seq_cst(hazard) == nil, "a thread reads one published table at a time")
            defer { unprotect(hazard) }
            guard let list = protect(dependency_store_tombstone_list(), in: hazard) else { return body([]) }
            return Published<BatchList>.borrow(list) { body($0.batches) }
        }
    }

    // MARK: - Tables of shared instances

    /// Reads the address published in `published` into `hazard`, until the two agree, and returns
    /// it: from then on, the table there is not freed until `hazard` no longer holds it (see
    /// `waitUntilUnread`). Call `unprotect` after, whatever this returned.
    @inline(__always)
    static func protect(
        _ published: UnsafeMutablePointer<dependency_store_atomic_address>,
        in hazard: UnsafeMutablePointer<dependency_store_atomic_address>
    ) -> UnsafeMutableRawPointer? {
        var address = dependency_store_load_seq_cst(published)
        while let candidate = address {
            _ = dependency_store_exchange(hazard, candidate)
            let now = dependency_store_load_seq_cst(published)
            if now == candidate { return candidate }
            address = now
        }
        return nil
    }

    /// Clears `hazard`, once what was read through it has been copied out.
    @inline(__always)
    static func unprotect(_ hazard: UnsafeMutablePointer<dependency_store_atomic_address>) {
        dependency_store_store_release(hazard, nil)
    }

    /// Returns once no reader reads the table at `address`, which is no longer published: the
    /// caller may free it then. A reader holds a table for one dictionary lookup and one retain,
    /// and runs nobody's code meanwhile, so the wait is short and cannot wait for the caller. Call
    /// with no lock held (see `RetiredTables`): the walk of the hazards takes none either.
    ///
    /// The order: a reader publishes its hazard, then reads the published address again; a store
    /// publishes another address, then reads the hazards; all sequentially consistent. So a
    /// reader that saw `address` still published has its hazard seen by the store, and the store
    /// waits; a reader that publishes its hazard after the store read it finds `address` no
    /// longer published, and does not use it.
    static func waitUntilUnread(_ address: UnsafeMutableRawPointer) {
        while dependency_store_is_read(address) {
            dependency_store_yield()
        }
    }

    // MARK: - The miss path

    /// The registration of `key` and `name` that a removal in `store`, or one of its ancestors,
    /// took away after the chain running on this thread began, with what the removal was.
    static func registration(
        _ key: ObjectIdentifier, name: String?, resolvingIn store: DependencyStore, chainBegun: Int
    ) -> (registration: AnyRegistration, how: String)? {
        let cores = Set(sequence(first: store, next: \.parent).map { ObjectIdentifier($0.core) })
        return withBatches { batches in
            // The latest removal first: a type registered again and removed again is its last one.
            for batch in batches.reversed() where batch.epoch > chainBegun {
                guard cores.contains(ObjectIdentifier(batch.core)) else { continue }
                for registration in batch.registrations
                where ObjectIdentifier(registration.type) == key && registration.name == name
                    && !registration.role.isContribution
                {
                    return (registration, batch.how)
                }
            }
            return nil
        }
    }
}

extension Tombstones {
    /// How the removal that took `registration` away was made (`unload(SessionAssembly.self)`),
    /// if a batch keeps it.
    static func removal(of registration: AnyRegistration) -> String? {
        withBatches { batches in
            batches.last { batch in batch.registrations.contains { $0 === registration } }?.how
        }
    }
}
