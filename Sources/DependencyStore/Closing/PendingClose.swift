// What closing an instance takes, from the moment a store lets go of it (under its lock, in
// `InstanceSlot.discard(of:into:)`) to the moment its close runs (with no lock held, in
// `CloseQueue`).

/// An instance a store has just let go of: taken out of its slot under the store's lock, closed
/// after the lock is dropped. `sequence` orders it among the instances of that store (see `keep`).
///
/// `retired`: the tables of shared instances the discard took down with it, if any, which may hold
/// the instance too. Both go with this record, after the lock, in either order: the instance's last
/// release is on this thread either way, once no reader reads the tables.
struct DiscardedInstance {
    let registration: AnyRegistration
    let box: AnyObject
    let sequence: Int
    var retired: RetiredTables? = nil
}

/// The close of one instance, ready to run: what to call, and how a failure names the instance.
struct PendingClose: Sendable {
    /// `Session`, or `Networking (named "backup")`: the registration as listings name it.
    let label: String
    let registeredAt: SourceLocation
    let action: CloseAction

    var isAsync: Bool {
        if case .async = action { true } else { false }
    }
}

/// What closes one instance. The closure holds the instance until it has run.
///
/// `@unchecked Sendable`: a synchronous close may run on another thread than the one that let go
/// of the instance (in the task that runs a store's closes in order), as a factory may run on any
/// thread; see `DependencyStore`'s documentation.
enum CloseAction: @unchecked Sendable {
    case sync(() throws -> Void)
    case async(@Sendable () async throws -> Void)
}

extension InstanceSlot {
    /// Forgets the instance, adding what the slot held strongly, if anything, and the table of
    /// shared instances it took down, if the store published the instance there, to `discarded`,
    /// for the caller to let go of once it has dropped the store's lock (a `deinit` may resolve
    /// from the store, and a retired table waits for its readers). Call with the owning store's
    /// lock held.
    func discard(of registration: AnyRegistration, into discarded: inout [DiscardedInstance]) {
        // A table holds the instance too, until the caller lets go of the tables.
        let retired = sharedIn.flatMap(StoreCore.takeDownForDiscard)
        if let box {
            discarded.append(
                DiscardedInstance(registration: registration, box: box, sequence: sequence, retired: retired))
        } else if let retired {
            // Nothing was kept, so no table holds anything of this slot's; they go with the rest.
            discarded.append(DiscardedInstance(registration: registration, box: retired, sequence: sequence))
        }
        // The instances of an expiring or per-argument cache, each in its own place in the order.
        cached?.removeAll(of: registration, into: &discarded)
        box = nil
        object = nil
        cached = nil
        sharedIn = nil
        generation &+= 1
    }
}

/// What one call took out of the slots of a store and of the stores layered over it, to close once
/// it has dropped their locks: each store's instances in the reverse order that store kept them,
/// and the stores over others first, since a store's instances may be built from its ancestors',
/// never from its descendants'.
struct Discards {
    private var stores: [(core: StoreCore, instances: [DiscardedInstance])] = []

    mutating func add(_ instances: [DiscardedInstance], of core: StoreCore) {
        guard !instances.isEmpty else { return }
        if let index = stores.firstIndex(where: { $0.core === core }) {
            stores[index].instances += instances
        } else {
            stores.append((core, instances))
        }
    }

    /// The closes, in the order they must run. Call with no lock held.
    func closes() -> [PendingClose] {
        stores.map { store in (store.instances, StoreCore.depth(of: store.core)) }
            .sorted { $0.1 > $1.1 }
            .flatMap { $0.0.closes() }
    }
}

extension StoreCore {
    /// How many parents `core` has.
    static func depth(of core: StoreCore) -> Int {
        guard let parent = core.parent else { return 0 }
        return sequence(first: parent, next: \.parent).reduce(0) { count, _ in count + 1 }
    }
}

extension [DiscardedInstance] {
    /// The closes of these instances, all of one store, dependents first: the reverse of the order
    /// the store kept them in. Instances that nothing closes are left out (and released with this
    /// array). Call with no lock held: it reads each registration's hook.
    func closes() -> [PendingClose] {
        sorted { $0.sequence > $1.sequence }.compactMap { discarded in
            discarded.registration.closeAction(for: discarded.box).map { action in
                PendingClose(
                    label: Tracing.label(of: discarded.registration.type, name: discarded.registration.name),
                    registeredAt: discarded.registration.location, action: action)
            }
        }
    }
}

extension Registration {
    /// How to close `kept`, the box of an instance this registration built: the registration's
    /// hook if it has one, else the instance's own `close()` if it adopts `AsyncClosable` or
    /// `Closable`, else nothing. (What `closeAction(for:)` answers: an override cannot live in an
    /// extension.)
    func makeCloseAction(for kept: AnyObject) -> CloseAction? {
        // Only strongly kept instances are closed, and those are boxed (see `keep`).
        guard let box = kept as? InstanceBox else { return nil }
        let value = box.value(as: T.self)
        if let close = keptOptions?.withLock({ $0.close }) {
            return close(value)
        }
        if let closable = value as? any AsyncClosable {
            let instance = UncheckedSendable(closable)
            return .async { try await instance.value.close() }
        }
        if let closable = value as? any Closable {
            return .sync { try closable.close() }
        }
        return nil
    }
}
