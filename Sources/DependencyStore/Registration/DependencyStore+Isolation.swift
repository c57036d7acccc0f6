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
    public func register<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        on actor: MainActor.Type,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (DependencyStore) -> T
    ) {
        add(
            Registration<T>(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: nil,
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
    public func register<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyStore) async throws -> T
    ) {
        add(
            Registration<T>(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: nil,
                isolation: .async,
                build: { _, _ in preconditionFailure("DependencyStore: an async factory was called synchronously") },
                buildAsync: { store, _ in
                    try await DependencyStore.$current.withValue(store) { try await factory(store) }
                }
            ))
    }

    /// Resolves `type`, awaiting what a synchronous resolve cannot: an `async` factory, or a
    /// main-actor factory from off the main actor. Any other registration resolves as
    /// ``resolve(_:name:fileID:line:)`` does.
    ///
    /// ```swift
    /// let database = try await store.resolveAsync(Database.self)
    /// let model = try await store.resolveAsync(ProfileModel.self)   // built on the main actor
    /// ```
    ///
    /// > Important: A missing registration, a cycle and wrong arguments trap, as with `resolve`;
    /// > what this throws is what an `async` factory throws.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built, or the instance its scope keeps.
    /// - Throws: What an `async` factory threw.
    public func resolveAsync<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) async throws -> T {
        try await resolveAsync(type, name: name, requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    func resolveAsync<T>(_ type: T.Type, name: String?, requester: Requester) async throws -> T {
        let lookup = lookUp(ObjectIdentifier(type), name: name, takingKeptInstance: false)
        guard let found = lookup?.found, found.registration.isolation != .none else {
            // Plain registrations, handles and missing ones: the synchronous path, which traps as usual.
            if let verifier {
                return try await verifyingResolve(
                    type, name: name, requester: requester, verifier: verifier, onMainActor: false)
            }
            return resolve(type, name: name, arguments: .none, requester: requester)
        }
        let observed = lookup?.isObserved ?? false
        let typed = unsafeDowncast(found.registration, to: Registration<T>.self)
        let buildAsync = typed.buildAsync!
        if let verifier {
            verifier.willResolve(typed, requestedBy: AsyncResolution.current.chain.last?.registration)
        }
        if typed.isolation == .mainActor {
            if let verifier {
                return try await verifyingResolve(
                    type, name: name, requester: requester, verifier: verifier, onMainActor: true)
            }
            // The synchronous resolve, on the main actor: it builds, decorates and keeps the
            // instance once, as it does for a caller already there.
            return try await buildAsync(self, requester)
        }
        if let kept = found.kept {
            if observed { report(typed, build: nil, chain: chain(on: nil)) }
            return Self.instance(kept, as: type, lifetime: typed.lifetime)
        }
        let resolution = AsyncResolution.current
        if let start = resolution.indexOfLink(building: typed, in: core) {
            let labels = resolution.chain[start...].map { Diagnostics.label(of: $0.registration) }
            try failAsync(
                asyncCycle(labels + [Diagnostics.label(of: typed)], acrossTasks: false, requester: requester),
                resolving: type, name: name, at: requester)
        }
        switch typed.lifetime {
        case .unique, .graph:
            let (value, build) = try await runAsyncFactory(
                typed, in: resolution.appending(typed, in: core), requester: requester, timed: observed)
            if observed { report(typed, build: build, chain: chain(on: nil)) }
            return value
        case .cached, .weak:
            let build = sharedBuild(
                of: typed, in: found.slot!, resolution: resolution, requester: requester, timed: observed)
            if case .kept(let kept) = build {
                if observed { report(typed, build: nil, chain: chain(on: nil)) }
                return Self.instance(kept, as: type, lifetime: typed.lifetime)
            }
            guard case .awaiting(let inFlight, let started) = build else { preconditionFailure() }
            let awaited = try await resolution.await(inFlight, subject: .instance(typed, store: self))
            guard case .kept(let kept) = awaited else {
                guard case .cycle(let waits) = awaited else { preconditionFailure() }
                let labels = waits.map(\.subject.typeLabel)
                try failAsync(
                    asyncCycle(labels + [labels[0]], acrossTasks: true, requester: requester),
                    resolving: type, name: name, at: requester)
            }
            // The build this resolve started reported itself; one it awaited is reused.
            if observed, !started { report(typed, build: nil, chain: chain(on: nil)) }
            return Self.instance(kept.object, as: type, lifetime: typed.lifetime)
        }
    }

    /// Traps with `error`, as `fail` does; on a verification copy, records it and throws
    /// `VerificationStop` instead, which ends the `async` factories that await this resolve.
    private func failAsync(
        _ error: ResolutionError, resolving type: Any.Type, name: String?, at requester: Requester
    ) throws -> Never {
        guard let verifier else { fail(error, resolving: type, name: name, at: requester) }
        verifier.record(error, subject: (type, name), chain: AsyncResolution.current.chain.map(\.registration))
        throw VerificationStop()
    }

    private enum SharedBuild {
        case kept(AnyObject)
        /// `started`: by this resolve.
        case awaiting(AsyncBuild, started: Bool)
    }

    /// The instance the slot keeps, or the build in flight for it, started now if there is none
    /// (and, when `timed`, timed and reported once the slot keeps what it built).
    private func sharedBuild<T>(
        of registration: Registration<T>,
        in slot: InstanceSlot,
        resolution: AsyncResolution,
        requester: Requester,
        timed: Bool
    ) -> SharedBuild {
        registry.withLock { _ in
            if let kept = slot.kept { return .kept(kept) }
            if let inFlight = slot.inFlight { return .awaiting(inFlight, started: false) }
            let build = AsyncBuild(registration: registration)
            let chain = resolution.appending(registration, in: core, build: build)
            let generation = slot.generation
            let lifetime = registration.lifetime
            // Not a child of the first resolver: cancelling it does not cancel the others' build.
            build.task = Task { [self] in
                defer { WaitGraph.finished(build) }
                do {
                    let (value, timing) = try await runAsyncFactory(
                        registration, in: chain, requester: requester, timed: timed)
                    let kept: AnyObject
                    if lifetime == .weak {
                        guard Swift.type(of: value as Any) is AnyClass else {
                            fail(
                                weakScopeNeedsAClass(registration, built: value, requester: requester),
                                resolving: T.self, name: registration.name, at: requester)
                        }
                        kept = value as AnyObject
                    } else {
                        kept = InstanceBox.make(value)
                    }
                    registry.withLock { registry in
                        if slot.inFlight === build { slot.inFlight = nil }
                        guard slot.generation == generation, !registry.isClosed else { return }
                        if lifetime == .weak { slot.object = kept } else { slot.box = kept }
                    }
                    if timed { report(registration, build: timing, chain: self.chain(in: resolution, on: nil)) }
                    return KeptInstance(object: kept)
                } catch {
                    // Nothing is kept: the next resolve builds again.
                    registry.withLock { _ in if slot.inFlight === build { slot.inFlight = nil } }
                    throw error
                }
            }
            slot.inFlight = build
            return .awaiting(build, started: true)
        }
    }
}

/// A built instance handed from a shared build's task to the tasks awaiting it.
struct KeptInstance: @unchecked Sendable {
    let object: AnyObject
}
