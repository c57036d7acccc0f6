// What the generated forms that pass one to nine arguments call (see the files named
// *+Arities.generated.swift, and Scripts/generate-arities.swift which writes them): each overload
// gathers its arguments into one tuple, and everything else is here, once.

extension DependencyStore {
    /// Registers `build`, a factory that takes its arguments as one tuple `V` of `types` (or the
    /// single value, when it takes one).
    func addFactory<T, V>(
        _ name: String?, _ scope: Scope, _ fileID: StaticString, _ line: UInt, _ types: [Any.Type],
        build: @escaping (DependencyStore, V) -> T
    ) -> RegistrationEntry<T> {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: (types, { $0 is V }),
                build: { store, given in build(store, given.values as! V) }
            ))
    }

    /// `resolveAsync` with arguments. Only a plain factory takes arguments (a main-actor or `async`
    /// one takes none), so this is the synchronous resolve, which checks them: a main-actor or
    /// `async` registration asked for with arguments fails as wrong arguments there, before its
    /// isolation is looked at. On a verification copy, in `verifyAsync()`, a problem is recorded
    /// and ends the `async` factory that asked, as the resolve without arguments does.
    func resolveAsync<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester
    ) async throws -> T {
        if let verifier {
            return try await verifyingResolve(
                type, name: name, arguments: arguments, requester: requester, verifier: verifier, onMainActor: false)
        }
        return resolve(type, name: name, arguments: arguments, requester: requester)
    }
}

extension GivenArguments {
    /// The arguments of one resolve: `values` is the tuple of them, or the single value, and its
    /// static type is what the wrong-arguments diagnostic shows as given.
    static func of<V>(_ values: V, count: Int) -> Self {
        .some(Values(values: values, types: V.self, count: count))
    }
}

extension Requester {
    /// A direct call at `fileID` and `line`.
    static func caller(_ fileID: StaticString, _ line: UInt) -> Self {
        .call(SourceLocation(fileID: fileID, line: line))
    }
}
