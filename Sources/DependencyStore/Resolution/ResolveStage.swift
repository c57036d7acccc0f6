/// A stage of the synchronous resolve: what a feature adds to the path of a found registration.
///
/// The path (`resolve(_:slot:kept:as:arguments:requester:stage:)`) is generic over its stage, so
/// each stage gets a copy of the path specialised for it, and the everyday copy (`PlainBuild`) has
/// no code of any other stage in it. Which copy runs is decided once per resolve, before the path
/// starts: by the lookup for tracing (`Lookup.observed`), and by `hasStagesInScope` for decoration
/// and verification. Each stage lives in its feature's folder: `DecoratedBuild` in `Decoration/`,
/// `TimedBuild` in `Tracing/`, `VerifiedBuild` in `Verification/`.
protocol ResolveStage {
    /// Runs first, before the arguments, the isolation or a kept instance are looked at; a value
    /// it returns (a `T`, as `Any`: an optional of `T` would make a generic resolve look up its
    /// metadata, about 300 instructions) is what the resolve returns. Verification records the edge here, and builds a
    /// main-actor factory on the main actor.
    static func willResolve<T>(
        _ registration: AnyRegistration, as type: T.Type, arguments: GivenArguments, in store: DependencyStore,
        requester: Requester
    ) throws(ResolutionError) -> Any?

    /// Runs the factory with this resolve's frame on the chain; by default `PlainBuild`'s body,
    /// with `finish` applied to what the factory built. Tracing times it.
    static func build<T>(
        _ registration: Registration<T>, in store: DependencyStore, arguments: GivenArguments,
        on stack: ResolutionStack
    ) -> T

    /// What the factory built, as the resolve hands it out: by default, for a stage that
    /// `decorates`, after the decorators in scope, which run here while the frame is still on the
    /// chain.
    static func finish<T>(_ value: T, of registration: Registration<T>, in store: DependencyStore) -> T

    /// Whether `finish` runs the decorators in scope, and so may queue completion steps
    /// (`complete`), which then run when the outermost build of such a stage ends (see
    /// `Decoration/Completion.swift`). `DecoratedBuild`, `TimedBuild` and `VerifiedBuild` do.
    static var decorates: Bool { get }
}

extension ResolveStage {
    /// By default: for a stage that decorates, the instance being completed, when a completion
    /// step resolves it (see `Decoration/Completion.swift`).
    @inline(__always)
    static func willResolve<T>(
        _ registration: AnyRegistration, as type: T.Type, arguments: GivenArguments, in store: DependencyStore,
        requester: Requester
    ) throws(ResolutionError) -> Any? {
        guard decorates, let stack = ResolutionStack.currentIfCreated else { return nil }
        return try stack.instanceBeingCompleted(registration, in: store, requester: requester)
    }

    /// Pushes a frame (store, registration) on the chain, so that a resolve of the same
    /// registration from inside is a cycle, and `DependencyStore.shared` is `store` meanwhile; runs
    /// the factory and `finish` with no lock held; pops the frame.
    @inline(__always)
    static func build<T>(
        _ registration: Registration<T>, in store: DependencyStore, arguments: GivenArguments,
        on stack: ResolutionStack
    ) -> T {
        runFactory(registration, in: store, arguments: arguments, on: stack)
    }

    /// The factory and `finish` on the resolve's frame; for a stage that `decorates`, inside
    /// `completingBuilds`. The body of the default `build`, and what `TimedBuild` times.
    @inline(__always)
    static func runFactory<T>(
        _ registration: Registration<T>, in store: DependencyStore, arguments: GivenArguments,
        on stack: ResolutionStack
    ) -> T {
        if decorates {
            return stack.completingBuilds(of: registration, in: store) { () -> T in
                runOnFrame(registration, in: store, arguments: arguments, on: stack)
            }
        }
        return runOnFrame(registration, in: store, arguments: arguments, on: stack)
    }

    @inline(__always)
    private static func runOnFrame<T>(
        _ registration: Registration<T>, in store: DependencyStore, arguments: GivenArguments,
        on stack: ResolutionStack
    ) -> T {
        stack.push(ResolutionStack.Frame(store: store, registration: registration))
        // No `defer`: neither a factory nor a decorator throws, and one that traps, or stops in
        // verification (`Verifier.park`), never comes back here. A `defer` in a generic function
        // is a call of its own.
        let value = finish(registration.build(store, arguments), of: registration, in: store)
        stack.pop()
        return value
    }

    @inline(__always)
    static func finish<T>(_ value: T, of registration: Registration<T>, in store: DependencyStore) -> T {
        decorates ? store.decoratedIfAny(value, of: registration) : value
    }

    @inline(__always)
    static var decorates: Bool { false }
}

/// The stage every app runs: the factory, and nothing else.
enum PlainBuild: ResolveStage {}

extension DependencyStore {
    /// The resolve of a found registration when `hasStagesInScope`. `epoch`: the removal epoch
    /// the lookup ran in, when the lookup says (`.unkept`); `nil` for the one on the thread's
    /// stack.
    @inline(never)
    func resolveStaged<T>(
        _ found: Found,
        lookedUpIn epoch: Int?,
        as type: T.Type,
        arguments: GivenArguments,
        requester: Requester
    ) throws(ResolutionError) -> T {
        if verifier != nil {
            return try resolve(
                found, lookedUpIn: epoch, as: type, arguments: arguments, requester: requester,
                stage: VerifiedBuild.self)
        }
        return try resolve(
            found, lookedUpIn: epoch, as: type, arguments: arguments, requester: requester, stage: DecoratedBuild.self)
    }

    /// `resolve(_:slot:kept:lookedUpIn:as:arguments:requester:stage:)` of a `Found`.
    @inline(__always)
    func resolve<T, Stage: ResolveStage>(
        _ found: Found,
        lookedUpIn epoch: Int? = nil,
        as type: T.Type,
        arguments: GivenArguments,
        requester: Requester,
        stage: Stage.Type
    ) throws(ResolutionError) -> T {
        try resolve(
            found.registration, slot: found.slot, kept: found.kept, lookedUpIn: epoch, as: type,
            arguments: arguments, requester: requester, stage: stage)
    }
}
