// Factories that cannot run just anywhere: on the main actor, or `async`. Both are registered from
// ordinary nonisolated code (`registerAll()`), and resolved with `await` from anywhere.

extension DependencyStore {
    /// Registers a factory that runs on the main actor: for `@MainActor` view models and services,
    /// registered from nonisolated code such as `registerAll()`.
    ///
    /// ```swift
    /// store.register(ProfileModel.self, on: MainActor.self) { store in
    ///     ProfileModel(repository: store.resolve())     // ProfileModel's init is @MainActor
    /// }
    ///
    /// @MainActor func show() {
    ///     let model = store.resolve(ProfileModel.self)  // on the main actor: synchronous
    /// }
    /// func prefetch() async throws {
    ///     let model = try await store.resolveAsync(ProfileModel.self)  // anywhere: awaits the main actor
    /// }
    /// ```
    ///
    /// On the main actor, `resolve` and `@Injected` (in a `@MainActor` type) build it synchronously.
    /// Off the main actor, `resolveAsync` runs the factory there; a synchronous `resolve` never runs
    /// it off the main actor: it traps, naming the type and the fix. A cached scope builds exactly
    /// once, whichever context asks first.
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for.
    ///   - name: Tells apart several registrations of one type.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - actor: `MainActor.self`. (For another global actor, register an `async` factory that
    ///     awaits it.)
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value, on the main actor.
    /// - Returns: The registration, on which `closing { }` says how the store closes its
    ///   instances (see ``RegistrationEntry``); you may ignore it.
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        on actor: MainActor.Type,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (DependencyStore) -> T
    ) -> RegistrationEntry<T> {
        add(
            Registration<T>(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                isolation: .mainActor,
                // Called only on the main thread: checkSynchronousResolve refuses every other.
                build: { store, _ in MainActor.assumeIsolated { factory(store) } },
                // Off the main actor: hop there and resolve as it does, through the same slot and gate,
                // so that a cached instance is built once whichever way it is asked for.
                buildAsync: { store, requester in
                    await MainActor.run { store.resolve(T.self, name: name, arguments: .none, requester: requester) }
                }
            ))
    }

    /// Registers an `async` factory: for services that start with `await` (a database opened,
    /// a session restored, a token refreshed).
    ///
    /// ```swift
    /// store.register(Database.self, scope: .singleton) { store async throws in
    ///     try await Database.open(at: store.resolve(Configuration.self).databaseURL)
    /// }
    ///
    /// let database = try await store.resolveAsync(Database.self)
    /// ```
    ///
    /// Resolve it with ``resolveAsync(_:name:fileID:line:)``. A cached scope runs the factory
    /// once however many tasks await it first: they all await the one build. A factory that throws
    /// caches nothing; every task awaiting that build gets the error, and the next resolve tries
    /// again. Cancelling a task that awaits a build does not cancel the build: the others get its
    /// value, and so does the cancelled task (check `Task.isCancelled` after, if it matters).
    ///
    /// > Important: A synchronous `resolve` (or an `@Injected` property) cannot await, so it traps
    /// > for an async registration, saying so. A dependency cycle through async factories traps
    /// > with the chain, even when the chain spans several tasks.
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for.
    ///   - name: Tells apart several registrations of one type.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value. While it runs, this store is ``DependencyStore/shared``.
    /// - Returns: The registration, on which `closing { }` says how the store closes its
    ///   instances (see ``RegistrationEntry``); you may ignore it.
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyStore) async throws -> T
    ) -> RegistrationEntry<T> {
        add(
            Registration<T>(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                isolation: .async,
                build: { _, _ in preconditionFailure("DependencyStore: an async factory was called synchronously") },
                buildAsync: { store, _ in
                    try await DependencyStore.boundStore.withValue(store) { try await factory(store) }
                }
            ))
    }
}
