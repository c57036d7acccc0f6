// The `async` side of the one resolution path: `resolveAsync`, which awaits what a synchronous
// resolve cannot (an `async` factory, a main-actor factory from off the main actor), with the same
// build-once and cycle rules: a cached instance is built by one shared build that every waiter
// awaits, and every await is a wait in `WaitGraph`.

extension DependencyStore {
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

    func resolveAsync<T>(
        _ type: T.Type, name: String?, requester: Requester, lookingAgain: Bool = false
    ) async throws -> T {
        let lookup = lookUp(ObjectIdentifier(type), name: name, takingKeptInstance: false)
        if case .borrowed(_, let owner) = lookup {
            // An ancestor's instance this store shares: that ancestor builds and keeps it. (An
            // `async` factory cannot fall back to this store's values the way a synchronous one
            // does: see Docs/Servers.md.)
            return try await owner.resolveAsync(type, name: name, requester: requester)
        }
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
        verifier?.willResolve(typed, requestedBy: AsyncResolution.current.chain.last?.registration)
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
            if observed { report(typed, build: nil, chain: chain(on: nil), slot: found.slot) }
            return Self.instance(kept, as: type, lifetime: typed.lifetime)
        }
        var resolution = AsyncResolution.current
        if resolution.removals == nil {
            // This build begins an `async` chain (see `Tombstones`). A removal that came between
            // the lookup and now may have taken the registration away: unless the store still
            // resolves to it (a removal elsewhere), look again, after the removal.
            let removals = AsyncChainEpoch()
            let lookedUpIn =
                if case .unkept(_, let epoch)? = lookup { epoch } else { ResolutionStack.current.lookupEpoch }
            if removals.begun != lookedUpIn, !lookingAgain, !stillResolves(to: typed) {
                return try await resolveAsync(type, name: name, requester: requester, lookingAgain: true)
            }
            resolution.removals = removals
        }
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
                if observed { report(typed, build: nil, chain: chain(on: nil), slot: found.slot) }
                return Self.instance(kept, as: type, lifetime: typed.lifetime)
            }
            guard case .awaiting(let inFlight, let started) = build else { preconditionFailure() }
            let kept = try await resolution.await(inFlight, subject: .instance(typed, store: self)) { waits in
                let labels = waits.map(\.subject.typeLabel)
                try failAsync(
                    asyncCycle(labels + [labels[0]], acrossTasks: true, requester: requester),
                    resolving: type, name: name, at: requester)
            }
            // The build this resolve started reported itself; one it awaited is reused.
            if observed, !started { report(typed, build: nil, chain: chain(on: nil), slot: found.slot) }
            return Self.instance(kept.object, as: type, lifetime: typed.lifetime)
        }
    }

    /// Traps with `error`, as `fail` does; on a verification copy, records it and throws
    /// `VerificationStop` instead, which ends the `async` factories that await this resolve.
    private func failAsync(
        _ error: ResolutionError, resolving type: Any.Type, name: String?, at requester: Requester
    ) throws -> Never {
        guard let verifier else { Self.fail(error, resolving: type, name: name, at: requester) }
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
            let build = AsyncBuild(registration: registration, removals: resolution.removals)
            let chain = resolution.appending(registration, in: core, build: build)
            let generation = slot.generation
            // Not a child of the first resolver: cancelling it does not cancel the others' build.
            build.task = Task { [self] in
                defer { WaitGraph.finished(build) }
                do {
                    let (value, timing) = try await runAsyncFactory(
                        registration, in: chain, requester: requester, timed: timed)
                    let kept: AnyObject
                    do throws(ResolutionError) {
                        // A `nil` is handed to the waiters and not kept, as a synchronous build's.
                        let isNilResult = registration.keptOptions?.withLock { $0.mayBeNil } == true && isNil(value)
                        kept = try keep(
                            value, of: registration, in: slot, builtIn: generation, finishing: build,
                            requester: requester, holdingIt: !isNilResult)
                    } catch {
                        Self.fail(error, resolving: T.self, name: registration.name, at: requester)
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
