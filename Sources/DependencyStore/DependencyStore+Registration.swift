extension DependencyStore {
    /// Registers an expression that builds the dependency for `type`, evaluated on every resolve.
    ///
    /// The expression is an autoclosure, so nothing is built until someone resolves `type`, and
    /// it is evaluated again on each resolve: register a shared instance to hand out one object,
    /// an initialiser call to hand out a new one each time.
    ///
    /// ```swift
    /// store.register(AccessTokenService.shared, for: AccessTokenServiceType.self) // the same object
    /// store.register(PriceFormatter(), for: PriceFormatting.self)                 // a new one each time
    /// ```
    ///
    /// Registering again for the same type replaces the earlier registration for every later
    /// resolve; instances already handed out are not affected.
    ///
    /// - Parameters:
    ///   - dependency: The expression that builds the value. It runs on the thread that resolves
    ///     it, with no lock of the store held.
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    public func register<T>(
        _ dependency: @escaping @autoclosure () -> T,
        for type: T.Type,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        store(Registration(factory: { _ in dependency() }, location: SourceLocation(fileID: fileID, line: line)))
    }

    /// Registers a factory for `type` that builds the value from other dependencies of the store.
    ///
    /// Use this form for constructor injection: the factory receives the store that is resolving
    /// it and asks it for what the value's initialiser needs. It runs on every resolve.
    ///
    /// ```swift
    /// store.register(PriceFetcherType.self) { store in
    ///     PriceFetcher(networking: store.resolve(), parser: store.resolve())
    /// }
    /// ```
    ///
    /// Registering again for the same type replaces the earlier registration for every later
    /// resolve.
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value. It runs on the thread that resolves it, with no lock of the
    ///     store held, so it may resolve (and even register) freely; a factory that resolves its
    ///     own type, directly or through others, traps with the cycle.
    public func register<T>(
        _ type: T.Type,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore) -> T
    ) {
        store(Registration(factory: factory, location: SourceLocation(fileID: fileID, line: line)))
    }

    /// Whether `type` has a registration in this store.
    ///
    /// ```swift
    /// if !store.isRegistered(Networking.self) {
    ///     store.register(URLSessionNetworking(), for: Networking.self)
    /// }
    /// ```
    ///
    /// - Parameter type: The type as it would be resolved.
    /// - Returns: `true` when a resolve of `type` would find a registration.
    public func isRegistered<T>(_ type: T.Type) -> Bool {
        registrations.withLock { $0[ObjectIdentifier(type)] != nil }
    }

    private func store<T>(_ registration: Registration<T>) {
        registrations.withLock { $0[ObjectIdentifier(T.self)] = registration }
    }
}
