internal import DependencyStoreAtomics

/// Where a store keeps the instance of a ``Scope/singleton``, ``Scope/weak`` or custom-scoped
/// registration.
///
/// `box`, `object`, `generation`, `sequence`, `inFlight`, `dependsOnLayeredValues` and
/// `eventDetails` are guarded by the lock of the store that owns the slot; `gate` is held by the one thread building the instance, so that others
/// asking at the same time wait for it instead of building their own.
final class InstanceSlot: @unchecked Sendable {
    let gate = Gate()
    /// The instance of a `.singleton` or custom scope, in an `InstanceBox`.
    var box: AnyObject?
    /// The instance of a `.weak` scope: the object itself, held weakly.
    weak var object: AnyObject?
    /// Bumped by every reset, so a build that was running during a reset does not cache its
    /// result afterwards.
    var generation = 0
    /// When the store kept the instance in `box`, among everything that store kept: its
    /// `keptCount` then. The store closes what it lets go of in the reverse of this order, so that
    /// an instance is closed before the instances it was built from (see `Closing/`).
    var sequence = 0
    /// The build of an `async` (or main-actor) registration that `resolveAsync` callers are
    /// awaiting, so that it runs once however many tasks ask first.
    var inFlight: AsyncBuild?
    /// Set on a registration's own slot once a build through a store layered over its owner was
    /// found to resolve a value only that layer registers (a request's): from then on such stores
    /// build and keep their own instance instead of sharing the owner's (see `resolveBorrowed`).
    var dependsOnLayeredValues = false
    /// What the store's resolve events of this registration made outside any factory say besides
    /// the type and build (see `Tracing/`): made by the first, shared by the others.
    var eventDetails: ResolveEvent.Details?
    /// Whether a resolve chain keeps its instance (see `ChainSlots`) rather than a store's
    /// registry.
    let belongsToAChain: Bool
    /// Where the owning store published the instance for layered stores to read without its lock
    /// (see `SharedInstances`), if it did: a discard takes that down.
    var sharedIn: UnsafeMutablePointer<dependency_store_shared_tables>?
    /// The instances of a registration with an expiring or per-argument cache (see
    /// `CachedInstances`), which never sit in `box`: so no lookup hands one out without the check
    /// that `buildCached` makes. `nil` until such a registration keeps one.
    var cached: CachedInstances?

    init(belongsToAChain: Bool = false) {
        self.belongsToAChain = belongsToAChain
    }

    /// Keeps `kept`: the object itself, weakly, for `.weak`, else its box, which takes its place
    /// in the order `registry`'s store closes what it kept (see `Closing/`). Call with that
    /// store's lock held.
    func hold(_ kept: AnyObject, weakly: Bool, in registry: inout StoreCore.Registry) {
        if weakly {
            object = kept
            registry.keptWeakly = true
        } else {
            box = kept
            registry.keptCount &+= 1
            sequence = registry.keptCount
        }
    }

    /// What the slot keeps: the box, or the weakly held object. Call with the owning store's lock
    /// held.
    @inline(__always)
    var kept: AnyObject? { box ?? object }

    /// How many instances the slot keeps: in `box` or `object`, or in `cached`. Call with the
    /// owning store's lock held.
    var keptCount: Int {
        kept != nil ? 1 : cached?.count ?? 0
    }
}

extension DependencyStore {
    /// The rule every build of a cached scope ends with, whoever waited for it (threads at the
    /// slot's gate in `buildOnce`, tasks awaiting its `AsyncBuild` in `resolveAsync`): `value`,
    /// which `registration` just built for `slot`, is kept, unless a reset (a new generation since
    /// `generation`) or the release of the store came while it was built. The caller hands `value`
    /// out either way, and so is a `nil` of an optional type (`holdingIt` false: see
    /// Docs/Lifetimes.md). An `async` build also clears itself from the slot, in the same critical
    /// section, so the next resolve finds either the instance or no build. Nor is it kept when
    /// the build, made for a store layered over this one, resolved a value only that store
    /// registers (`ResolutionStack.builtForALayer`). `hold`, when given, keeps it in place of the
    /// slot's own `hold`, under the store's lock: a cache's (see `buildCached`). Returns what the
    /// slot keeps (or would have kept): the box, or the object itself for `.weak`.
    ///
    /// The store that keeps the instance owns it, and closes it when it lets go of it: so here,
    /// and only here, the instance gets its place in the order of closing (`slot.sequence`). An
    /// instance not kept (a reset or the store's end came first) is its caller's, like a
    /// `.unique` one, and is never closed by the store; nor is a `.weak` one, which its holders
    /// own.
    func keep<T>(
        _ value: T,
        of registration: Registration<T>,
        in slot: InstanceSlot,
        builtIn generation: Int,
        finishing build: AsyncBuild?,
        requester: Requester,
        holdingIt: Bool = true,
        holding hold: ((_ kept: AnyObject, _ registry: inout StoreCore.Registry) -> Void)? = nil
    ) throws(ResolutionError) -> AnyObject {
        let weak = registration.lifetime == .weak
        // A build that resolved a value of a store layered over this one is that store's alone.
        let buildsForALayer =
            ResolutionStack.currentIfCreated.map { !$0.borrows.isEmpty && $0.builtForALayer(registration) } ?? false
        let kept: AnyObject
        if weak {
            guard Swift.type(of: value as Any) is AnyClass else {
                if let build { registry.withLock { _ in if slot.inFlight === build { slot.inFlight = nil } } }
                throw weakScopeNeedsAClass(registration, built: value, requester: requester)
            }
            kept = value as AnyObject
        } else {
            kept = InstanceBox.make(value)
        }
        if buildsForALayer, !weak { ResolutionStack.current.setAside(kept, of: registration) }
        var removal: String?
        registry.withLock { registry in
            if let build, slot.inFlight === build { slot.inFlight = nil }
            // A slot the store no longer holds (its registration was removed or replaced while
            // this was built, or before a thread waiting at its gate built again) keeps nothing:
            // nobody would close what it kept. After an `unregister` or `unload`, the chain that
            // built it keeps it, below (a removal keeps what it removed while a chain that began
            // before it runs: see `Tombstones`); otherwise it is handed out, as after a reset.
            if !slot.belongsToAChain, !registry.owns(slot, of: registration) {
                if Tombstones.anyKept { removal = Tombstones.removal(of: registration) }
                return
            }
            guard holdingIt, slot.generation == generation, !registry.isClosed, !buildsForALayer else { return }
            if let hold {
                hold(kept, &registry)
            } else {
                slot.hold(kept, weakly: weak, in: &registry)
            }
        }
        if let removal { return keepInChain(kept, of: registration, weak: weak, removedBy: removal, build: build) }
        return kept
    }

    /// What `registration` built for a slot that a removal (`how`) took away meanwhile: kept for
    /// the rest of the chain that built it, as what a chain builds from a removed registration is
    /// (see `Tombstones`), so that the chain resolves it again as the same instance and closes it
    /// when it ends, as the removal would have had it come after. Should the chain hold one
    /// already (a build of its own, begun after this one), this one is handed out and not kept,
    /// as a build a `reset` caught is.
    private func keepInChain(
        _ kept: AnyObject, of registration: AnyRegistration, weak: Bool, removedBy how: String, build: AsyncBuild?
    ) -> AnyObject {
        let slot: InstanceSlot
        if let build {
            guard let removals = build.removals else { return kept }
            slot = removals.slot(for: registration, in: self, removedBy: how)
        } else {
            guard let stack = ResolutionStack.currentIfCreated, stack.isInChain else { return kept }
            slot = stack.chainSlot(for: registration, in: self, removedBy: how)
        }
        registry.withLock { registry in
            if slot.kept == nil { slot.hold(kept, weakly: weak, in: &registry) }
        }
        return kept
    }
}
