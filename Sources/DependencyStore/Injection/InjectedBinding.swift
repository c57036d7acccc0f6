/// What an injected property resolves from until its first read, and why it holds what it holds.
enum InjectedBinding {
    /// The store that was current when the property was created. Holding it keeps the store, and
    /// the instances it keeps, alive until the first read, however early the code that made the
    /// property lets go of the store (`let model = store.execute { Model() }`).
    case store(DependencyStore)
    /// The core of a store that was building an instance it keeps when the property was created:
    /// the property most likely belongs to that instance, which the store holds, so holding the
    /// store would keep both alive forever. The core resolves as the store does while the store
    /// exists, and builds without keeping anything after it is released. With it, the build that
    /// created the property, which a missing registration's message names (see `PropertyOrigin`).
    case core(PropertyOrigin)
    /// Resolved: the property holds nothing of the store any more.
    case resolved
    /// Resolved by a read whose property was the store's last owner: the property keeps the
    /// store for as long as it lives, so that its first read does not end the store, and close
    /// what the store kept (the value it handed out among them) before the caller has it (see
    /// `OnceHeader.dropBinding(in:)`).
    case resolvedKeeping(DependencyStore)
    /// Set after its first value was published: what the property keeps of the values it held.
    case replaced(ReplacedValues)

    /// Binds to `store`, by the rule above.
    init(_ store: DependencyStore) {
        // The thread's stack, borrowed: no retain and release for a reference that cannot go.
        self =
            ResolutionStack.withCurrentIfCreated { stack in
                stack.isBuildingKeptInstance(in: store.core) ? .core(stack.propertyOrigin(in: store.core)) : nil
            } ?? .store(store)
    }

    /// The binding of a property being created now: to ``DependencyStore/shared``, by the rule
    /// above. One look at the thread's stack answers both what `shared` is and whether that store
    /// is building an instance it keeps, where `InjectedBinding(.shared)` would look twice.
    @inline(__always)
    static func forPropertyBeingCreated() -> InjectedBinding {
        ResolutionStack.withCurrentIfCreated { stack -> InjectedBinding? in
            // A factory or a synchronous `execute` running on this thread: `shared` is its store.
            // Unretained until the binding takes it: its frame holds it.
            stack.currentStoreUnretained?._withUnsafeGuaranteedRef { store in
                stack.isBuildingKeptInstance(in: store.core)
                    ? .core(stack.propertyOrigin(in: store.core)) : .store(store)
            }
        } ?? .store(DependencyStore.current)
    }

    /// The store of a `.store` binding, not retained: valid for as long as the binding holds it.
    var unretainedStore: Unmanaged<DependencyStore>? {
        switch self {
        case .store(let store): Unmanaged.passUnretained(store)
        case .core, .resolved, .resolvedKeeping, .replaced: nil
        }
    }

    /// The verification copy the property was created in, if it was: what records its edge.
    var verifier: Verifier? {
        switch self {
        case .store(let store): store.verifier
        case .core(let origin): origin.core.verifier
        case .resolved, .resolvedKeeping, .replaced: nil
        }
    }

    /// The store to resolve from; only called before the first read has resolved.
    var store: DependencyStore {
        switch self {
        case .store(let store): store
        case .core(let origin): DependencyStore.resolving(through: origin.core)
        case .resolved, .resolvedKeeping, .replaced:
            preconditionFailure("DependencyStore: an injected property resolved twice")
        }
    }
}

/// The build that created an injected property (or a `Provider` or `Lazy` handle) bound to the
/// core of a store building an instance it keeps (see `InjectedBinding.core`): such a property
/// resolves from that store whoever asked for the instance, a request's store included (the
/// sharing rule), so its missing-registration message names the build, and the fix for a server
/// first. Made only for a property created inside such a build, which a store does once per
/// instance it keeps; a property created anywhere else costs nothing more, and neither does the
/// first read of one.
final class PropertyOrigin: @unchecked Sendable {
    /// The store's core, which the property resolves through.
    let core: StoreCore
    /// The registration whose instance the store was building and keeps: the innermost on the
    /// chain.
    let kept: AnyRegistration
    /// The registration whose factory was running when the property was created: `kept`, or one
    /// that `kept`'s factory resolved.
    let creator: AnyRegistration

    init(core: StoreCore, kept: AnyRegistration, creator: AnyRegistration) {
        self.core = core
        self.kept = kept
        self.creator = creator
    }

    /// The facts a message names.
    var facts: Diagnosis.CreatedBy {
        Diagnosis.CreatedBy(
            creator: Diagnostics.label(of: creator), creatorScope: creator.scope,
            creatorRegisteredAt: creator.location,
            keptInstance: kept === creator ? nil : Diagnostics.label(of: kept),
            keptShortName: Diagnostics.shortName(of: kept.type), keptScope: kept.scope,
            store: DependencyStore.resolving(through: core).description)
    }
}

extension InjectedBinding {
    /// `store.resolve`, for the first read: a missing registration traps naming the build that
    /// created the property, when the property was bound to a store building what it keeps.
    @inline(__always)
    func resolve<T>(_ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester) -> T {
        if case .store(let store) = self {
            return Self.resolve(
                type, name: name, arguments: arguments, requester: requester, in: store, lookingFirst: true)
        }
        return resolveTrapping(type, name: name, arguments: arguments, requester: requester)
    }

    /// The first read of the property (`header`'s), resolved: through the store it is bound to,
    /// read unretained (see `OnceHeader.store`), or as `resolve` does.
    @inline(__always)
    static func resolve<T>(
        _ type: T.Type, from header: UnsafeMutablePointer<OnceHeader>, arguments: GivenArguments,
        lookingFirstWithoutResolve: Bool = true
    ) -> T {
        if let store = header.pointee.store {
            return store._withUnsafeGuaranteedRef {
                resolve(
                    type, name: OnceHeader.name(in: header), arguments: arguments, requester: header.pointee.requester,
                    in: $0,
                    lookingFirst: lookingFirstWithoutResolve)
            }
        }
        return header.pointee.binding.resolve(
            type, name: OnceHeader.name(in: header), arguments: arguments, requester: header.pointee.requester)
    }

    /// `store.resolve`, trying first, with `lookingFirst`, what the first read of an `@Injected`
    /// property finds without it (`DependencyStore.valueForFirstRead(of:)`): what the store itself
    /// has, or what the store's parent publishes.
    @inline(__always)
    private static func resolve<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester, in store: DependencyStore,
        lookingFirst: Bool
    ) -> T {
        if lookingFirst, name == nil, case .none = arguments, let value = store.valueForFirstRead(of: T.self) {
            return value
        }
        return store.resolve(type, name: name, arguments: arguments, requester: requester)
    }

    /// `tryResolve`, trapping with what it would throw: the first read of a property a kept
    /// instance's build created (`.core`).
    @inline(never)
    private func resolveTrapping<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester
    ) -> T {
        do {
            return try tryResolve(type, name: name, arguments: arguments, requester: requester)
        } catch {
            DependencyStore.fail(error, resolving: type, name: name, at: requester)
        }
    }

    /// `store.resolveChecked`, for `tryValue()`: throws what `resolve` would trap with.
    func tryResolve<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> T {
        do {
            return try store.resolveChecked(type, name: name, arguments: arguments, requester: requester)
        } catch {
            guard case .core(let origin) = self else { throw error }
            throw error.createdBy(origin)
        }
    }
}

extension ResolutionError {
    /// This error, naming `origin` as the build that created the property that asked, when the
    /// error is a missing registration; otherwise this error.
    func createdBy(_ origin: PropertyOrigin) -> ResolutionError {
        guard case .missingRegistration(let request, var missing) = diagnosis else { return self }
        missing.createdBy = origin.facts
        return ResolutionError(.missingRegistration(request, missing))
    }
}
