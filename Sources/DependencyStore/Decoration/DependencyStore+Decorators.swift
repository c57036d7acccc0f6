extension DependencyStore {
    /// Runs `decorator` on every instance the registration of `type` (under `name`) builds,
    /// before anyone else sees it: to finish an instance (set a property, a back-reference), or to
    /// wrap it.
    ///
    /// ```swift
    /// store.register(Parent.self, scope: .singleton) { _ in Parent() }
    /// store.register(Child.self) { _ in Child() }
    /// store.decorate(Parent.self) { store, parent in
    ///     let child = store.resolve(Child.self)
    ///     child.parent = parent          // a weak back-reference, set once both exist
    ///     parent.child = child
    ///     return parent
    /// }
    /// ```
    ///
    /// What the decorator returns is the instance: a `.singleton` keeps it, a `.graph` shares it.
    /// It runs on the thread that builds the instance, with the instance's resolution still on
    /// the chain, so a decorator that resolves what it decorates (directly or through others) is
    /// a cycle, and traps as one. Several decorators run in the order added, those of a parent
    /// store first, even when they are added from one line (a loop, a helper); a store layered
    /// over this one runs this store's decorators too. An assembly applied again replaces the
    /// decorators its earlier application added, call for call, instead of adding them twice. An
    /// instance a scope already keeps is not decorated again; the decorator applies from the next
    /// build on.
    ///
    /// To decorate every registration of a type, named ones and contributions included, use
    /// ``decorate(every:fileID:line:_:)``.
    ///
    /// - Parameters:
    ///   - type: The registered type, as it is resolved.
    ///   - name: The name of the registration to decorate; `nil`, the default, for the unnamed one.
    ///   - fileID: Where the decorator is added, for diagnostics. Leave the default.
    ///   - line: The line where it is added. Leave the default.
    ///   - decorator: Receives the resolving store and the built instance; returns the instance
    ///     to hand out. It runs with no lock of the store held.
    public func decorate<T>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ decorator: @escaping (DependencyStore, T) -> T
    ) {
        add(decorator, of: type, target: .registration(name: name), at: SourceLocation(fileID: fileID, line: line))
    }

    /// Runs `decorator` on every instance built for `type`: by the registrations of `type` under
    /// any name and by every element contributed to its collection.
    ///
    /// ```swift
    /// store.decorate(every: AnalyticsSink.self) { _, sink in
    ///     SamplingSink(wrapping: sink, rate: 0.1)
    /// }
    /// ```
    ///
    /// It behaves as ``decorate(_:name:fileID:line:_:)`` does for one registration. A forward
    /// (``forward(_:name:to:named:fileID:line:)``) is not decorated: decorate the type it
    /// forwards to.
    ///
    /// - Parameters:
    ///   - type: The type whose instances to decorate.
    ///   - fileID: Where the decorator is added, for diagnostics. Leave the default.
    ///   - line: The line where it is added. Leave the default.
    ///   - decorator: Receives the resolving store and the built instance; returns the instance
    ///     to hand out.
    public func decorate<T>(
        every type: T.Type,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ decorator: @escaping (DependencyStore, T) -> T
    ) {
        add(decorator, of: type, target: .every, at: SourceLocation(fileID: fileID, line: line))
    }

    func add<T>(
        _ decorator: @escaping (DependencyStore, T) -> T,
        of type: T.Type,
        target: Decorator.Target,
        at location: SourceLocation,
        completes: Bool = false
    ) {
        let entry = Decorator(
            target: target, type: T.self, location: location, assembly: AssemblyTag.current,
            apply: { store, value in decorator(store, value as! T) }, completes: completes)
        let added: Bool = registry.withLock { registry in
            core.stopsSharing(&registry)
            let key = ObjectIdentifier(T.self)
            // The same call of an assembly applied again replaces its decorator rather than
            // wrapping every instance twice, as a registration made again replaces itself.
            if let index = registry.decorators[key]?.firstIndex(where: entry.replaces) {
                registry.decorators[key]![index] = entry
                return false
            }
            registry.decorators[key, default: []].append(entry)
            return true
        }
        if added {
            core.adjustStagesInScope(by: 1)
        }
    }

    /// `value` after the decorators that apply, if a stage is in scope (this store or an ancestor
    /// may have decorators): for the stages that decorate (`ResolveStage.finish`), and an `async`
    /// factory's build, whose completion steps run at once (`deferringCompletions: false`): a task
    /// may go on on another thread.
    func decoratedIfAny<T>(_ value: T, of registration: AnyRegistration, deferringCompletions: Bool = true) -> T {
        hasStagesInScope ? decorated(value, of: registration, deferringCompletions: deferringCompletions) : value
    }

    /// `value`, which `registration` just built, after the decorators of this store and its
    /// ancestors that apply to it (ancestors' first, each store's in the order added). The
    /// completion steps that apply are queued on this thread's chain, to run when the outermost
    /// staged build ends (see `Completion.swift`), or run now without `deferringCompletions`.
    func decorated<T>(_ value: T, of registration: AnyRegistration, deferringCompletions: Bool = true) -> T {
        let key = ObjectIdentifier(T.self)
        let decorators = sequence(first: self, next: \.parent).reversed().flatMap { store in
            store.registry.withLock { $0.decorators[key] ?? [] }
        }
        var value = value
        var steps: [Decorator] = []
        let stack = ResolutionStack.current
        for decorator in decorators where decorator.applies(to: registration) {
            if decorator.completes {
                steps.append(decorator)
                continue
            }
            stack.decorators.append((ObjectIdentifier(registration), decorator.location))
            defer { stack.decorators.removeLast() }
            value = decorator.apply(self, value) as! T
        }
        if !steps.isEmpty, deferringCompletions {
            stack.queueCompletion(of: value, by: registration, in: self, steps: steps)
        } else {
            for step in steps { _ = step.apply(self, value) }
        }
        return value
    }
}

/// The stage of a resolve with decorators in scope: the decorators that apply run on what the
/// factory built, while its frame is still on the chain, so a decorator that resolves the instance
/// it decorates is a cycle.
enum DecoratedBuild: ResolveStage {
    static var decorates: Bool { true }
}
