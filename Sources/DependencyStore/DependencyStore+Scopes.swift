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
    /// instance to its caller, but does not keep it.
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
            fatalError(
                """
                DependencyStore: reset(\(scope)) has nothing to discard.

                  Called at: \(fileID):\(line), on \(self)
                  \(scope) instances are \(scope == .weak ? "released when their last holder lets go" : "never kept in a store"), \
                so there is no instance for reset to discard.

                  To fix: reset .singleton or a custom scope (Scope("session")); register what must be rebuilt on
                  demand with one of those.
                """,
                file: fileID,
                line: line
            )
        }
        return registry.withLock { registry in
            var discarded = 0
            let owned = registry.all.compactMap { registration in registration.slot.map { (registration, $0) } }
            for (registration, slot) in owned + registry.inheritedSlots.values where registration.scope == scope {
                if slot.kept != nil { discarded += 1 }
                slot.discard()
            }
            return discarded
        }
    }
}
