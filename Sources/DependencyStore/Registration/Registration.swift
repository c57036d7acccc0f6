import Foundation

/// A registration whose value type is erased, so registrations of all types share one dictionary.
///
/// The dictionaries are keyed by `ObjectIdentifier(T.self)` (and the name), and the registration
/// stored under that key is always a `Registration<T>`, so resolution can downcast without a
/// dynamic type check.
///
/// Everything the resolve of an already-built instance reads is here, in non-generic fields:
/// generic values on that path (a `T?`, a struct generic over `T`) make unspecialised code look up
/// their type metadata at run time, which costs more than the rest of the resolve.
///
/// `@usableFromInline`, with `Registration`, only so that the inlinable fronts of `register` can
/// name `Registration<T>` (see `DependencyStore.add(_:as:name:scope:fileID:line:)`).
@usableFromInline
class AnyRegistration {
    /// The type the registration is for: shown in diagnostics and close-match suggestions.
    let type: Any.Type
    /// The name it was registered under, if any.
    let name: String?
    let scope: Scope
    let lifetime: Lifetime
    /// Where `register` was called.
    let location: SourceLocation
    /// The factory's argument types, or `nil` for a factory without arguments.
    let argumentTypes: [Any.Type]?
    /// Whether given arguments cast to the factory's; `nil` for a factory without arguments.
    let acceptsArguments: ((Any) -> Bool)?
    /// Where a cached scope keeps the instance, when the registration is resolved through the
    /// store that holds it; `nil` for `.unique` and `.graph`. A store that inherits the
    /// registration from a parent keeps a slot of its own (see `DependencyStore+Resolution.swift`).
    let slot: InstanceSlot?
    /// Where its factory must run.
    let isolation: Isolation
    /// No arguments and no isolation: a kept instance may be returned by the one-lookup fast path.
    let isPlain: Bool
    /// A `forward`: its build records who asked, for the message of a target of the wrong type.
    let isForward: Bool
    /// What the registration is to its store: resolved by type and name, an element of a
    /// collection, or another registration's instance under a second type.
    let role: Role
    /// The assembly that was being applied when it was made, if any: what `unload` removes.
    let assembly: AssemblyTag?
    /// Made by `provide(_:for:)`: its `build` hands out the value it was given, and a lookup
    /// hands the registration itself out as a kept instance (see `DependencyStore.instance`), so
    /// that a resolve runs neither a chain nor a build.
    let isProvided: Bool

    /// What a registration is to its store.
    enum Role {
        /// Resolved by its type and name: `register`.
        case registration
        /// One element of the collection of its type: `contribute`.
        case contribution
        /// Resolves another registration and hands its instance out as this type: `forward`.
        case forward(to: Any.Type, name: String?)
        /// Resolved by its type and name, as `.registration`, with alternative factories for
        /// contexts (`on(_:_:)`): its `build` chooses one at each build.
        case contextual(ContextChoices)

        /// Whether the registration is an element of a collection, which no resolve by type finds.
        var isContribution: Bool {
            if case .contribution = self { true } else { false }
        }

        /// Whether a lookup by its type and name finds it: all but an element of a collection and
        /// an alternative that `verify()` builds on its own.
        var isLookedUp: Bool {
            switch self {
            case .registration, .forward: true
            case .contextual(let choices): choices.verified?.isInForce ?? true
            case .contribution: false
            }
        }

        /// The alternatives, for a registration that has them.
        var contextChoices: ContextChoices? {
            if case .contextual(let choices) = self { choices } else { nil }
        }
    }

    /// Where a registration's factory runs.
    enum Isolation {
        /// Wherever it is resolved.
        case none
        /// On the main actor: resolved synchronously on the main thread, or with `resolveAsync`.
        case mainActor
        /// It is `async`: resolved only with `resolveAsync`.
        case async
    }

    /// What resolution does with a registration's instances: the ``Scope`` without its name.
    enum Lifetime {
        case unique
        case graph
        /// Kept strongly in the store's slot: `.singleton` and custom scopes.
        case cached
        /// Kept weakly in the store's slot.
        case weak

        /// Whether the store keeps instances in a slot: `.cached` and `.weak`.
        var keepsInstances: Bool {
            self == .cached || self == .weak
        }
    }

    init(
        type: Any.Type,
        name: String?,
        scope: Scope,
        location: SourceLocation,
        argumentTypes: [Any.Type]?,
        acceptsArguments: ((Any) -> Bool)?,
        isolation: Isolation,
        role: Role,
        assembly: AssemblyTag?,
        isProvided: Bool
    ) {
        self.type = type
        self.isProvided = isProvided
        self.isolation = isolation
        self.role = role
        self.assembly = assembly
        isPlain = argumentTypes == nil && isolation == .none
        if case .forward = role { isForward = true } else { isForward = false }
        self.name = name
        self.scope = scope
        lifetime =
            switch scope.kind {
            case .unique: .unique
            case .graph: .graph
            case .singleton, .custom: .cached
            case .weak: .weak
            }
        self.location = location
        self.argumentTypes = argumentTypes
        self.acceptsArguments = acceptsArguments
        slot = lifetime.keepsInstances ? InstanceSlot() : nil
    }

    /// How to close `kept`, an instance this registration built that a slot kept and has just let
    /// go of; `nil` when nothing closes it. `Registration<T>` answers.
    func closeAction(for kept: AnyObject) -> CloseAction? {
        nil
    }

    /// The seconds an instance is handed out for, as `expiring(after:)` said; `nil` for none.
    /// `Registration<T>` answers.
    func cacheLifetime() -> TimeInterval? {
        nil
    }

    /// Whether it keeps one instance per argument value, as `cachedPerArgument()` said.
    /// `Registration<T>` answers.
    func cachesPerArgument() -> Bool {
        false
    }

    /// Whether a resolve that passes `given` may run this registration's factory: as many values
    /// as it takes, each of which casts to its type. The count comes first because the cast alone
    /// cannot tell them apart: two values travel as a tuple, so they cast to a factory that takes
    /// one tuple of that shape, and one such tuple casts to a factory that takes two.
    @inline(__always)
    func accepts(_ given: GivenArguments) -> Bool {
        switch given {
        case .none: argumentTypes == nil
        case .some(let given): argumentTypes?.count == given.count && acceptsArguments!(given.values)
        }
    }
}

@usableFromInline
final class Registration<T>: AnyRegistration, VerifiableRegistration, @unchecked Sendable {
    /// Runs the factory, with the arguments `accepts(_:)` has already checked, or hands out the
    /// provided value. For a main-actor registration, call it only on the main thread.
    let build: (DependencyStore, GivenArguments) -> T
    /// The factory of an `async` registration, or the main-actor factory run on the main actor;
    /// `nil` for the others, which `resolveAsync` builds with `build`.
    let buildAsync: (@Sendable (DependencyStore, Requester) async throws -> T)?
    /// What the modifiers on its entry said about the instances a slot keeps: how they are closed
    /// (`closing { }`) and cached (`expiring(after:)`, `cachedPerArgument()`). For `.singleton`
    /// and custom scopes only, the scopes whose instances the store owns. Behind a lock of its own
    /// because the modifiers run after the registration is in the registry, where a resolve may
    /// already have found it; read when an instance is closed, and by a first build.
    let keptOptions: Lock<KeptOptions<T>>?

    init(
        name: String?,
        scope: Scope,
        location: SourceLocation,
        arguments: (types: [Any.Type], accept: (Any) -> Bool)? = nil,
        isolation: Isolation = .none,
        role: Role = .registration,
        assembly: AssemblyTag? = AssemblyTag.current,
        build: @escaping (DependencyStore, GivenArguments) -> T,
        buildAsync: (@Sendable (DependencyStore, Requester) async throws -> T)? = nil,
        isProvided: Bool = false
    ) {
        self.build = build
        self.buildAsync = buildAsync
        switch scope.kind {
        case .singleton, .custom:
            keptOptions = Lock(KeptOptions(close: nil, mayBeNil: T.self is any OptionalProtocol.Type))
        case .unique, .graph, .weak: keptOptions = nil
        }
        super.init(
            type: T.self,
            name: name,
            scope: scope,
            location: location,
            argumentTypes: arguments?.types,
            acceptsArguments: arguments?.accept,
            isolation: isolation,
            role: role,
            assembly: assembly,
            isProvided: isProvided
        )
    }

    /// The registration of a provided `value` (`provide(_:for:)`): its `build` hands the value out.
    convenience init(
        providing value: T, name: String?, location: SourceLocation, assembly: AssemblyTag? = AssemblyTag.current
    ) {
        // The value lives in this closure's context: one allocation besides the registration's.
        self.init(
            name: name, scope: .unique, location: location, assembly: assembly,
            build: { _, _ in value }, isProvided: true)
    }

    /// A copy of `base` with `role` and `build` and the options `keptOptions` (`closing { }`, the
    /// caching ones), made with a slot of its own: what `on(_:_:)` puts in `base`'s place, sharing
    /// its options, and the copies `verify()` builds in. Only a plain copy of a provided value's
    /// registration `isProvided`: a provided value with alternatives is a registration that
    /// chooses, which a lookup must not hand out as the value it was (that builds with no store of
    /// its own).
    init(
        _ base: Registration<T>, role: Role, build: @escaping (DependencyStore, GivenArguments) -> T,
        keptOptions: Lock<KeptOptions<T>>?, isProvided: Bool = false
    ) {
        self.build = build
        buildAsync = base.buildAsync
        self.keptOptions = keptOptions
        super.init(
            type: T.self,
            name: base.name,
            scope: base.scope,
            location: base.location,
            argumentTypes: base.argumentTypes,
            acceptsArguments: base.acceptsArguments,
            isolation: base.isolation,
            role: role,
            assembly: base.assembly,
            isProvided: isProvided
        )
    }

    func copyForVerification() -> AnyRegistration {
        // The copy's options are its own: it closes and caches as this one does.
        let options = keptOptions.map { Lock($0.withLock { $0 }) }
        guard case .contextual(let choices) = role else {
            return Registration(self, role: role, build: build, keptOptions: options, isProvided: isProvided)
        }
        // The alternative in force for the caller of `verify()` (its workers' threads see no
        // `withActive`): what the copy's lookups find. `alternativesForVerification` adds the
        // others.
        let factories = choices as! ContextFactories<T>
        let inForce = factories.chosen(in: DependencyContext.active)
        return Registration(
            self, role: .contextual(factories.verifying(inForce, isInForce: true)), build: factories.build(inForce),
            keptOptions: options)
    }

    func alternativesForVerification() -> [AnyRegistration] {
        guard case .contextual(let choices) = role, let verified = choices.verified, verified.isInForce else {
            return []
        }
        let factories = choices as! ContextFactories<T>
        let others = ([nil] + factories.alternatives.indices.map { $0 }).filter { $0 != verified.alternative }
        return others.map { alternative in
            Registration(
                self, role: .contextual(factories.verifying(alternative, isInForce: false)),
                build: factories.build(alternative), keptOptions: keptOptions)
        }
    }

    override func cacheLifetime() -> TimeInterval? {
        keptOptions?.withLock { $0.caching?.lifetime }
    }

    override func cachesPerArgument() -> Bool {
        keptOptions?.withLock { $0.caching?.perArgument } ?? false
    }

    override func closeAction(for kept: AnyObject) -> CloseAction? {
        makeCloseAction(for: kept)
    }

    func resolveForVerification(in store: DependencyStore, arguments: GivenArguments) {
        if role.isContribution {
            // Not reachable by type and name: resolved as the element it is.
            _ = store.resolveContribution(self, requester: .call(location))
            return
        }
        if !role.isLookedUp {
            // An alternative not in force: built as itself, since no lookup finds it.
            _ = store.resolveAlternative(self, requester: .call(location))
            return
        }
        _ = store.resolve(T.self, name: name, arguments: arguments, requester: .call(location))
    }

    func resolveAsyncForVerification(in store: DependencyStore) async throws {
        _ = try await store.resolveAsync(T.self, name: name, requester: .call(location))
    }
}

// Registrations are immutable once made (every stored property is a `let`; the hook that
// `closing { }` sets later is behind a lock), and their factories may run on any thread by design
// (see `DependencyStore`'s documentation): a shared build's task carries its registration across
// to the thread that runs it.
extension AnyRegistration: @unchecked Sendable {}

/// What verification does with a registration without knowing its type: every `AnyRegistration`
/// is a `Registration<T>`, which conforms.
protocol VerifiableRegistration: AnyRegistration {
    /// The same registration with a slot of its own, for the copy `verify()` builds in.
    func copyForVerification() -> AnyRegistration
    /// For the copy of a registration with alternatives that the verification copy's registry
    /// holds (the alternative in force): a copy of each other alternative (and of the default
    /// factory, when an alternative is in force), with a slot of its own, which `verify()` builds
    /// as a root of its own. Empty for any other registration.
    func alternativesForVerification() -> [AnyRegistration]
    /// Resolves this registration in `store` (a verification copy), discarding the instance.
    func resolveForVerification(in store: DependencyStore, arguments: GivenArguments)
    /// Resolves this `async` registration in `store` with `resolveAsync`, discarding the instance.
    func resolveAsyncForVerification(in store: DependencyStore) async throws
}

extension AnyRegistration {
    /// This registration as the `Registration<T>` it is, for verification.
    var verifiable: any VerifiableRegistration {
        self as! any VerifiableRegistration
    }
}
