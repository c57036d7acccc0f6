/// What a chain built from registrations a removal took away after it began, one slot per
/// registration: a `.singleton` is built once in the chain. When the chain ends, they are closed,
/// as the removal would have closed them had it come after the chain.
struct ChainSlots {
    private var entries: [ObjectIdentifier: Entry] = .init()

    private struct Entry {
        let registration: AnyRegistration
        let slot: InstanceSlot
        /// The store that resolved it, which closes what the chain built in it.
        let core: StoreCore
        /// The removal, for the close's trigger.
        let how: String
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The slot in which the chain keeps what it builds from `registration`, which a removal
    /// described by `how` took away after the chain began.
    mutating func slot(for registration: AnyRegistration, in store: DependencyStore, removedBy how: String)
        -> InstanceSlot
    {
        let id = ObjectIdentifier(registration)
        if let existing = entries[id] { return existing.slot }
        let slot = InstanceSlot(belongsToAChain: true)
        entries[id] = Entry(registration: registration, slot: slot, core: store.core, how: how)
        return slot
    }

    /// Closes what the chain built, each store's through that store. Call it with no lock held:
    /// it runs release hooks.
    consuming func close() {
        var byStore: [ObjectIdentifier: [Entry]] = [:]
        for entry in entries.values { byStore[ObjectIdentifier(entry.core), default: []].append(entry) }
        for entries in byStore.values {
            let store = DependencyStore.resolving(through: entries[0].core)
            var discarded: [DiscardedInstance] = []
            store.registry.withLock { _ in
                for entry in entries { entry.slot.discard(of: entry.registration, into: &discarded) }
            }
            store.close(discarded.closes(), because: "the end of a resolve that began before \(entries[0].how)")
        }
    }
}

/// The removal epoch an `async` chain began in, published for as long as the object lives: every
/// task of the chain holds it through `AsyncResolution`, so it lives until the last of them ends,
/// which is the end of the chain. What the chain built from tombstones is closed then.
final class AsyncChainEpoch: @unchecked Sendable {
    private let cells: Tombstones.Cells
    /// The epoch the chain began in.
    let begun: Int
    /// The chain's tasks may run on several threads at once (`async let`).
    private let slots = Lock(ChainSlots())

    init() {
        cells = .make()
        begun = Tombstones.begin(in: cells.chain)
    }

    /// The slot in which the chain keeps what it builds from `registration` (see `ChainSlots`).
    func slot(for registration: AnyRegistration, in store: DependencyStore, removedBy how: String) -> InstanceSlot {
        slots.withLock { $0.slot(for: registration, in: store, removedBy: how) }
    }

    deinit {
        // Nothing else holds the chain any more: a copy of its slots is all of them.
        let built = slots.withLock { $0 }
        if !built.isEmpty { built.close() }
        Tombstones.end(in: cells.chain)
        cells.free()
    }
}
