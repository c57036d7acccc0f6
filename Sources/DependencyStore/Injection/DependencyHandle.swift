/// A type the store makes for any registered dependency without a registration of its own:
/// ``Provider`` and ``Lazy``. Asked for only when a resolve finds no registration, so resolves
/// of registered types pay nothing for it.
protocol DependencyHandle {
    /// What the handle resolves.
    associatedtype Value

    /// Makes the handle for `store`, carrying `arguments` (if any) for every resolve it makes, or
    /// throws when it could never resolve: nothing is registered for what it would resolve, or the
    /// registration does not take `arguments` (so it fails where it is resolved, not later).
    static func make(
        in store: DependencyStore, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> Self

    /// Whether the handle resolves at each use (`Provider`) rather than once (`Lazy`): then
    /// whoever holds it keeps no instance, and is no captive of what it resolves.
    static var resolvesEachUse: Bool { get }
}

extension DependencyHandle {
    /// Whether `store` (or a parent) registers what the handle resolves.
    static func isResolvable(in store: DependencyStore, name: String?) -> Bool {
        store.isRegistered(Value.self, name: name)
    }

    /// What the handle resolves: what is missing when it cannot be made.
    static var valueType: Any.Type { Value.self }

    /// Checks that `store` registers `Value` (with `name`) and that its registration takes
    /// `arguments`, and records the handle for verification, which follows it as it follows an
    /// `@Injected` property: a lazy edge.
    ///
    /// The arguments of a handle made without them are not checked when it resolves at each use
    /// (`Provider`): its calls may pass them (`provider(arguments: ...)`). A handle that resolves
    /// once (`Lazy`) is checked without arguments too: nothing can pass them later, so a
    /// registration that needs them could never resolve.
    static func prepare(
        in store: DependencyStore, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) {
        guard isResolvable(in: store, name: name) else {
            // Say what was asked for: the handle, which needs a registration of what it resolves.
            throw store.missingRegistration(
                of: Value.self, name: name, requester: requester, stack: ResolutionStack.currentIfCreated,
                askedForAs: Self.self)
        }
        if let verifier = store.verifier {
            verifier.declared(
                Value.self, name: name, optional: false, in: store, at: requester.location,
                resolvedEachUse: resolvesEachUse)
        }
        let given: Bool = if case .some = arguments { true } else { false }
        guard given || !resolvesEachUse,
            let registration = store.lookUp(ObjectIdentifier(Value.self), name: name, takingKeptInstance: false)?.found?
                .registration,
            !registration.accepts(arguments)
        else { return }
        throw store.wrongArguments(for: registration, given: arguments, requester: requester)
    }
}
