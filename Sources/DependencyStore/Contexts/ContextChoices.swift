/// The alternatives that `on(_:_:)` gave one registration: which contexts, where each was said,
/// and which one a build in given contexts runs. The registration's `role` holds it
/// (`.contextual`), for the listing and `verify()`; its `build` asks it which factory to run, so
/// a registration without alternatives has neither the object nor the question.
class ContextChoices: @unchecked Sendable {
    /// One alternative: the context it is for and the `on` that gave it.
    struct Alternative {
        let context: DependencyContext
        let location: SourceLocation
    }

    /// In the order they were given.
    let alternatives: [Alternative]
    /// The indices of `alternatives` by precedence: argument, preview, test, simulator, device,
    /// debug; of two arguments, the first given.
    let precedence: [Int]
    /// The registration `register` made, before any `on`: an entry of it, or of one that `on`
    /// made from it, may change the alternatives. Held, so that no later registration can be
    /// taken for it.
    let origin: AnyRegistration
    /// On a copy `verify()` builds in, the one factory the copy runs: `nil` for the others.
    let verified: Verified?

    /// What a verification copy of a registration with alternatives builds.
    struct Verified {
        /// The alternative, or `nil` for the default factory.
        let alternative: Int?
        /// Whether it is the alternative in force, which the copy's registry holds; the others
        /// are built on their own, found by no lookup.
        let isInForce: Bool
    }

    init(alternatives: [Alternative], origin: AnyRegistration, verified: Verified?) {
        self.alternatives = alternatives
        self.origin = origin
        self.verified = verified
        precedence = alternatives.indices.sorted {
            (alternatives[$0].context.kind.rawValue, $0) < (alternatives[$1].context.kind.rawValue, $1)
        }
    }

    /// The alternative a build runs when `active` are the contexts in force; `nil` for the
    /// default factory.
    func chosen(in active: Set<DependencyContext>) -> Int? {
        if let verified { return verified.alternative }
        return precedence.first { active.contains(alternatives[$0].context) }
    }

    /// The context of the alternative in force now, for the calling task; `nil` for the default.
    var contextInForce: DependencyContext? {
        chosen(in: DependencyContext.active).map { alternatives[$0].context }
    }
}

/// `ContextChoices` with the factories: the registration's default, and one per alternative.
final class ContextFactories<T>: ContextChoices, @unchecked Sendable {
    typealias Build = (DependencyStore, GivenArguments) -> T

    let defaultBuild: Build
    /// In the order of `alternatives`.
    let builds: [Build]

    init(
        defaultBuild: @escaping Build, alternatives: [Alternative], builds: [Build], origin: AnyRegistration,
        verified: Verified? = nil
    ) {
        self.defaultBuild = defaultBuild
        self.builds = builds
        super.init(alternatives: alternatives, origin: origin, verified: verified)
    }

    /// The factory of `alternative`, or the default for `nil`.
    func build(_ alternative: Int?) -> Build {
        alternative.map { builds[$0] } ?? defaultBuild
    }

    /// What the registration's `build` is once it has alternatives: it chooses at each build,
    /// in the contexts in force for the task that builds.
    var selector: Build {
        { store, given in self.build(self.chosen(in: DependencyContext.active))(store, given) }
    }

    /// These choices with the alternative for `context` given at `location`: added after the
    /// others, or in place of the one for `context` there was.
    func setting(_ context: DependencyContext, at location: SourceLocation, build: @escaping Build) -> ContextFactories
    {
        var alternatives = alternatives
        var builds = builds
        let alternative = Alternative(context: context, location: location)
        if let index = alternatives.firstIndex(where: { $0.context == context }) {
            alternatives[index] = alternative
            builds[index] = build
        } else {
            alternatives.append(alternative)
            builds.append(build)
        }
        return ContextFactories(defaultBuild: defaultBuild, alternatives: alternatives, builds: builds, origin: origin)
    }

    /// These choices without the alternative for `context`, or without any for `nil`.
    func removing(_ context: DependencyContext?) -> ContextFactories {
        let kept = alternatives.indices.filter { context != nil && alternatives[$0].context != context }
        return ContextFactories(
            defaultBuild: defaultBuild, alternatives: kept.map { alternatives[$0] }, builds: kept.map { builds[$0] },
            origin: origin)
    }

    /// The same factories fixed to `alternative`, for a verification copy.
    func verifying(_ alternative: Int?, isInForce: Bool) -> ContextFactories {
        ContextFactories(
            defaultBuild: defaultBuild, alternatives: alternatives, builds: builds, origin: origin,
            verified: Verified(alternative: alternative, isInForce: isInForce))
    }
}
