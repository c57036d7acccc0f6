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
    /// A second `on` for a context the registration has an alternative for already replaces that
    /// alternative, where it stood among the others, as a second `register` replaces the first:
    /// the usual reason is a test that overrides the app's test mock for one case. To add or
    /// remove alternatives of a registration made elsewhere, use
    /// ``DependencyStore/on(_:for:name:fileID:line:_:)`` and
    /// ``DependencyStore/removeAlternatives(of:name:for:fileID:line:)``.
    ///
    /// > Important: The choice is made when the registration builds, so a `.singleton` (or
    /// > custom-scoped) instance built in one context is handed out in every other until it is
    /// > reset. Tests that set contexts with `DependencyContext.withActive` should resolve from
    /// > a store of their own.
    ///
    /// Traps, naming the registration and both places, for an alternative it cannot take:
    /// `.argument("")`, a contribution's entry, a factory that takes arguments, runs on the main
    /// actor or is `async`, or a registration the store no longer holds.
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
        let changed = store.changeAlternatives(
            of: registration, .set(context, at: calledAt, build: { store, _ in factory(store) }),
            call: "on(\(context))", byType: false, calledAt: calledAt, fileID: fileID, line: line)
        return RegistrationEntry(registration: changed.now, store: store)
    }
}

extension DependencyStore {
    /// Gives the registration of `type` and `name` in this store an alternative factory for
    /// `context`, from anywhere: what ``RegistrationEntry/on(_:fileID:line:_:)`` does, for a
    /// registration made elsewhere, such as the app's `registerAll()` that a test's setup ran.
    ///
    /// ```swift
    /// let store = DependencyStore()
    /// store.register(Networking.self, scope: .singleton) { _ in URLSessionNetworking() }
    ///
    /// // In a test's setup, far from the registration:
    /// store.on(.test, for: Networking.self) { _ in MockNetworking() }
    /// ```
    ///
    /// An alternative for a context the registration has one for already replaces it. The
    /// registration is this store's own: one a parent store makes is shared with every store over
    /// it, and is changed only through that store.
    ///
    /// Traps, naming the type and the fix, when this store registers nothing of `type` under
    /// `name` (and when a parent does, saying so), for a registration that forwards (give the
    /// alternative to the type it forwards to), and for an alternative the registration cannot
    /// take, as `on` does. A value given with `provide(_:for:)` takes alternatives as a
    /// registration does: its alternatives build from the resolving store.
    ///
    /// - Parameters:
    ///   - context: The context in which `factory` builds instead.
    ///   - type: The registered type.
    ///   - name: The registration's name; `nil`, the default, for the unnamed one.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    ///   - factory: Builds the value while `context` is in force, from the resolving store.
    /// - Returns: The entry of the registration with the alternative, on which to chain more.
    @discardableResult
    public func on<T>(
        _ context: DependencyContext,
        for type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ factory: @escaping (DependencyStore) -> T
    ) -> RegistrationEntry<T> {
        let calledAt = SourceLocation(fileID: fileID, line: line)
        let changed = changeOwnAlternatives(
            of: type, name: name, .set(context, at: calledAt, build: { store, _ in factory(store) }),
            call: "on(\(context), for: \(Diagnostics.shortName(of: type)).self\(Self.nameArgument(name)))",
            calledAt: calledAt, fileID: fileID, line: line)
        return RegistrationEntry(registration: changed.now, store: self)
    }

    /// Removes the alternatives of the registration of `type` and `name` in this store, all of
    /// them or the one for `context`, and keeps the registration: its own factory builds again
    /// where an alternative did. What Factory's `reset(.context)` does.
    ///
    /// ```swift
    /// store.register(Networking.self, scope: .singleton) { _ in URLSessionNetworking() }
    ///     .on(.test) { _ in MockNetworking() }
    /// store.removeAlternatives(of: Networking.self, for: .test)
    /// // store.alternatives(of: Networking.self) is now []
    /// ```
    ///
    /// As with `on`, an instance the registration kept is let go of and closed, in this store and
    /// those layered over it, so the next resolve builds with the alternatives that are left.
    /// Removing all of them from a registration that has none changes nothing and returns `[]`:
    /// a test's teardown can say it whatever its setup did.
    ///
    /// Traps, naming the type and the fix, when this store registers nothing of `type` under
    /// `name` (and when a parent does, saying so), and when `context` is given and the
    /// registration has no alternative for it (naming those it has).
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name; `nil`, the default, for the unnamed one.
    ///   - context: The context whose alternative goes; `nil`, the default, for all of them.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: The contexts whose alternatives were removed, in the order they were given.
    @discardableResult
    public func removeAlternatives<T>(
        of type: T.Type,
        name: String? = nil,
        for context: DependencyContext? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> [DependencyContext] {
        let call =
            "removeAlternatives(of: \(Diagnostics.shortName(of: type)).self\(Self.nameArgument(name))"
            + (context.map { ", for: \($0))" } ?? ")")
        return changeOwnAlternatives(
            of: type, name: name, .remove(context), call: call, calledAt: SourceLocation(fileID: fileID, line: line),
            fileID: fileID, line: line
        ).removed
    }

    /// The contexts the registration of `type` and `name` that a resolve from this store finds
    /// (its own, or the nearest parent's) has alternatives for, in the order they were given;
    /// `[]` when it has none, or when nothing registers `type` under `name`.
    ///
    /// ```swift
    /// #expect(store.alternatives(of: Networking.self) == [.test])
    /// ```
    public func alternatives<T>(of type: T.Type, name: String? = nil) -> [DependencyContext] {
        let key = ObjectIdentifier(type)
        for store in sequence(first: self, next: \.parent) {
            if let registration = store.registry.withLock({ $0[key, name] }) {
                return registration.role.contextChoices?.alternatives.map(\.context) ?? []
            }
        }
        return []
    }

    /// `, name: "..."` for a call's text, or nothing.
    static func nameArgument(_ name: String?) -> String {
        name.map { ", name: \"\($0)\"" } ?? ""
    }

    /// Changes by `change` the alternatives of this store's own registration of `type` and
    /// `name`, for `call`, made by type (see `changeAlternatives`); traps, naming the type and the
    /// fix, when this store has no such registration.
    private func changeOwnAlternatives<T>(
        of type: T.Type, name: String?, _ change: AlternativeChange<T>, call: String, calledAt: SourceLocation,
        fileID: StaticString, line: UInt
    ) -> (now: Registration<T>, removed: [DependencyContext]) {
        if let registration = registry.withLock({ $0[ObjectIdentifier(type), name] }) as? Registration<T> {
            return changeAlternatives(
                of: registration, change, call: call, byType: true, calledAt: calledAt, fileID: fileID, line: line)
        }
        let registered = sequence(first: self, next: \.parent).flatMap { $0.registry.withLock { $0.all } }
        let owner = sequence(first: self, next: \.parent).dropFirst().first {
            $0.registry.withLock { $0[ObjectIdentifier(type), name] } != nil
        }
        Diagnosis.noRegistrationToChange(
            call: call, purpose: .alternatives(registeredInParent: owner.map { "\($0)" }),
            type: Diagnostics.shortName(of: type), calledAt: calledAt, store: "\(self)",
            registeredNames: registered.filter { $0.type == type }.map(\.name),
            closeMatches: Diagnostics.closeMatches(to: type, among: registered)
        ).trap(file: fileID, line: line)
    }

    /// A change to a registration's alternatives.
    enum AlternativeChange<T> {
        /// Adds the alternative for `context`, or replaces the one it has.
        case set(DependencyContext, at: SourceLocation, build: (DependencyStore, GivenArguments) -> T)
        /// Removes the alternative for a context, or all of them for `nil`.
        case remove(DependencyContext?)
    }

    /// Puts in place of `base` (or of what an earlier change put in its place) the same
    /// registration with its alternatives changed by `change`; lets go of, and closes, what the
    /// replaced one kept, as a new registration would. The one way every call that changes
    /// alternatives goes (`on`, by entry or by type, and `removeAlternatives`). Traps, naming
    /// the registration and both places, for an alternative it cannot take. `byType`: called by
    /// type and name, far from the registration (a test's setup), which the fix says.
    func changeAlternatives<T>(
        of base: Registration<T>, _ change: AlternativeChange<T>, call: String, byType: Bool,
        calledAt: SourceLocation, fileID: StaticString, line: UInt
    ) -> (now: Registration<T>, removed: [DependencyContext]) {
        let context: DependencyContext? =
            switch change {
            case .set(let context, _, _): context
            case .remove(let context): context
            }
        let refuse = { (reason: Diagnosis.AlternativeRefusal) -> Never in
            Diagnosis.alternativeRefused(
                Diagnostics.label(of: base), call: call, byType: byType, context: context, reason: reason,
                registeredAt: base.location, calledAt: calledAt
            ).trap(file: fileID, line: line)
        }
        if case .set(let context, _, _) = change {
            if context == .argument("") { refuse(.emptyArgument) }
            if base.role.isContribution { refuse(.contribution) }
            if case .forward(let target, _) = base.role { refuse(.forward(to: Diagnostics.shortName(of: target))) }
            if let types = base.argumentTypes { refuse(.takesArguments(types.map(Diagnostics.shortName(of:)))) }
            if base.isolation != .none { refuse(.isolated(onMainActor: base.isolation == .mainActor)) }
        }
        let key = ObjectIdentifier(T.self)
        // The registration `register` made: what every registration that a change put in its place
        // remembers, so that an entry of any of them may change the one in force.
        let origin = base.role.contextChoices?.origin ?? base
        while true {
            let current = registry.withLock { $0[key, base.name] }
            guard let current = current as? Registration<T>,
                current === base || current.role.contextChoices?.origin === origin
            else { refuse(.noLongerRegistered) }
            if case .remove(let context?) = change,
                current.role.contextChoices?.alternatives.contains(where: { $0.context == context }) != true
            {
                refuse(.noAlternative(has: current.role.contextChoices?.alternatives.map(\.context) ?? []))
            }
            let choices =
                (current.role.contextChoices as? ContextFactories<T>)
                ?? ContextFactories(defaultBuild: current.build, alternatives: [], builds: [], origin: current)
            // Nothing to remove from a registration with none: nothing changes.
            if case .remove(nil) = change, choices.alternatives.isEmpty { return (current, []) }
            let (changed, cause) =
                switch change {
                case .set(let context, let location, let build):
                    (choices.setting(context, at: location, build: build), "an alternative (on(\(context)))")
                case .remove(let context): (choices.removing(context), call)
                }
            let replacement = Registration(
                current, role: .contextual(changed),
                build: changed.alternatives.isEmpty ? changed.defaultBuild : changed.selector,
                keptOptions: current.keptOptions)
            var discarded: [DiscardedInstance] = []
            let replaced = registry.withLock { registry in
                // Another change may have come in between: then change what it put in place.
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
            closeReplaced(current, discarded: discarded, by: cause)
            let left = Set(changed.alternatives.map(\.context))
            return (replacement, choices.alternatives.map(\.context).filter { !left.contains($0) })
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
        return resolveTrapping(found, as: T.self, observed: false, requester: requester)
    }
}
