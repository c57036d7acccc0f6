extension RegistrationEntry {
    /// Gives the registration an alternative factory that builds instead of its own while
    /// `context` is in force: a mock under tests, sample data in a SwiftUI preview, a stub when a
    /// UI test launches the app with an argument.
    ///
    /// ```swift
    /// store.register(Networking.self, scope: .singleton) { _ in URLSessionNetworking() }
    ///     .on(.test) { _ in MockNetworking() }
    ///     .on(.argument("-mock-network")) { _ in StubNetworking() }
    ///     .on(.preview) { _ in PreviewNetworking() }
    /// ```
    ///
    /// The alternative is the registration's in every other way: its type, name, scope and kept
    /// instance, its `closing { }` hook and the decorators of its type. Each build chooses, in
    /// the contexts in force for the task that builds (see ``DependencyContext``): the first of
    /// the registration's alternatives whose context is in force, in this order: an argument
    /// (of two, the one given first), ``DependencyContext/preview``, ``DependencyContext/test``,
    /// ``DependencyContext/simulator``, ``DependencyContext/device``, ``DependencyContext/debug``;
    /// the registration's own factory when none is.
    ///
    /// A store layered over this one that registers the same type (a test's own store, or one
    /// that `execute` makes current) wins over every alternative here: its lookup finds its own
    /// registration first. Its registration may have alternatives of its own.
    ///
    /// A registration without alternatives pays nothing for this: `on` puts a registration whose
    /// factory chooses in its place, as registering again would (without counting as a
    /// replacement in `verify()`'s report). So an instance the registration kept is let go of and
    /// closed, in this store and those layered over it, and the next resolve builds anew.
    ///
    /// > Important: The choice is made when the registration builds, so a `.singleton` (or
    /// > custom-scoped) instance built in one context is handed out in every other until it is
    /// > reset. Tests that set contexts with `DependencyContext.withActive` should resolve from
    /// > a store of their own.
    ///
    /// Traps, naming the registration and both places, for an alternative it cannot take: a
    /// second one for the same context, `.argument("")`, a contribution's entry, a factory that
    /// takes arguments, runs on the main actor or is `async`, or a registration the store no
    /// longer holds.
    ///
    /// - Parameters:
    ///   - context: The context in which `factory` builds instead.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    ///   - factory: Builds the value while `context` is in force, from the resolving store.
    /// - Returns: The entry of the registration with the alternative, on which to chain more.
    @discardableResult
    public func on(
        _ context: DependencyContext,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ factory: @escaping (DependencyStore) -> T
    ) -> RegistrationEntry<T> {
        let calledAt = SourceLocation(fileID: fileID, line: line)
        let refuse = { (reason: Diagnosis.AlternativeRefusal) -> Never in
            Diagnosis.alternativeRefused(
                Diagnostics.label(of: registration), context: context, reason: reason,
                registeredAt: registration.location, calledAt: calledAt
            ).trap(file: fileID, line: line)
        }
        if context == .argument("") { refuse(.emptyArgument) }
        if registration.role.isContribution { refuse(.contribution) }
        if let types = registration.argumentTypes {
            refuse(.takesArguments(types.map(Diagnostics.shortName(of:))))
        }
        if registration.isolation != .none { refuse(.isolated(onMainActor: registration.isolation == .mainActor)) }
        switch store.addAlternative(to: registration, context, at: calledAt, build: { store, _ in factory(store) }) {
        case .added(let replacement):
            return RegistrationEntry(registration: replacement, store: store)
        case .refused(let reason):
            refuse(reason)
        }
    }
}

extension DependencyStore {
    /// What `addAlternative` did.
    enum AlternativeOutcome<T> {
        case added(Registration<T>)
        case refused(Diagnosis.AlternativeRefusal)
    }

    /// Puts in place of `base` (or of what an earlier `on` put in its place) the same
    /// registration with `build` as its alternative for `context`; lets go of, and closes, what
    /// the replaced one kept, as a new registration would.
    func addAlternative<T>(
        to base: Registration<T>, _ context: DependencyContext, at location: SourceLocation,
        build: @escaping (DependencyStore, GivenArguments) -> T
    ) -> AlternativeOutcome<T> {
        let key = ObjectIdentifier(T.self)
        while true {
            let current = registry.withLock { $0[key, base.name] }
            guard let current = current as? Registration<T>,
                current === base || current.role.contextChoices?.origin == ObjectIdentifier(base)
            else { return .refused(.noLongerRegistered) }
            let choices =
                (current.role.contextChoices as? ContextFactories<T>)
                ?? ContextFactories(
                    defaultBuild: current.build, alternatives: [], builds: [], origin: ObjectIdentifier(base))
            if let earlier = choices.alternatives.first(where: { $0.context == context }) {
                return .refused(.duplicate(earlier: earlier.location))
            }
            let added = choices.adding(context, at: location, build: build)
            let replacement = Registration(current, choices: added, build: added.selector)
            var discarded: [DiscardedInstance] = []
            let replaced = registry.withLock { registry in
                // Another `on` may have come in between: then add to what it put in place.
                guard registry[key, base.name] === current else { return false }
                registry[key, base.name] = replacement
                current.slot?.discard(of: current, into: &discarded)
                return true
            }
            guard replaced else { continue }
            // Nothing is kept of it any more, in this store or those layered over it: a caching
            // modifier chained after `on` applies to every instance from now on, as it would
            // before the first build.
            replacement.keptOptions?.withLock { $0.built = false }
            closeReplaced(current, discarded: discarded, by: "an alternative (on(\(context)))")
            return .added(replacement)
        }
    }

    /// Builds `registration`, an alternative that `verify()` builds on its own in its copy,
    /// where no lookup finds it: as `resolveContribution` builds an element.
    func resolveAlternative<T>(_ registration: Registration<T>, requester: Requester) -> T {
        let found = registry.withLock { _ in
            // What a lookup records before a build: the removal epoch it ran in.
            ResolutionStack.recordLookupEpoch()
            return Found(registration: registration, slot: registration.slot, kept: registration.slot?.kept)
        }
        do {
            return try resolve(found, as: T.self, observed: false, requester: requester)
        } catch {
            fail(error, resolving: T.self, name: registration.name, at: requester)
        }
    }
}
