/// A registration just made: what `register` and `contribute` return, so that you can say how the
/// store closes the instances it keeps of it, and how long it keeps them
/// (``expiring(after:fileID:line:)``, ``cachedPerArgument(limit:fileID:line:)``).
///
/// ```swift
/// store.register(Database.self, scope: .singleton) { _ in Database(path: "app.sqlite") }
///     .closing { database in database.disconnect() }
/// ```
///
/// You need it only for those: `register` is `@discardableResult`, and a registration is complete
/// without it. An instance whose type adopts ``Closable`` or ``AsyncClosable`` is closed without it.
public struct RegistrationEntry<T> {
    let registration: Registration<T>
    /// The store it was registered in: where `on(_:_:)` puts the registration with an alternative.
    let store: DependencyStore

    /// Says how the store closes each instance of this registration that it keeps, when it lets go
    /// of it: for a type you cannot make ``Closable``, or to close it another way.
    ///
    /// ```swift
    /// store.register(Database.self, scope: .singleton) { _ in Database(path: "app.sqlite") }
    ///     .closing { database in database.disconnect() }
    /// ```
    ///
    /// The store calls `close` once per instance it kept, with no lock held, when the instance's
    /// time is over: `reset` of its scope; `unregister`, `unload` or a new registration of the same
    /// type and name; ``DependencyStore/shutdown(timeout:)``; the end of the store. Dependents
    /// are closed before what they depend on: in the reverse order the store built them. It
    /// replaces, for this registration, the instance's own ``Closable`` or ``AsyncClosable``
    /// `close()`, and a `closing` said before.
    ///
    /// > Important: Only instances the store keeps are closed: ``Scope/singleton`` and custom
    /// > scopes. For ``Scope/unique``, ``Scope/graph`` or ``Scope/weak``, which the store does not
    /// > keep, this traps, naming the registration, because the hook could never run.
    ///
    /// - Parameters:
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    ///   - close: Closes one instance. An error it throws is reported (see
    ///     ``DependencyStore/onCloseFailure(_:)``), and the instance is let go of anyway.
    /// - Returns: This entry.
    @discardableResult
    public func closing(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ close: @escaping (T) throws -> Void
    ) -> Self {
        setHook({ value in .sync { try close(value) } }, fileID: fileID, line: line)
    }

    /// Says how the store closes each instance of this registration that it keeps, awaiting what
    /// that takes: ``DependencyStore/shutdown(timeout:)`` awaits it, up to its deadline.
    ///
    /// ```swift
    /// store.register(UploadQueue.self, scope: .singleton) { _ in UploadQueue() }
    ///     .closing { queue in try await queue.flush() }
    /// ```
    ///
    /// Where the store cannot await (`reset`, `unload`, a new registration, the store's end), the
    /// close runs in a task, after the closes before it and before those after it. A close still
    /// running when a shutdown's deadline passes is cancelled and reported. Otherwise it is the
    /// synchronous `closing`, and traps for the same scopes.
    ///
    /// - Parameters:
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    ///   - close: Closes one instance. An error it throws is reported, and the instance is let go
    ///     of anyway.
    /// - Returns: This entry.
    @discardableResult
    public func closing(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ close: @escaping @Sendable (T) async throws -> Void
    ) -> Self {
        setHook(
            { value in
                let instance = UncheckedSendable(value)
                return .async { try await close(instance.value) }
            }, fileID: fileID, line: line)
    }

    private func setHook(_ hook: @escaping (T) -> CloseAction, fileID: StaticString, line: UInt) -> Self {
        guard let options = registration.keptOptions else {
            Diagnosis.closingNeverRuns(
                Diagnostics.label(of: registration), scope: registration.scope, registeredAt: registration.location,
                calledAt: SourceLocation(fileID: fileID, line: line)
            ).trap(file: fileID, line: line)
        }
        options.withLock { $0.close = hook }
        return self
    }
}

extension RegistrationEntry: Sendable {}
