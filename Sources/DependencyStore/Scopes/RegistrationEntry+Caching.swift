import Foundation

extension RegistrationEntry {
    /// Makes each instance of this registration good for `seconds` from when the store kept it:
    /// the first resolve after that builds a new one, and the store lets go of the old one and
    /// closes it, as a reset would.
    ///
    /// An access token that is good for five minutes:
    ///
    /// ```swift
    /// store.register(AccessToken.self, scope: .singleton) { _ in AccessToken.fetch() }
    ///     .expiring(after: 300)
    /// ```
    ///
    /// The factory runs once per expiry, however many threads resolve at that moment: the first
    /// builds, the others wait for its instance. The instance that expired is closed (if it says
    /// how: ``Closable``, ``AsyncClosable`` or `closing { }`) once the new one is built, with no
    /// lock held, and a failure goes to ``DependencyStore/onCloseFailure(_:)``. Nothing runs
    /// when the time comes: an expired instance stays kept, and listed as kept, until the next
    /// resolve lets go of it, or a reset, the store's end or a shutdown closes it as any other.
    ///
    /// The time is read from the clock of the store that keeps the instance (see
    /// ``DependencyStore/useCacheClock(_:)``): a test moves a ``ManualCacheClock`` instead of
    /// waiting. With ``cachedPerArgument(limit:fileID:line:)``, each argument value's instance
    /// expires on its own.
    ///
    /// > Important: Only instances the store keeps can expire: for ``Scope/unique``,
    /// > ``Scope/graph`` or ``Scope/weak``, for a main-actor or `async` factory, and after the
    /// > registration was first resolved, this traps, naming the registration. Apply it in the
    /// > statement that registers.
    ///
    /// - Parameters:
    ///   - seconds: How long an instance is handed out, from when it was kept. Positive.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: This entry.
    @discardableResult
    public func expiring(after seconds: TimeInterval, fileID: StaticString = #fileID, line: UInt = #line) -> Self {
        let call = "expiring(after: \(seconds))"
        if !(seconds > 0) { reject(call, .notPositive("The duration \(seconds)"), fileID: fileID, line: line) }
        return updateCaching(call, fileID: fileID, line: line) { $0.lifetime = seconds }
    }

    /// Makes this registration keep one instance per distinct value of its arguments, instead of
    /// the one instance built first, whatever later resolves pass.
    ///
    /// A document's model, one per document:
    ///
    /// ```swift
    /// store.register(DocumentModel.self, scope: .session) { (store, id: DocumentID) in
    ///     DocumentModel(id: id, storage: store.resolve())
    /// }
    /// .cachedPerArgument(limit: 20)
    ///
    /// let model = store.resolve(DocumentModel.self, arguments: DocumentID("a"))
    /// store.resolve(DocumentModel.self, arguments: DocumentID("a")) === model   // true
    /// ```
    ///
    /// Each value's instance is built once, however many threads ask for it at the same moment.
    /// The instances belong to the store as the registration's one instance would: a reset of the
    /// scope or of the registration (`reset(DocumentModel.self)`),
    /// `unregister`, a new registration, a shutdown and the store's end let go of every one, and
    /// close each once, dependents first. With a `limit`, keeping one more than `limit` lets go
    /// of the one used least recently, and closes it.
    ///
    /// > Important: Every argument's type must be `Hashable`, the factory must take arguments,
    /// > and the scope must be one the store keeps; otherwise, and after the registration was
    /// > first resolved, this traps, naming the registration and the argument.
    ///
    /// - Parameters:
    ///   - limit: How many instances are kept at most; `nil`, the default, for no bound.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: This entry.
    @discardableResult
    public func cachedPerArgument(limit: Int? = nil, fileID: StaticString = #fileID, line: UInt = #line) -> Self {
        let call = limit.map { "cachedPerArgument(limit: \($0))" } ?? "cachedPerArgument()"
        if let limit, limit <= 0 { reject(call, .notPositive("The limit \(limit)"), fileID: fileID, line: line) }
        guard let types = registration.argumentTypes else { reject(call, .noArguments, fileID: fileID, line: line) }
        if let type = types.first(where: { !($0 is any Hashable.Type) }) {
            reject(call, .notHashable(Diagnostics.shortName(of: type)), fileID: fileID, line: line)
        }
        return updateCaching(call, fileID: fileID, line: line) { policy in
            policy.perArgument = true
            policy.limit = limit
        }
    }

    private func updateCaching(
        _ call: String, fileID: StaticString, line: UInt, _ update: (inout CachePolicy) -> Void
    ) -> Self {
        guard let options = registration.keptOptions else {
            reject(call, .scopeKeepsNothing, fileID: fileID, line: line)
        }
        if registration.isolation != .none {
            reject(call, .isolated(onMainActor: registration.isolation == .mainActor), fileID: fileID, line: line)
        }
        if !isInForce(options) { reject(call, .noLongerRegistered, fileID: fileID, line: line) }
        let builtAlready = options.withLock { options in
            guard !options.built else { return true }
            var policy = options.caching ?? CachePolicy()
            update(&policy)
            options.caching = policy
            return false
        }
        if builtAlready { reject(call, .builtAlready, fileID: fileID, line: line) }
        return self
    }

    /// Whether the store still holds this entry's registration, or one that shares its options
    /// (what `on(_:_:)` put in its place): else a modifier would change a registration nobody
    /// resolves.
    private func isInForce(_ options: Lock<KeptOptions<T>>) -> Bool {
        store.registry.withLock { registry in
            if registration.role.isContribution, let slot = registration.slot {
                return registry.owns(slot, of: registration)
            }
            let current = registry[ObjectIdentifier(T.self), registration.name] as? Registration<T>
            return current?.keptOptions?.isSame(as: options) ?? false
        }
    }

    private func reject(_ call: String, _ problem: CachingProblem, fileID: StaticString, line: UInt) -> Never {
        Diagnosis.cachingCannotApply(
            call: call, registration: Diagnostics.label(of: registration), scope: registration.scope,
            registeredAt: registration.location, calledAt: SourceLocation(fileID: fileID, line: line), problem: problem
        ).trap(file: fileID, line: line)
    }
}
