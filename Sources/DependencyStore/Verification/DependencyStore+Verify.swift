extension DependencyStore {
    /// Builds every registration once, in a throw-away copy of this store, and reports what is
    /// wired wrong: missing registrations (with the path that needs them), cycles, and captive
    /// dependencies (a `.singleton` or custom-scoped instance holding one whose scope ends sooner;
    /// see ``CaptiveRule``).
    ///
    /// ```swift
    /// let report = DependencyStore.shared.verify()
    /// print(report)
    /// // verify(): the root store: checked 6 registrations, 1 problem.
    /// // - missing: PriceReport -> PriceFetching -> Networking (not registered). Fix: ...
    /// ```
    ///
    /// What it does:
    /// - The copy holds this store's registrations and its parents' (as this store sees them), with
    ///   slots of its own: no instance is kept in this store and no singleton is created in it.
    /// - Each registration is resolved in the copy, so every nested resolve its factory makes is
    ///   followed, and every `@Injected` property created while it runs is recorded (and checked
    ///   for a registration, though it is not resolved).
    /// - A resolve that would trap (missing, cycle, wrong arguments) is recorded instead. Factories
    ///   run on threads of the verifier's own, and a factory stopped that way can never return,
    ///   so the verifier parks its thread for good and goes on: one sleeping thread per stopped
    ///   build outlives `verify()`. Whatever the stopped factories hold stays held (objects and
    ///   gates of the copy, and a lock a factory took itself: resolve before taking one); a later
    ///   build that needs what a stopped one holds is reported at once, with that cause.
    /// - A registration built as a dependency of an earlier one is not built again, so the work
    ///   grows with the number of registrations and edges.
    /// - A type that each request's store provides, declared with
    ///   ``providedPerRequest(_:name:fileID:line:)``, is treated as given: a factory that resolves
    ///   it stops there without a problem. An app-wide instance whose graph reaches one is
    ///   reported (``VerificationProblem/Kind/perRequestDependency``), and so is a declared type
    ///   that this store or a parent registers (``VerificationProblem/Kind/perRequestConflict``).
    /// - Registrations whose factory takes arguments are skipped unless `sampleArguments` gives
    ///   them some. Main-actor and `async` registrations, and those whose factories resolve one,
    ///   are skipped and listed with the reason: verification builds on threads of its own, where
    ///   those factories cannot run. ``verifyAsync(sampleArguments:entryPoints:timeout:captives:overrides:)``
    ///   builds them too.
    ///
    /// What it cannot see: work done outside factories (an `@Injected` property resolved later
    /// resolves what *its* registration resolves, which verification builds on its own, but a
    /// `resolve` in a method called after start-up is invisible), a factory that resolves from a
    /// store it captured instead of the one it is given, and a factory that traps by itself (that
    /// still crashes). Factories do run, off the main thread: one that does I/O does it here too.
    ///
    /// - Parameters:
    ///   - sampleArguments: Arguments for registrations whose factory takes them.
    ///   - entryPoints: Types the app creates itself rather than resolves (a view model a view
    ///     makes), created as the app does and checked as registrations are; see ``EntryPoint``.
    ///   - timeout: How long one registration's build may take, in seconds, before it is reported
    ///     as `.timedOut` and verification goes on without it.
    ///   - captives: Which captive dependencies to report: ``CaptiveRule/scoped`` (the default)
    ///     or ``CaptiveRule/strict``.
    ///   - overrides: Whether a registration that replaced another of the same store is only
    ///     listed (``OverrideRule/listed``, the default) or also a problem
    ///     (``OverrideRule/forbidden``).
    /// - Returns: The report: ``VerificationReport/isClean`` when nothing is wrong.
    public func verify(
        sampleArguments: [SampleArguments] = [],
        entryPoints: [EntryPoint] = [],
        timeout: Double = 5,
        captives: CaptiveRule = .scoped,
        overrides: OverrideRule = .listed
    ) -> VerificationReport {
        let plan = VerificationPlan(
            of: self, sampleArguments: sampleArguments, entryPoints: entryPoints, timeout: timeout, captives: captives,
            isolated: false)
        plan.verifier.run(plan.roots, in: plan.copy)
        return plan.report(of: self, overrides: overrides)
    }

    /// Verifies as ``verify(sampleArguments:entryPoints:timeout:captives:overrides:)`` does, and also runs
    /// the factories it skips: main-actor factories on the main actor, and `async` ones awaited
    /// with ``resolveAsync(_:name:fileID:line:)``, each under the same time bound.
    ///
    /// ```swift
    /// @Test func theAppIsWiredRight() async {
    ///     let store = DependencyStore()
    ///     store.registerAll()
    ///     let report = await store.verifyAsync()
    ///     #expect(report.isClean, "\(report)")
    /// }
    /// ```
    ///
    /// A main-actor factory, or a factory that resolves one, is built on the main actor while the
    /// verifier waits for it without blocking it, so call this from anywhere, the main actor
    /// included. What an `async` factory resolves with `resolveAsync` is followed and checked; a
    /// problem there ends the factory with an error that the report already holds. A synchronous
    /// resolve that fails inside an `async` factory still traps, as it would at run time: resolve
    /// with `resolveAsync` in `async` factories. A synchronous resolve of an `async` registration,
    /// which can never work, is reported as `failed:`.
    ///
    /// - Parameters:
    ///   - sampleArguments: Arguments for registrations whose factory takes them.
    ///   - entryPoints: Types the app creates itself rather than resolves (a view model a view
    ///     makes), created as the app does and checked as registrations are; see ``EntryPoint``.
    ///   - timeout: How long one registration's build may take, in seconds.
    ///   - captives: Which captive dependencies to report.
    ///   - overrides: Whether replacements are only listed or also problems.
    /// - Returns: The report; its ``VerificationReport/skippedForIsolation`` is empty.
    public func verifyAsync(
        sampleArguments: [SampleArguments] = [],
        entryPoints: [EntryPoint] = [],
        timeout: Double = 5,
        captives: CaptiveRule = .scoped,
        overrides: OverrideRule = .listed
    ) async -> VerificationReport {
        let plan = VerificationPlan(
            of: self, sampleArguments: sampleArguments, entryPoints: entryPoints, timeout: timeout, captives: captives,
            isolated: true)
        // Main-actor registrations last: one whose build stops ends the process (see
        // `Verifier.park`), so every other problem is found first.
        let onMainActor = plan.roots.filter { $0.registration.isolation == .mainActor }
        await plan.runSynchronous(plan.roots.filter { $0.registration.isolation != .mainActor })
        await plan.verifier.runAsync(plan.asyncRoots, in: plan.copy)
        await plan.runSynchronous(onMainActor)
        return plan.report(of: self, overrides: overrides)
    }

    /// The requirements nothing registers (as `copy` shows what this store resolves) and no
    /// declaration provides per request, and every replacement made in this store and its
    /// parents, as problems and listed overrides.
    fileprivate func requirementsAndOverrides(
        metIn copy: DependencyStore, perRequest: [TypeAndName: PerRequestDeclaration], rule: OverrideRule
    ) -> (problems: [VerificationProblem], overrides: [VerificationReport.Override]) {
        var problems: [VerificationProblem] = []
        var overrides: [VerificationReport.Override] = []
        for store in sequence(first: self, next: \.parent).reversed() {
            let (requirements, records) = store.registry.withLock { ($0.requirements, $0.overrides) }
            for requirement in requirements
            where requirement.provision == .registration
                && perRequest[TypeAndName(type: ObjectIdentifier(requirement.type), name: requirement.name)] == nil
                && !copy.canResolve(requirement.type, name: requirement.name)
            {
                // Reported even when a factory's `missing:` line names the type too: that line
                // gives the path, this one who declared the need and where.
                let node = DependencyGraph.Node.missing(requirement.type, name: requirement.name)
                let collection = requirement.name == nil ? requirement.type as? any ContributedCollection.Type : nil
                problems.append(
                    .unmetRequirement(
                        node, declaredBy: requirement.declarer,
                        elementType: collection.map { Diagnostics.shortName(of: $0.elementType) }))
            }
            problems += store.unmatchedDecorators(in: copy, perRequest: perRequest)
            for record in records {
                let override = VerificationReport.Override(record, store: store.description)
                overrides.append(override)
                if rule == .forbidden {
                    problems.append(.override(override, node: .missing(record.type, name: record.name)))
                }
            }
        }
        return (problems, overrides)
    }

    /// This store's decorators and completion steps that apply to no registration and no
    /// contribution that `copy` (what verify builds in) or a store layered over this one has: they
    /// would never run. One of a type declared provided per request applies to what each
    /// request's store registers.
    fileprivate func unmatchedDecorators(
        in copy: DependencyStore, perRequest: [TypeAndName: PerRequestDeclaration]
    ) -> [VerificationProblem] {
        let decorators = registry.withLock { $0.decorators }
        guard !decorators.isEmpty else { return [] }
        // An element's type is its collection's key.
        var registered = copy.registry.withLock { $0.all + $0.allContributions }
        core.forEachDescendant(includingSelf: false) { _, registry in
            registered += registry.all + registry.allContributions
        }
        let candidates = Dictionary(grouping: registered) { ObjectIdentifier($0.type) }
        var problems: [VerificationProblem] = []
        for (key, entries) in decorators.sorted(by: { $0.value[0].location.line < $1.value[0].location.line }) {
            let found = candidates[key] ?? []
            for decorator in entries where !found.contains(where: decorator.applies(to:)) {
                let perRequestMatch = perRequest.keys.contains {
                    $0.type == key && [.every, .registration(name: $0.name)].contains(decorator.target)
                }
                if perRequestMatch { continue }
                let forwardsOnly =
                    !found.isEmpty && found.allSatisfy { if case .forward = $0.role { true } else { false } }
                problems.append(.unmatched(decorator, forwardsOnly: forwardsOnly, in: description))
            }
        }
        return problems
    }

    /// The types declared provided per request that the declaring store, or a parent, registers
    /// too (as it resolves them, so a collection type by a contribution).
    fileprivate static func perRequestConflicts(
        _ declarations: [TypeAndName: PerRequestDeclaration]
    ) -> [VerificationProblem] {
        let inOrder = declarations.values.sorted {
            ($0.location.fileID.description, $0.location.line) < ($1.location.fileID.description, $1.location.line)
        }
        return inOrder.compactMap { declaration in
            guard declaration.store.canResolve(declaration.type, name: declaration.name) else { return nil }
            let key = ObjectIdentifier(declaration.type)
            let registered = sequence(first: declaration.store, next: \.parent).lazy.compactMap { store in
                store.ownRegistration(for: key, name: declaration.name).map { (store, $0) }
            }.first
            return .perRequestConflict(
                .perRequest(declaration.type, name: declaration.name), declaredAt: declaration.location.description,
                declaredIn: declaration.store.description,
                registeredAt: registered?.1.location.description,
                registeredIn: (registered?.0 ?? declaration.store).description)
        }
    }

    /// A store with fresh copies of every registration `store` sees, nearest store winning, and
    /// no parent: what `verify()` builds in.
    convenience init(verificationCopyOf store: DependencyStore, verifier: Verifier) {
        self.init(origin: store.origin, verifier: verifier)
        let chain = Array(sequence(first: store, next: \.parent)).reversed()
        // The collections as `store` sees them: ancestors' elements first, named ones replaced.
        let elementTypes = Set(chain.flatMap { $0.registry.withLock { Array($0.contributions.keys) } })
        let elements = elementTypes.map { key in
            (key, store.contributions(ofKey: key).map { $0.registration.verifiable.copyForVerification() })
        }
        // What the copy built it closes when it goes, as `store` would: a failure goes where
        // `store`'s would.
        let closeFailureHandler = store.closeFailureReporter()
        let decorators = registry.withLock { copy in
            for ancestor in chain {
                let (registrations, decorators) = ancestor.registry.withLock { ($0.all, $0.decorators) }
                for registration in registrations {
                    copy[ObjectIdentifier(registration.type), registration.name] = registration.verifiable
                        .copyForVerification()
                }
                for (key, entries) in decorators {
                    copy.decorators[key, default: []] += entries
                }
            }
            for (key, copies) in elements {
                copy.contributions[key] = copies
            }
            copy.closeFailureHandler = closeFailureHandler
            return copy.decorators.values.reduce(0) { $0 + $1.count }
        }
        // Its decorators, and verification: every resolve of the copy takes `VerifiedBuild`.
        core.adjustStagesInScope(by: decorators + 1)
    }
}

/// What one verification builds in and in what order: the copy, its verifier, and the
/// registrations to build, sorted as the report lists them.
private struct VerificationPlan {
    let verifier: Verifier
    let copy: DependencyStore
    /// Built on the verifier's threads (main-actor ones hop to the main actor when `isolated`).
    var roots: [(registration: AnyRegistration, arguments: GivenArguments)] = []
    /// Awaited in tasks, when `isolated`.
    var asyncRoots: [AnyRegistration] = []
    /// Not built: their factory takes arguments nobody gave.
    var skipped: [AnyRegistration] = []
    /// Sample arguments no registration that takes arguments used: what they are for.
    var unusedSamples: [String] = []
    /// Not built: main-actor and `async` registrations, unless `isolated`.
    var skippedForIsolation: [AnyRegistration] = []
    /// The registrations with alternatives for contexts, as the report lists them (their copies,
    /// with the one in force).
    var alternatives: [RegisteredDependency] = []
    /// How many of `roots` are alternatives not in force, which the count of registrations
    /// checked leaves out.
    var alternativeCount = 0

    init(
        of store: DependencyStore, sampleArguments: [SampleArguments], entryPoints: [EntryPoint], timeout: Double,
        captives: CaptiveRule, isolated: Bool
    ) {
        precondition(timeout > 0, Diagnosis.nonPositiveTimeout(timeout, call: "verify()").text)
        verifier = Verifier(
            timeout: timeout, captiveRule: captives, runsIsolatedFactories: isolated,
            perRequest: store.perRequestDeclarations())
        copy = DependencyStore(verificationCopyOf: store, verifier: verifier)
        // What the app creates itself, as registrations of the copy, unless the store registers it.
        for entry in entryPoints where copy.ownRegistration(for: ObjectIdentifier(entry.type), name: nil) == nil {
            entry.registerIn(copy)
        }
        // In a stable order: by the name a reader sees, then the full name and where registered;
        // the elements of collections too, each built as a root of its own.
        let registrations = copy.registry.withLock { $0.all + $0.allContributions }.map { registration in
            let order = [
                Diagnostics.shortName(of: registration.type), registration.name ?? "",
                Diagnostics.label(of: registration), registration.location.description,
            ]
            return (order, registration)
        }
        .sorted { $0.0.lexicographicallyPrecedes($1.0) }
        .map(\.1)
        alternatives = registrations.filter { $0.role.contextChoices?.alternatives.isEmpty == false }.map {
            RegisteredDependency($0, keptInstances: 0, inheritedFrom: nil)
        }

        var usedSamples = Set<Int>()
        // Each alternative not in force, right after its registration, as a root of its own: a
        // dependency it misses is a problem even where another is in force.
        let builds = registrations.flatMap { [$0] + $0.verifiable.alternativesForVerification() }
        alternativeCount = builds.count - registrations.count
        for registration in builds {
            if registration.isolation == .async, isolated {
                asyncRoots.append(registration)
            } else if registration.isolation != .none, !isolated {
                skippedForIsolation.append(registration)
            } else if registration.argumentTypes == nil {
                roots.append((registration, .none))
            } else if let index = sampleArguments.lastIndex(where: {
                $0.type == ObjectIdentifier(registration.type) && $0.name == registration.name
            }) {
                usedSamples.insert(index)
                roots.append((registration, sampleArguments[index].given))
            } else {
                skipped.append(registration)
            }
        }
        unusedSamples = sampleArguments.indices.filter { !usedSamples.contains($0) }.map { sampleArguments[$0].label }
    }

    /// Builds `roots` as `verify()` does, on a thread of the verifier's own that waits for each.
    func runSynchronous(_ roots: [(registration: AnyRegistration, arguments: GivenArguments)]) async {
        guard !roots.isEmpty else { return }
        let unchecked = UncheckedSendable((self, roots))
        await verifier.onThreadOfItsOwn {
            unchecked.value.0.verifier.run(unchecked.value.1, in: unchecked.value.0.copy)
        }
    }

    func report(of store: DependencyStore, overrides: OverrideRule) -> VerificationReport {
        var found = store.requirementsAndOverrides(metIn: copy, perRequest: verifier.perRequest, rule: overrides)
        found.problems += DependencyStore.perRequestConflicts(verifier.perRequest)
        found.problems += unusedSamples.map(VerificationProblem.unusedSample)
        return verifier.report(
            store: store, skipped: skipped, isolated: skippedForIsolation,
            verifiedCount: roots.count + asyncRoots.count - alternativeCount,
            alternatives: alternatives, found: found)
    }
}
