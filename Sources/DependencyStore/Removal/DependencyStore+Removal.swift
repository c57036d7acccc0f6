extension DependencyStore {
    /// Removes this store's registration of `type` (under `name`), and the instance it keeps: the
    /// next resolve finds a parent's registration, or none.
    ///
    /// ```swift
    /// store.unregister(SessionRepository.self)
    /// ```
    ///
    /// The kept instance is released after the store's lock is dropped (its `deinit` may
    /// resolve), and stores layered over this one forget what they built from the registration.
    /// Instances already handed out live on as long as their holders keep them, and an
    /// `@Injected` property that has already read its value keeps it; one that has not read yet
    /// resolves whatever is registered at its first read, and traps if nothing is, naming the
    /// removal. Only this store's own registration is removed: a parent's stays, and stays
    /// visible through this store.
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The name it was registered under; `nil`, the default, for the unnamed one.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: Whether there was a registration to remove.
    @discardableResult
    public func unregister<T>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        let location = SourceLocation(fileID: fileID, line: line)
        var discarded: [DiscardedInstance] = []
        let removed: AnyRegistration? = registry.withLock { registry in
            guard let registration = registry[ObjectIdentifier(type), name] else { return nil }
            // What this store registers is about to change: the sharing rule's check first.
            core.checkShadowingIfStale(&registry)
            registry.remove(registration, at: location, how: "unregister(_:)")
            registration.slot?.discard(of: registration, into: &discarded)
            let epoch = Tombstones.bury(
                [registration], from: core, how: "unregister(\(Diagnostics.shortName(of: type)).self)")
            core.noteRemoved([registration], epoch: epoch, in: &registry)
            return registration
        }
        guard let removed else { return false }
        var discards = Discards()
        discards.add(discarded, of: core)
        release([removed], discards: discards, because: "unregister(\(Diagnostics.shortName(of: type)).self)")
        return true
    }

    /// Removes everything that assemblies of type `assembly` registered in this store: their
    /// registrations, contributions, decorators and requirements, and the instances those
    /// registrations keep. What an assembly does at logout:
    ///
    /// ```swift
    /// DependencyStore.shared.apply(SessionAssembly(user: user))   // at login
    /// DependencyStore.shared.unload(SessionAssembly.self)          // at logout
    /// ```
    ///
    /// A registration counts as the assembly's when it was made while `apply` ran the assembly
    /// (or an assembly it applied), on that thread; one that a later registration replaced is gone
    /// already, and what the assembly itself replaced does not come back. Instances the store
    /// keeps for a registration that one of the assembly's decorators applies to are discarded
    /// too, in this store and the stores layered over it, so that none stays wrapped by a
    /// decorator that is gone. The kept instances are released
    /// after the store's lock is dropped; see ``unregister(_:name:fileID:line:)`` for instances
    /// already handed out and for `@Injected` properties.
    ///
    /// - Parameters:
    ///   - assembly: The type of the assembly to unload: `SessionAssembly.self`, or
    ///     `type(of: assembly)` for an `any Assembly`.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: How many registrations and contributions were removed, and, when that is none,
    ///   why: the assembly was never applied to this store, or was unloaded already, or registered
    ///   nothing here (see ``UnloadResult``).
    @discardableResult
    public func unload(_ assembly: any Assembly.Type, fileID: StaticString = #fileID, line: UInt = #line)
        -> UnloadResult
    {
        let tag = AssemblyTag(assembly)
        let belongs: (AssemblyTag?) -> Bool = { $0?.isPart(of: tag.type) ?? false }
        let location = SourceLocation(fileID: fileID, line: line)
        let how = "unload(\(tag.name).self)"
        var requirements = 0
        var discarded: [DiscardedInstance] = []
        var removed: [AnyRegistration] = []
        var unloadedDecorators: [ObjectIdentifier: [Decorator]] = [:]
        let applied: UnloadResult.Applied = registry.withLock { registry in
            let applied: UnloadResult.Applied =
                registry.appliedAssemblies.removeValue(forKey: tag.type) != nil
                ? .applied : registry.unloadedAssemblies.contains(tag.type) ? .unloadedAlready : .never
            // Only an assembly that was applied becomes "unloaded already": a second unload of
            // one never applied (a typo in the type) says "never applied" again.
            // What this store registers is about to change: the sharing rule's check first.
            core.checkShadowingIfStale(&registry)
            if applied == .applied { registry.unloadedAssemblies.insert(tag.type) }
            // The assemblies it applied went with it.
            for (nested, enclosing) in registry.appliedAssemblies where enclosing.contains(tag.type) {
                registry.appliedAssemblies[nested] = nil
                registry.unloadedAssemblies.insert(nested)
            }
            for registration in registry.all where belongs(registration.assembly) {
                registry.remove(registration, at: location, how: how)
                removed.append(registration)
            }
            for (key, elements) in registry.contributions {
                let kept = elements.filter { !belongs($0.assembly) }
                guard kept.count != elements.count else { continue }
                removed += elements.filter { belongs($0.assembly) }
                registry.contributions[key] = kept.isEmpty ? nil : kept
                if kept.isEmpty {
                    registry.elementRemovals[key] = Removal(
                        registeredAt: elements[0].location, removedAt: location, how: how)
                }
            }
            for (key, entries) in registry.decorators {
                let kept = entries.filter { !belongs($0.assembly) }
                guard kept.count != entries.count else { continue }
                unloadedDecorators[key] = entries.filter { belongs($0.assembly) }
                registry.decorators[key] = kept.isEmpty ? nil : kept
            }
            for registration in removed {
                registration.slot?.discard(of: registration, into: &discarded)
            }
            requirements = registry.requirements.count
            registry.requirements.removeAll { belongs($0.assembly) }
            requirements -= registry.requirements.count
            // What the assembly registered is gone, so are the replacements it took part in.
            registry.overrides.removeAll { belongs($0.replacedAssembly) || belongs($0.replacementAssembly) }
            // A resolve chain that began before this unload still finds what it removed.
            let epoch = Tombstones.bury(removed, from: core, how: how)
            core.noteRemoved(removed, epoch: epoch, in: &registry)
            return applied
        }
        let decorators = unloadedDecorators.values.reduce(0) { $0 + $1.count }
        var discards = Discards()
        discards.add(discarded, of: core)
        if decorators != 0 {
            core.adjustStagesInScope(by: -decorators)
            // Kept instances its decorators applied to (a singleton decorated with the user's
            // data) go too, here and in the stores over this one: the next resolve builds one
            // without them. Instances of the type that no unloaded decorator applies to (another
            // name, a forward) stay.
            core.discardKeptInstances(into: &discards) { registration in
                unloadedDecorators[ObjectIdentifier(registration.type)]?.contains { $0.applies(to: registration) }
                    ?? false
            }
        }
        release(removed, discards: discards, because: how)
        return UnloadResult(
            assembly: tag.name, removed: removed.count, decorators: decorators, requirements: requirements,
            applied: applied, store: description)
    }

    /// Makes the stores layered over this one forget what they built from `removed`, then closes
    /// what they kept of it and what `discards` holds already (what this call took out of this
    /// store's slots under its lock), and releases it all, with no lock held.
    private func release(_ removed: [AnyRegistration], discards: Discards, because trigger: String) {
        var discards = discards
        core.forgetInDescendants(removed, into: &discards)
        close(discards.closes(), because: trigger)
        // The end of a chain that found the batches' lock taken by this removal left its prune
        // to whoever held it.
        Tombstones.pruneIfRequested()
        // The registrations, their slots and the instances in them are released here, with no
        // lock held: an instance's deinit may resolve from this store.
    }

    /// Declares that some assembly must register `type` (under `name`) for this module to work:
    /// what a feature module promises the app will provide. ``verify(sampleArguments:entryPoints:timeout:captives:overrides:)``
    /// reports a requirement nothing registers, naming who declared it, and the trap of a resolve
    /// that finds nothing names it too.
    ///
    /// ```swift
    /// struct CheckoutAssembly: Assembly {
    ///     func assemble(into store: DependencyStore) {
    ///         store.require(PaymentGateway.self)   // the app registers the live one
    ///         store.register(CheckoutModel.self) { store in CheckoutModel(gateway: store.resolve()) }
    ///     }
    /// }
    /// ```
    ///
    /// A requirement is met by a registration in this store or a parent, made before or after it
    /// was declared; a collection type (`[T]`) is met by a contribution to it.
    ///
    /// - Parameters:
    ///   - type: The type some assembly must register.
    ///   - name: The name it must be registered under; `nil`, the default, for the unnamed one.
    ///   - fileID: Where the requirement is declared, for diagnostics. Leave the default.
    ///   - line: The line where it is declared. Leave the default.
    public func require<T>(_ type: T.Type, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        let requirement = Requirement(
            type: type, name: name, location: SourceLocation(fileID: fileID, line: line), assembly: AssemblyTag.current)
        registry.withLock { registry in
            // The same declaration made again (an assembly applied twice) is one requirement.
            let isNew = !registry.requirements.contains {
                $0.type == requirement.type && $0.name == requirement.name && $0.location == requirement.location
            }
            if isNew { registry.requirements.append(requirement) }
        }
    }

    /// Whether a resolve of `type` (under `name`) through this store finds something: a
    /// registration, or, for a collection type, a contribution.
    func canResolve(_ type: Any.Type, name: String?) -> Bool {
        let key = ObjectIdentifier(type)
        for store in sequence(first: self, next: \.parent) where store.ownRegistration(for: key, name: name) != nil {
            return true
        }
        if name == nil, let collection = type as? any ContributedCollection.Type {
            return collection.hasElements(in: self)
        }
        // What resolve makes itself for a registered type: a handle, an optional.
        if let handle = type as? any DependencyHandle.Type {
            return handle.isResolvable(in: self, name: name)
        }
        if let optional = type as? any ResolvableOptional.Type {
            return optional.isResolvable(in: self, name: name)
        }
        return false
    }
}

extension StoreCore.Registry {
    /// Removes `registration`, which the registry holds under its type and name, and remembers
    /// where and how, for the diagnostic of a later resolve.
    mutating func remove(_ registration: AnyRegistration, at location: SourceLocation, how: String) {
        let key = ObjectIdentifier(registration.type)
        self[key, registration.name] = nil
        self.removals[TypeAndName(type: key, name: registration.name)] = Removal(
            registeredAt: registration.location, removedAt: location, how: how)
    }
}

/// What ``DependencyStore/unload(_:fileID:line:)`` did: how many registrations and contributions it
/// removed, and, when that is none, why, so that a logout that unloads the wrong assembly does not
/// pass for one that worked.
///
/// ```swift
/// let result = DependencyStore.shared.unload(SessionAssembly.self)
/// if result.removed == 0 { print(result) }   // "... SessionAssembly was never applied to ..."
/// ```
public struct UnloadResult: Hashable, Sendable, CustomStringConvertible {
    /// How many registrations and contributions were removed.
    public let removed: Int
    /// Whether the assembly had been applied to the store, and not unloaded since.
    public var wasApplied: Bool { applied == .applied }
    /// What the unload did, in a sentence.
    public let description: String

    enum Applied: Hashable, Sendable {
        case applied, unloadedAlready, never
    }

    private let applied: Applied

    init(assembly: String, removed: Int, decorators: Int, requirements: Int, applied: Applied, store: String) {
        self.removed = removed
        self.applied = applied
        let parts = [
            (removed, "registration or contribution", "registrations and contributions"),
            (decorators, "decorator or completion step", "decorators and completion steps"),
            (requirements, "requirement", "requirements"),
        ].filter { $0.0 != 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
        description =
            switch applied {
            case .applied where parts.isEmpty:
                "unload(\(assembly).self) removed nothing: \(assembly) registered nothing in \(store) that is still there."
            case .applied:
                "unload(\(assembly).self) removed \(parts.joined(separator: ", ")) of \(assembly) from \(store)."
            case .unloadedAlready:
                "unload(\(assembly).self) removed nothing: \(assembly) was unloaded from \(store) already."
            case .never:
                "unload(\(assembly).self) removed nothing: \(assembly) was never applied to \(store) (an assembly applied to another store, or a parent, is unloaded from that store)."
            }
    }
}
