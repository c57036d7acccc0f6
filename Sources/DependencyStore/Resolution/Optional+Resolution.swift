/// `resolve(T?.self)` for a `T?` nothing registers as such: the registration of `T` when there is
/// one, and `nil` when there is none, as Swinject answers it. Only absence gives `nil`: a cycle or
/// wrong arguments on the way to `T` fail as a resolve of `T` does. `OptionalProtocol` gives the
/// type it wraps.
protocol ResolvableOptional: OptionalProtocol {
    /// Whether the store resolves the wrapped type (and so `isRegistered` of the optional).
    static func isResolvable(in store: DependencyStore, name: String?) -> Bool

    static func resolve(
        in store: DependencyStore, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> Self
}

extension Optional: ResolvableOptional {
    static func isResolvable(in store: DependencyStore, name: String?) -> Bool {
        store.canResolve(Wrapped.self, name: name)
    }

    static func resolve(
        in store: DependencyStore, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> Self {
        guard isResolvable(in: store, name: name) else { return nil }
        do throws(ResolutionError) {
            return .some(try store.resolveChecked(Wrapped.self, name: name, arguments: arguments, requester: requester))
        } catch {
            // Removed between the check and the lookup (an `unregister` or `unload` on another
            // thread): absent, as if the check had come after. A missing registration further in
            // traps inside the factory that asked for it, so this is only ever `Wrapped` itself.
            if error.kind == .notRegistered { return nil }
            throw error
        }
    }
}
