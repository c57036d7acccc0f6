extension DependencyStore {
    /// Adds an element to the collection of `type`: any number of modules may contribute one, and
    /// ``resolveAll(_:fileID:line:)`` (or a resolve of `[T]`) builds them all, in the order
    /// contributed.
    ///
    /// ```swift
    /// store.contribute(ConsoleSink(), to: AnalyticsSink.self)
    /// store.contribute(FileSink(), to: AnalyticsSink.self, name: "file", scope: .singleton)
    ///
    /// let sinks = store.resolveAll(AnalyticsSink.self)        // [ConsoleSink, FileSink]
    /// let byName: [String: AnalyticsSink] = store.resolve()   // ["file": FileSink]
    /// ```
    ///
    /// Each element has its own scope, as a registration does. A name is optional: named elements
    /// also make up the dictionary `[String: T]`, and contributing again under a name replaces
    /// that element in place, as registering again replaces a registration (and is listed by
    /// `verify()` as an override). Unnamed elements are never replaced; remove them with the
    /// assembly that contributed them (``unload(_:fileID:line:)``).
    ///
    /// - Parameters:
    ///   - element: The expression that builds the element. It runs on the thread that resolves
    ///     the collection, with no lock of the store held.
    ///   - type: The element type of the collection, usually a protocol.
    ///   - name: Names the element in the dictionary form; `nil`, the default, for none.
    ///   - scope: How long a built element lives; see ``Scope``. The default builds one per resolve.
    ///   - fileID: Where the contribution is made, for diagnostics. Leave the default.
    ///   - line: The line of the contribution. Leave the default.
    /// - Returns: The element's registration, on which `closing { }` says how the store closes its
    ///   instances (see ``RegistrationEntry``); you may ignore it.
    @discardableResult
    public func contribute<T>(
        _ element: @escaping @autoclosure () -> T,
        to type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> RegistrationEntry<T> {
        addContribution(
            Registration(
                name: name, scope: scope, location: SourceLocation(fileID: fileID, line: line),
                role: .contribution, build: { _, _ in element() }))
    }

    /// Adds an element, built from other dependencies of the store, to the collection of `type`.
    ///
    /// ```swift
    /// store.contribute(AnalyticsSink.self, scope: .singleton) { store in
    ///     RemoteSink(networking: store.resolve())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The element type of the collection.
    ///   - name: Names the element in the dictionary form; `nil`, the default, for none.
    ///   - scope: How long a built element lives; see ``Scope``.
    ///   - fileID: Where the contribution is made, for diagnostics. Leave the default.
    ///   - line: The line of the contribution. Leave the default.
    ///   - factory: Builds the element from the store that resolves the collection.
    /// - Returns: The element's registration, on which `closing { }` says how the store closes its
    ///   instances (see ``RegistrationEntry``); you may ignore it.
    @discardableResult
    public func contribute<T>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore) -> T
    ) -> RegistrationEntry<T> {
        addContribution(
            Registration(
                name: name, scope: scope, location: SourceLocation(fileID: fileID, line: line),
                role: .contribution, build: { store, _ in factory(store) }))
    }

    /// Builds every element contributed to the collection of `type`, in the order contributed:
    /// a parent store's first, then this store's. An element this store contributes under a name
    /// a parent's element has replaces that one, in its place.
    ///
    /// ```swift
    /// for sink in store.resolveAll(AnalyticsSink.self) {
    ///     sink.track("launch")
    /// }
    /// ```
    ///
    /// An empty collection is an empty array here: `resolveAll` asks for however many there are.
    /// A resolve of `[T]` (or an `@Injected var sinks: [T]`) returns the same elements, but
    /// treats a collection nobody contributed to as a missing registration, as it would any
    /// dependency; `[String: T]` holds the named elements.
    ///
    /// - Parameters:
    ///   - type: The element type of the collection.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: The elements, each built (or kept) as its scope says.
    public func resolveAll<T>(_ type: T.Type = T.self, fileID: StaticString = #fileID, line: UInt = #line) -> [T] {
        [T].assemble(in: self, requester: .call(SourceLocation(fileID: fileID, line: line))) ?? []
    }

    // MARK: - Internals

    @discardableResult
    func addContribution<T>(_ contribution: Registration<T>) -> RegistrationEntry<T> {
        let key = ObjectIdentifier(T.self)
        // What the element keeps must be reached by the ancestors' resets, as a registration's.
        core.joinAncestors()
        var discarded: [DiscardedInstance] = []
        let replaced: AnyRegistration? = registry.withLock { registry in
            core.stopsSharing(&registry)
            var elements = registry.contributions[key] ?? []
            var replaced: AnyRegistration?
            if let name = contribution.name, let index = elements.firstIndex(where: { $0.name == name }) {
                replaced = elements[index]
                elements[index].slot?.discard(of: elements[index], into: &discarded)
                registry.recordOverride(of: elements[index], by: contribution)
                elements[index] = contribution
            } else {
                elements.append(contribution)
            }
            registry.contributions[key] = elements
            registry.elementRemovals[key] = nil
            return replaced
        }
        if let replaced {
            closeReplaced(replaced, discarded: discarded)
        }
        // The replaced element, and the instance it kept, are released here, with no lock held.
        return RegistrationEntry(registration: contribution, store: self)
    }

    /// The elements of the collection of the type `key` identifies as this store sees them, each
    /// with the store that holds it: ancestors' first, an element named as an ancestor's taking
    /// its place.
    func contributions(ofKey key: ObjectIdentifier) -> [(registration: AnyRegistration, owner: DependencyStore)] {
        var elements: [(registration: AnyRegistration, owner: DependencyStore)] = []
        for store in sequence(first: self, next: \.parent).reversed() {
            for element in store.registry.withLock({ $0.contributions[key] ?? [] }) {
                if let name = element.name, let index = elements.firstIndex(where: { $0.registration.name == name }) {
                    elements[index] = (element, store)
                } else {
                    elements.append((element, store))
                }
            }
        }
        return elements
    }

    /// Builds `elements` of the collection of `type`, each with its name; `nil` when there is none
    /// to build.
    func resolveContributions<T>(
        _ elements: [(registration: AnyRegistration, owner: DependencyStore)], as type: T.Type, requester: Requester
    ) -> [(name: String?, value: T)]? {
        guard !elements.isEmpty else { return nil }
        let observed = isObserved
        // One resolve of the collection: the elements share their `.graph` dependencies.
        return ResolutionStack.current.sharingOneGraph {
            // Removed or replaced since it was listed: as if the collection had been read after.
            elements.compactMap { registration, owner in
                found(element: registration, of: owner).map { found in
                    (registration.name, resolveTrapping(found, as: type, observed: observed, requester: requester))
                }
            }
        }
    }

    /// Resolves one element, as `verify()` builds it.
    func resolveContribution<T>(_ registration: Registration<T>, requester: Requester) -> T? {
        found(element: registration, of: self).map { found in
            resolveTrapping(found, as: T.self, observed: isObserved, requester: requester)
        }
    }

    /// Resolves `found`, which no lookup by type and name finds (an element, or an alternative
    /// that `verify()` builds on its own); a failure traps, as a resolve's does.
    func resolveTrapping<T>(_ found: Found, as type: T.Type, observed: Bool, requester: Requester) -> T {
        do {
            return try resolve(found, as: type, observed: observed, requester: requester)
        } catch {
            Self.fail(error, resolving: type, name: found.registration.name, at: requester)
        }
    }

    /// Whether this store has observers, which its resolves report to (see `Tracing/`).
    private var isObserved: Bool {
        registry.withLock { $0.observers != nil }
    }

    /// `element`, contributed by `owner`, with the slot this store keeps its instance in; `nil`
    /// when `owner` no longer has it.
    private func found(element: AnyRegistration, of owner: DependencyStore) -> Found? {
        let key = ObjectIdentifier(element.type)
        let isHeld: (StoreCore.Registry) -> Bool = { registry in
            registry.contributions[key]?.contains { $0 === element } ?? false
        }
        guard owner.core === core else {
            return found(element, inheritedFrom: owner, stillHeld: isHeld)
        }
        return registry.withLock { registry in
            guard isHeld(registry) else { return nil }
            return Found(registration: element, slot: element.slot, kept: element.slot?.kept)
        }
    }
}

/// A collection the store assembles from contributions when nothing is registered for the
/// collection type itself: `[T]`, all elements, and `[String: T]`, the named ones. Asked only on
/// the path of a resolve that found no registration, as `DependencyHandle` is.
protocol ContributedCollection {
    /// The element type: what was contributed.
    static var elementType: Any.Type { get }
    /// Whether it holds the named elements only: a dictionary keyed by name.
    static var holdsOnlyNamedElements: Bool { get }
    /// The collection, or `nil` when nothing was contributed to it.
    static func assemble(in store: DependencyStore, requester: Requester) -> Self?
}

extension ContributedCollection {
    /// The elements of the collection that `store` sees, each with the store that holds it.
    static func elements(in store: DependencyStore) -> [(registration: AnyRegistration, owner: DependencyStore)] {
        store.contributions(ofKey: ObjectIdentifier(elementType)).filter {
            !holdsOnlyNamedElements || $0.registration.name != nil
        }
    }

    /// Whether `store` sees any element of the collection.
    static func hasElements(in store: DependencyStore) -> Bool {
        !elements(in: store).isEmpty
    }
}

extension Array: ContributedCollection {
    static var elementType: Any.Type { Element.self }
    static var holdsOnlyNamedElements: Bool { false }

    static func assemble(in store: DependencyStore, requester: Requester) -> [Element]? {
        store.resolveContributions(elements(in: store), as: Element.self, requester: requester)?.map(\.value)
    }
}

extension Dictionary: ContributedCollection where Key == String {
    static var elementType: Any.Type { Value.self }
    static var holdsOnlyNamedElements: Bool { true }

    static func assemble(in store: DependencyStore, requester: Requester) -> [String: Value]? {
        store.resolveContributions(elements(in: store), as: Value.self, requester: requester).map { elements in
            Dictionary(elements.map { ($0.name!, $0.value) }, uniquingKeysWith: { _, last in last })
        }
    }
}
