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
        switch scope.kind {
        case .singleton, .custom:
            break
        case .unique, .graph, .weak:
            Diagnosis.resetKeepsNothing(scope, calledAt: SourceLocation(fileID: fileID, line: line), store: "\(self)")
                .trap(file: fileID, line: line)
        }
        let (discarded, released): (Int, [AnyObject]) = registry.withLock { registry in
            var discarded = 0
            var released: [AnyObject] = []
            for (registration, slot) in registry.slots where registration.scope == scope {
                if slot.kept != nil { discarded += 1 }
                if let box = slot.discard() { released.append(box) }
            }
            return (discarded, released)
        }
        // Released here, with the lock dropped: an instance's deinit may resolve from this store.
        _ = released
        return discarded
    }
}
