extension DependencyStore {
    /// Declares that each request's store registers `type` (under `name`), and this store does
    /// not: a value of the request, such as its id or its user, that a server's store per request
    /// (`DependencyStore(parent: app)`) registers when the request starts.
    ///
    /// ```swift
    /// let app = DependencyStore()
    /// app.providedPerRequest(RequestID.self)
    /// app.register(OrderService.self) { store in OrderService(requestID: store.resolve()) }
    /// print(app.verify())   // no problems: RequestID is provided per request
    ///
    /// // When a request starts:
    /// let request = DependencyStore(parent: app)
    /// request.register(RequestID("r-1"), for: RequestID.self)
    /// let service: OrderService = request.resolve()
    /// ```
    ///
    /// A declaration is not a registration: this store still resolves nothing for `type`.
    /// It changes what the store says about it:
    /// - ``verify(sampleArguments:entryPoints:timeout:captives:overrides:)`` checks the rest of the graph as
    ///   if `type` were registered: a factory that resolves it stops there, as satisfied, without
    ///   a value, and an `@Injected` property for it is no missing registration. It reports an
    ///   app-wide instance (`.singleton`, `.weak`, a custom scope) whose graph reaches `type`,
    ///   which each request's store builds anew (``VerificationProblem/Kind/perRequestDependency``),
    ///   and a registration of `type` in this store or a parent, which contradicts the
    ///   declaration (``VerificationProblem/Kind/perRequestConflict``).
    /// - A resolve of `type` from this store traps saying that it is provided per request, and to
    ///   resolve it from a request's store (a store layered over this one). From a store layered
    ///   over this one that does not register it, the trap says to register it there.
    /// - It meets a ``require(_:name:fileID:line:)`` of the same type and name, and a decorator
    ///   of it is not reported as matching nothing.
    ///
    /// Declared inside an assembly, it belongs to the assembly: ``unload(_:fileID:line:)`` removes
    /// it, counted with the requirements. Declaring the same type again is harmless.
    ///
    /// - Parameters:
    ///   - type: The type each request's store registers.
    ///   - name: The name it is registered under; `nil`, the default, for the unnamed one.
    ///   - fileID: Where the declaration is made, for diagnostics. Leave the default.
    ///   - line: The line where it is made. Leave the default.
    public func providedPerRequest<T>(
        _ type: T.Type, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) {
        let declaration = Requirement(
            type: type, name: name, location: SourceLocation(fileID: fileID, line: line),
            assembly: AssemblyTag.current, provision: .perRequest)
        registry.withLock { registry in
            // The same declaration made again (an assembly applied twice) is one declaration.
            let isNew = !registry.requirements.contains {
                $0.type == declaration.type && $0.name == declaration.name && $0.location == declaration.location
                    && $0.provision == .perRequest
            }
            if isNew { registry.requirements.append(declaration) }
        }
    }

    /// The types declared provided per request in this store and its parents, the nearest
    /// store's first declaration of each type and name winning.
    func perRequestDeclarations() -> [TypeAndName: PerRequestDeclaration] {
        let declarations = sequence(first: self, next: \.parent).flatMap { store in
            store.registry.withLock { $0.requirements }.filter { $0.provision == .perRequest }.map { requirement in
                let key = TypeAndName(type: ObjectIdentifier(requirement.type), name: requirement.name)
                return (key, PerRequestDeclaration(requirement: requirement, store: store))
            }
        }
        return Dictionary(declarations, uniquingKeysWith: { first, _ in first })
    }
}

/// A `providedPerRequest` declaration, with the store that made it.
struct PerRequestDeclaration {
    let requirement: Requirement
    /// The store that declared it: the app's store, over which each request's store is layered.
    let store: DependencyStore

    var type: Any.Type { requirement.type }
    var name: String? { requirement.name }
    var location: SourceLocation { requirement.location }
}
