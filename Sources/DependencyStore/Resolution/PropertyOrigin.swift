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
        switch self {
        case .store(let store):
            return Self.resolve(
                type, name: name, arguments: arguments, requester: requester, in: store, lookingFirst: true)
        case .core(let origin):
            return Self.resolve(type, name: name, arguments: arguments, requester: requester, createdBy: origin)
        case .resolved, .resolvedKeeping, .replaced:
            preconditionFailure("DependencyStore: an injected property resolved twice")
        }
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

    /// `store.resolve`, trying first, with `lookingFirst`, what the store itself has (see
    /// `ownValueLeavingLockHeld`), or what the store's parent publishes (see
    /// `sharedInstanceSkippingOwnLock`).
    @inline(__always)
    private static func resolve<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester, in store: DependencyStore,
        lookingFirst: Bool
    ) -> T {
        if lookingFirst, name == nil, case .none = arguments {
            let key = ObjectIdentifier(type)
            if store.core.mayRegister(key) {
                // A value or an instance of this store's own, handed out as `resolve` would.
                if let address = store.ownValueLeavingLockHeld(key) {
                    return store.handOut(address, as: T.self)
                }
            } else if let box = store.sharedInstanceSkippingOwnLock(key) {
                return box.value(as: T.self)
            }
        }
        return store.resolve(type, name: name, arguments: arguments, requester: requester)
    }

    @inline(never)
    private static func resolve<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester, createdBy origin: PropertyOrigin
    ) -> T {
        let store = DependencyStore.resolving(through: origin.core)
        do {
            return try store.resolveChecked(type, name: name, arguments: arguments, requester: requester)
        } catch {
            store.fail(error.createdBy(origin), resolving: type, name: name, at: requester)
        }
    }

    /// `store.resolveChecked`, for `tryValue()`: throws what `resolve` would trap with.
    func tryResolve<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> T {
        guard case .core(let origin) = self else {
            return try store.resolveChecked(type, name: name, arguments: arguments, requester: requester)
        }
        do {
            return try DependencyStore.resolving(through: origin.core).resolveChecked(
                type, name: name, arguments: arguments, requester: requester)
        } catch {
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
