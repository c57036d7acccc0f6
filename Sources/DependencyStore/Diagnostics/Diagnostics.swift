import Foundation

// The facts of every failure a user can cause, gathered where it happens: each function returns
// the `ResolutionError` of a `Diagnosis`, whose text is written in `Diagnosis+Text.swift`. Nothing
// here runs on a successful resolve.

extension DependencyStore {
    /// The diagnostic for a resolve of `type` (with `name`) that found no registration; `handle`:
    /// the `Provider` or `Lazy` asked for, which needs a registration of `type`.
    func missingRegistration<T>(
        of type: T.Type,
        name: String?,
        requester: Requester,
        stack: ResolutionStack?,
        askedForAs handle: Any.Type? = nil
    ) -> ResolutionError {
        let stores = Array(sequence(first: self, next: \.parent))
        let registeredPerStore = stores.map { $0.registry.withLock { $0.all } }
        let registered = registeredPerStore.flatMap { $0 }
        let collection = name == nil ? type as? any ContributedCollection.Type : nil
        let missing = Diagnosis.Missing(
            searched: zip(stores, registeredPerStore).dropFirst().map { $0.facts(registrationCount: $1.count) },
            registeredNames: Set(registered.filter { $0.type == type }.map(\.name)),
            notes: notes(onMissing: type, name: name, in: stores),
            closeMatches: Diagnostics.closeMatches(to: type, among: registered),
            collection: collection.map { (Diagnostics.shortName(of: $0.elementType), $0.holdsOnlyNamedElements) },
            askedForAs: handle.map(Diagnostics.shortName(of:)))
        let request = request(
            of: type, name: name, by: requester, building: stack?.registrations() ?? [],
            registrationCount: registeredPerStore[0].count)
        return ResolutionError(.missingRegistration(request, missing))
    }

    /// The diagnostic for a resolve of `registration` while it is already being built on this
    /// chain, from frame `start` of `stack` on.
    func cycle(
        closedBy registration: AnyRegistration,
        from start: Int,
        requester: Requester,
        stack: ResolutionStack
    ) -> ResolutionError {
        let building = stack.registrations(from: start)
        let ids = Set(building.map(ObjectIdentifier.init))
        return ResolutionError(
            .cycle(
                chain: (building + [registration]).map(Diagnostics.label(of:)), acrossTasks: false, closedBy: requester,
                store: facts(), decorators: stack.decorators.filter { ids.contains($0.registration) }.map(\.location),
                perArgumentCache: building.count == 1 && registration.cachesPerArgument()))
    }

    /// The diagnostic for a thread that was about to wait for an instance (or an injected
    /// property's value) that another thread is building, while that thread, directly or through
    /// others, waits for this one: `waiters` starts with this thread, and each waits for what the
    /// next one builds, the last for what this one builds.
    static func crossThreadCycle(_ waiters: [WaitGraph.Waiter], requester: Requester) -> ResolutionError {
        let threads = waiters.map { waiter in
            let awaited: Diagnosis.Awaited =
                switch waiter.subject {
                case .instance(let registration, let store):
                    .instance(Diagnostics.label(of: registration), in: "\(store)")
                case .property(let type, let name, let requester):
                    .firstValue(Diagnostics.label(of: type, name: name), for: requester)
                }
            return Diagnosis.WaitingThread(building: waiter.chain.map(Diagnostics.label(of:)), awaited: awaited)
        }
        return ResolutionError(.crossThreadCycle(threads, closedBy: requester))
    }

    /// The diagnostic for a resolve whose arguments do not match the registration's factory.
    func wrongArguments(
        for registration: AnyRegistration,
        given: GivenArguments,
        requester: Requester
    ) -> ResolutionError {
        let passed = Self.passed(given)
        let isolation: String? =
            switch registration.isolation {
            case .none: nil
            case .mainActor: "main-actor"
            default: "async"
            }
        let givenShortName: String? =
            if case .some(let values) = given, values.count == 1 { Diagnostics.shortName(of: values.types) } else {
                nil
            }
        return ResolutionError(
            .wrongArguments(
                request(of: registration, by: requester), registeredAt: registration.location,
                expected: registration.argumentTypes?.map(Diagnostics.name(of:)),
                expectedShortNames: registration.argumentTypes?.map(Diagnostics.shortName(of:)) ?? [], given: passed,
                context: (isolation, givenShortName)))
    }

    /// What the stores remember of a missing `type`: its removal, and who requires it.
    private func notes(onMissing type: Any.Type, name: String?, in stores: [DependencyStore]) -> [Diagnosis.Note] {
        let key = TypeAndName(type: ObjectIdentifier(type), name: name)
        // A collection that finds nothing: were its elements unloaded?
        let collection = name == nil ? type as? any ContributedCollection.Type : nil
        let elements = collection.map { ObjectIdentifier($0.elementType) }
        var notes: [Diagnosis.Note] = []
        for store in stores {
            let (removal, elementRemoval, requirements) = store.registry.withLock { registry in
                (
                    registry.removals[key],
                    elements.flatMap { registry.elementRemovals[$0] },
                    registry.requirements.filter { ObjectIdentifier($0.type) == key.type && $0.name == name }
                )
            }
            if let removal {
                notes.append(
                    .removed(
                        registeredAt: removal.registeredAt, removedAt: removal.removedAt, how: removal.how,
                        inStore: store === self ? nil : "\(store)"))
            }
            if let removal = elementRemoval {
                notes.append(
                    .elementsRemoved(
                        contributedAt: removal.registeredAt, removedAt: removal.removedAt, how: removal.how,
                        inStore: store === self ? nil : "\(store)"))
            }
            for requirement in requirements {
                switch requirement.provision {
                case .registration:
                    notes.append(.requiredBy(requirement.declarer))
                case .perRequest where !notes.contains(where: \.isProvidedPerRequest):
                    // The nearest store's declaration.
                    notes.append(
                        .providedPerRequest(
                            declaredAt: requirement.location, assembly: requirement.assembly?.name,
                            inStore: store === self ? nil : "\(store)"))
                case .perRequest:
                    break
                }
            }
        }
        let perRequest = notes.contains(where: \.isProvidedPerRequest)
        // Registered in a store layered over this one (a request's, a test's), which an object
        // bound to this store does not see. A type declared per request says more than that.
        var over: [StoreCore] = []
        core.forEachDescendant(includingSelf: false) { core, registry in
            if registry.registers(key.type, name: name) { over.append(core) }
        }
        // A store that only provided values is not on the list (see `StoreCore.joinAncestors`):
        // the stores current here, if layered over this one, are asked too.
        for store in storesCurrentOverThis() where !over.contains(where: { $0 === store.core }) {
            if store.registry.withLock({ $0.registers(key.type, name: name) }) { over.append(store.core) }
        }
        if !over.isEmpty, !perRequest {
            notes.append(
                .registeredInStoresOver(
                    over.prefix(2).map { "\(DependencyStore.resolving(through: $0))" }, count: over.count))
        }
        return notes
    }

    /// The stores layered over this one, at any depth, between it and the store current on this
    /// thread or task (the one resolving, else the one `execute` made current), that one first.
    private func storesCurrentOverThis() -> [DependencyStore] {
        var found: [DependencyStore] = []
        for case let start? in [ResolutionStack.withCurrentIfCreated { $0.currentStore }, DependencyStore.current] {
            let chain = Array(sequence(first: start, next: \.parent).prefix { $0.core !== core })
            // Only when this store is an ancestor of the current one.
            guard chain.last?.parent?.core === core else { continue }
            found += chain.filter { store in !found.contains { $0.core === store.core } }
        }
        return found
    }

    /// The diagnostic for a forward whose target built something that is not of the forwarded
    /// type.
    func forwardMismatch(
        of type: Any.Type,
        name: String?,
        to target: Any.Type,
        named targetName: String?,
        built value: Any,
        at location: SourceLocation
    ) -> ResolutionError {
        ResolutionError(
            .forwardMismatch(
                request(of: type, name: name, by: .forward(location)),
                target: Diagnostics.label(of: target, name: targetName),
                built: Diagnostics.name(of: Swift.type(of: value)),
                requestedBy: ResolutionStack.currentIfCreated?.forwardRequesters.last))
    }

    /// The diagnostic for a `.weak` registration whose factory built something that is not an
    /// object, so nothing could hold it weakly.
    func weakScopeNeedsAClass(_ registration: AnyRegistration, built value: Any, requester: Requester)
        -> ResolutionError
    {
        ResolutionError(
            .weakScopeNeedsAClass(
                request(of: registration.type, name: registration.name, by: requester),
                built: Diagnostics.name(of: Swift.type(of: value)), registeredAt: registration.location,
                contributed: registration.role.isContribution))
    }

    /// The diagnostic for a `@WeakInjected` property declared at `declaration` whose registration
    /// (found from this store) built something that is not an object, so the property could not
    /// hold it weakly.
    func weakInjectedNeedsAClass(_ type: Any.Type, name: String?, built value: Any, declaration: SourceLocation)
        -> ResolutionError
    {
        let registration = lookUp(ObjectIdentifier(type), name: name, takingKeptInstance: false)?.found?.registration
        return ResolutionError(
            .weakInjectedNeedsAClass(
                request(of: type, name: name, by: .weakInjectedProperty(declaration)),
                built: Diagnostics.name(of: Swift.type(of: value)),
                builtShortName: Diagnostics.shortName(of: Swift.type(of: value)),
                registration: registration.map { ($0.location, $0.scope) }))
    }

    /// The diagnostic for a cycle through async factories: `chain` starts and ends with the same
    /// registration; `acrossTasks` when the chain spans tasks that await one another's builds.
    func asyncCycle(_ chain: [String], acrossTasks: Bool, requester: Requester) -> ResolutionError {
        ResolutionError(
            .cycle(chain: chain, acrossTasks: acrossTasks, closedBy: requester, store: facts(), decorators: []))
    }

    /// The diagnostic for a synchronous resolve of a registration whose factory cannot run here.
    func wrongIsolation(of registration: AnyRegistration, requester: Requester) -> ResolutionError {
        ResolutionError(
            .wrongIsolation(
                request(of: registration, by: requester), onMainActor: registration.isolation == .mainActor,
                registeredAt: registration.location))
    }

    /// A collection resolved with arguments.
    func collectionTakesNoArguments(
        _ collection: any ContributedCollection.Type, given: GivenArguments, requester: Requester
    ) -> ResolutionError {
        ResolutionError(
            .collectionTakesNoArguments(
                request(
                    of: collection, name: nil, by: requester,
                    building: ResolutionStack.currentIfCreated?.registrations() ?? []),
                element: Diagnostics.shortName(of: collection.elementType), given: Self.passed(given)!))
    }

    /// A handle that carries arguments, called with arguments again.
    func handleCalledWithArgumentsAgain(
        _ handle: Any.Type, value: Any.Type, name: String?, carried: GivenArguments, given: GivenArguments,
        requester: Requester
    ) -> ResolutionError {
        ResolutionError(
            .handleCalledWithArgumentsAgain(
                request(of: value, name: name, by: requester), handle: Diagnostics.shortName(of: handle),
                carried: Self.passed(carried)!, given: Self.passed(given)))
    }

    /// A completion step that resolved a `.unique` registration its resolve built; `building`:
    /// what was being built when the completed instance was, itself last.
    func completionCycle(
        closedBy registration: AnyRegistration, building: [AnyRegistration], completing: AnyRegistration,
        step: SourceLocation, requester: Requester
    ) -> ResolutionError {
        ResolutionError(
            .completionCycle(
                request(of: registration.type, name: registration.name, by: requester, building: building),
                completed: Diagnostics.label(of: completing), step: step))
    }

    /// What a resolve passed, as one type (a tuple for several) and how many; `nil` for none.
    static func passed(_ given: GivenArguments) -> (type: String, count: Int)? {
        switch given {
        case .none: nil
        case .some(let given): (Diagnostics.name(of: given.types), given.count)
        }
    }

    /// The request for `registration`, made while this thread builds what it builds.
    private func request(of registration: AnyRegistration, by requester: Requester) -> Diagnosis.Request {
        request(
            of: registration.type, name: registration.name, by: requester,
            building: ResolutionStack.currentIfCreated?.registrations() ?? [])
    }

    /// The facts of a resolve of `type` (with `name`) from this store, asked for by `requester`
    /// while `building` was being built.
    private func request(
        of type: Any.Type, name: String?, by requester: Requester, building: [AnyRegistration] = [],
        registrationCount: Int? = nil
    ) -> Diagnosis.Request {
        let requested = Diagnostics.label(of: type, name: name)
        return Diagnosis.Request(
            requested: requested, shortName: Diagnostics.shortName(of: type), name: name,
            chain: building.map(Diagnostics.label(of:)) + [requested], requester: requester,
            store: facts(registrationCount: registrationCount))
    }

    private func facts(registrationCount: Int? = nil) -> Diagnosis.Store {
        Diagnosis.Store(name: description, isRoot: isRoot, registrationCount: registrationCount)
    }
}

enum Diagnostics {
    /// The fully qualified name of a type (`MyApp.PriceFetching`, `Swift.Optional<MyApp.Token>`).
    static func name(of type: Any.Type) -> String {
        var name = String(reflecting: type)
        // A private type's context is named by its address (`App.(unknown context at $10a4c).Token`),
        // which tells a reader nothing and differs from run to run: left out.
        while let start = name.range(of: "(unknown context at $"),
            let end = name.range(of: ").", range: start.upperBound..<name.endIndex)
        {
            name.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return name
    }

    /// A registration as diagnostics show it: its fully qualified type, and its name if it has one.
    static func label(of registration: AnyRegistration) -> String {
        label(of: registration.type, name: registration.name)
    }

    /// `MyApp.Greeting`, or `MyApp.Greeting (named "formal")`.
    static func label(of type: Any.Type, name: String?) -> String {
        guard let name else { return self.name(of: type) }
        return "\(self.name(of: type)) (named \"\(name)\")"
    }

    /// The name of a type as its user writes it in code (`PriceFetching`).
    static func shortName(of type: Any.Type) -> String {
        String(describing: type)
    }
}
