extension DependencyStore {
    /// Builds the dependency registered for `type`.
    ///
    /// The registration's factory runs on the calling thread, with no lock of the store held;
    /// while it runs, this store is ``shared``, so objects it creates bind their `@Injected`
    /// properties to this store.
    ///
    /// ```swift
    /// let fetcher = store.resolve(PriceFetcherType.self)
    /// let formatter: PriceFormatting = store.resolve()
    /// ```
    ///
    /// > Important: A missing registration and a dependency cycle are programmer errors: they trap
    /// > with a message that names the type, who asked, the store and how to fix it (see
    /// > `Docs/Diagnostics.md`). Use ``tryResolve(_:fileID:line:)`` to get the same message as an
    /// > error instead.
    ///
    /// - Parameters:
    ///   - type: The type that was registered, usually a protocol. It can be left out when the
    ///     result's type is known from context.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T>(_ type: T.Type = T.self, fileID: StaticString = #fileID, line: UInt = #line) -> T {
        resolve(type, requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type`, or throws when it cannot.
    ///
    /// This is ``resolve(_:fileID:line:)`` for dependencies that may legitimately be absent: the
    /// error carries the same diagnostic that `resolve` would trap with.
    ///
    /// ```swift
    /// let analytics = try? store.tryResolve(Analytics.self)
    /// ```
    ///
    /// Only this resolution is checked: when a factory it runs calls `resolve` for something that
    /// is missing, that nested call still traps.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    /// - Throws: ``ResolutionError`` when `type` is not registered (``ResolutionError/Kind/notRegistered``)
    ///   or is already being built further up this resolution chain (``ResolutionError/Kind/cycle``).
    public func tryResolve<T>(
        _ type: T.Type = T.self,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) throws(ResolutionError) -> T {
        try resolveChecked(type, requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// The trapping resolve behind `resolve` and `@Injected`: the trap points at the requester.
    func resolve<T>(_ type: T.Type, requester: Requester) -> T {
        do {
            return try resolveChecked(type, requester: requester)
        } catch {
            fatalError(error.description, file: requester.location.fileID, line: requester.location.line)
        }
    }

    /// The one resolution path. The error is a typed throw, so success pays nothing for it, and
    /// its text is built only on failure.
    private func resolveChecked<T>(_ type: T.Type, requester: Requester) throws(ResolutionError) -> T {
        guard let registration = registration(for: type) else {
            throw missingRegistration(of: type, requester: requester, stack: ResolutionStack.currentIfCreated)
        }
        let stack = ResolutionStack.current
        if let start = stack.indexOfFrame(resolving: ObjectIdentifier(type), in: self) {
            throw cycle(closedBy: type, from: start, requester: requester, stack: stack)
        }
        return build(registration, on: stack)
    }

    @inline(__always)
    private func registration<T>(for type: T.Type) -> Registration<T>? {
        guard let registration = registrations.withLock({ $0[ObjectIdentifier(type)] }) else { return nil }
        // Stored under ObjectIdentifier(T.self), so it is a Registration<T> by construction.
        return unsafeDowncast(registration, to: Registration<T>.self)
    }

    /// Runs the factory with this resolution pushed on the thread's chain; no lock is held.
    @inline(__always)
    private func build<T>(_ registration: Registration<T>, on stack: ResolutionStack) -> T {
        stack.push(ResolutionStack.Frame(store: self, type: T.self))
        defer { stack.pop() }
        return registration.factory(self)
    }
}
