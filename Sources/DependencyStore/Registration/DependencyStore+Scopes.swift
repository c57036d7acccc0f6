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
        let discarded = released.count
        let closes = released.closes()
        // Released here, with the lock dropped: an instance's deinit may resolve from this store.
        released = []
        close(closes, because: "reset(\(scope))")
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
