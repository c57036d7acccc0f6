/// `resolve(T?.self)` for a `T?` nothing registers as such: the registration of `T` when there is
/// one, and `nil` when there is none, as Swinject answers it. Only absence gives `nil`: a cycle or
/// wrong arguments on the way to `T` fail as a resolve of `T` does.
protocol ResolvableOptional {
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
        return .some(try store.resolveChecked(Wrapped.self, name: name, arguments: arguments, requester: requester))
    }
}
