extension DependencyStore {
    /// Discards the instances this store keeps for `scope`, so the next resolve of each builds a
    /// new one.
    ///
    /// This is how a custom scope ends, as a session does on logout:
    ///
    /// ```swift
    /// extension Scope {
    ///     static let session = Scope("session")
    /// }
    ///
    /// func logOut() {
    ///     DependencyStore.shared.reset(.session)   // the next resolve builds a new session
    /// }
    /// ```
    ///
    /// Only instances of `scope` in this store are discarded: other scopes keep theirs, a parent
    /// store keeps its own, and objects already handed out live on as long as their holders keep
    /// them. A resolve that is building an instance of `scope` while you reset returns that
    /// instance to its caller, but does not keep it. The discarded instances are released after
    /// the store's lock is dropped, so a `deinit` that resolves from this store works.
    ///
    /// Before it lets go of them, the store closes the discarded instances that say how (they
    /// adopt ``Closable`` or ``AsyncClosable``, or their registration has a `closing { }`), each
    /// once, dependents first, with no lock held: the synchronous closes before `reset` returns,
    /// an `async` one and those after it in a task, in order (``shutdown(timeout:)`` awaits
    /// them, and ``reset(_:timeout:fileID:line:)`` resets and awaits). A close that throws is
    /// reported to ``onCloseFailure(_:)``. See <doc:Closing>.
    ///
    /// > Important: ``Scope/unique`` and ``Scope/graph`` keep nothing to reset, and resetting
    /// > ``Scope/weak`` would only forget objects that others still hold; these trap, naming the
    /// > call, because the call cannot do what it says.
    ///
    /// - Parameters:
    ///   - scope: ``Scope/singleton`` or a custom scope.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: How many instances were discarded.
    @discardableResult
    public func reset(_ scope: Scope, fileID: StaticString = #fileID, line: UInt = #line) -> Int {
        checkResettable(scope, fileID: fileID, line: line)
        var released: [DiscardedInstance] = []
        registry.withLock { registry in
            registry.discardKept(matching: { $0.scope == scope }, into: &released)
        }
        return closeReset(released, because: "reset(\(scope))")
    }

    /// Closes what a reset took out of the slots under the lock, and returns how many instances
    /// that was. They are released here, with the lock dropped: an instance's deinit may resolve
    /// from this store.
    private func closeReset(_ released: consuming [DiscardedInstance], because trigger: String) -> Int {
        let discarded = released.count
        let closes = released.closes()
        _ = consume released
        close(closes, because: trigger)
        return discarded
    }

    /// Traps for a scope whose instances the store does not keep, naming the call.
    func checkResettable(_ scope: Scope, fileID: StaticString, line: UInt) {
        switch scope.kind {
        case .singleton, .custom:
            break
        case .unique, .graph, .weak:
            Diagnosis.resetKeepsNothing(scope, calledAt: SourceLocation(fileID: fileID, line: line), store: "\(self)")
                .trap(file: fileID, line: line)
        }
    }
}

extension DependencyStore {
    /// Discards the instance (or, with ``RegistrationEntry/cachedPerArgument(limit:fileID:line:)``,
    /// the instances) this store keeps for the registration of `type` and `name`, so the next
    /// resolve builds a new one; the rest of its scope keeps theirs.
    ///
    /// A token that the server revoked, rebuilt without ending the session:
    ///
    /// ```swift
    /// store.reset(AccessToken.self)   // the next resolve fetches a new token
    /// ```
    ///
    /// It discards as ``reset(_:fileID:line:)`` does, for one registration: what a build running
    /// meanwhile makes is handed to its caller and not kept, and the discarded instances are
    /// closed (dependents first, each once, with no lock held; a failure goes to
    /// ``onCloseFailure(_:)``) and released after the store's lock is dropped.
    ///
    /// For a registration this store inherits from a parent, it discards this store's own copy,
    /// if it keeps one (a store that overrides something does, see "Layered stores" in
    /// <doc:Lifetimes>); a store that shares the parent's instance keeps nothing of it, and
    /// resets nothing. The parent is never changed through a child: reset there.
    ///
    /// > Important: A type not registered in this store or a parent traps, with the
    /// > registrations of similar names; so does a registration of ``Scope/unique``,
    /// > ``Scope/graph`` or ``Scope/weak``, of which no instance is kept.
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The name it was registered under; `nil`, the default, for the unnamed one.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: How many instances were discarded.
    @discardableResult
    public func reset<T>(_ type: T.Type, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line)
        -> Int
    {
        let key = ObjectIdentifier(type)
        let location = SourceLocation(fileID: fileID, line: line)
        let call =
            "reset(\(Diagnostics.shortName(of: type)).self\(name.map { ", name: \"\($0)\"" } ?? ""))"
        var released: [DiscardedInstance] = []
        // This store's registration, or the nearest ancestor's, as a resolve finds it.
        let found = sequence(first: self, next: \.parent).lazy.compactMap { store in
            store.registry.withLock { $0[key, name] }.map { (registration: $0, own: store === self) }
        }.first
        guard let (registration, own) = found else {
            let registered = sequence(first: self, next: \.parent).flatMap { $0.registry.withLock { $0.all } }
            Diagnosis.noRegistrationToChange(
                call: call, purpose: .reset, type: Diagnostics.shortName(of: type), calledAt: location,
                store: "\(self)",
                registeredNames: registered.filter { $0.type == type }.map(\.name),
                closeMatches: Diagnostics.closeMatches(to: type, among: registered)
            ).trap(file: fileID, line: line)
        }
        guard registration.lifetime == .cached else {
            Diagnosis.resetOneKeepsNothing(
                Diagnostics.label(of: registration), scope: registration.scope, registeredAt: registration.location,
                calledAt: location
            ).trap(file: fileID, line: line)
        }
        registry.withLock { registry in
            if own {
                // Replaced or removed since it was looked up: the registration there now.
                guard let current = registry[key, name] else { return }
                current.slot?.discard(of: current, into: &released)
            } else if let entry = registry.inheritedSlots[ObjectIdentifier(registration)] {
                entry.slot.discard(of: entry.registration, into: &released)
            }
        }
        return closeReset(released, because: call)
    }
}
