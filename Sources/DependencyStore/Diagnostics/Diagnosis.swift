// Why a user's code failed, as data: one case per failure a user can cause, holding the facts
// gathered where it happened. `Diagnosis+Text.swift` words them, in one place; a `ResolutionError`
// carries the one it was made from, so tests can match on the reason rather than on the text.
//
// A label is a type as diagnostics name it, fully qualified, with its name if it has one:
// `MyApp.Greeting (named "formal")`. A short name is the type as its user writes it: `Greeting`.

/// Why something a user did cannot work, with the facts its message needs. `indirect`, so that a
/// `ResolutionError` holding one stays a few words: every function on the resolve path throws it
/// typed, and reserves room for it in its frame, so a large one would cost each level of a deep
/// chain stack it cannot spare.
indirect enum Diagnosis: Sendable {
    /// A resolve found no registration, in its store or a parent.
    case missingRegistration(Request, Missing)
    /// A resolve asked for what is still being built: on its own chain (synchronous or `async`),
    /// or, when `acrossTasks`, by tasks that await one another's builds. `chain` starts and ends
    /// with the same registration; `decorators`: where the decorators on the chain were added,
    /// which run while their instance is still being built.
    /// `perArgumentCache`: the registration closing it keeps one instance per argument value
    /// (`cachedPerArgument()`), whose builds take one gate, so asking it for another value is a
    /// cycle too.
    case cycle(
        chain: [String], acrossTasks: Bool, closedBy: Requester, store: Store, decorators: [SourceLocation],
        perArgumentCache: Bool = false)
    /// Threads, this one first, each about to wait for what the next one builds, the last for
    /// what this one builds.
    case crossThreadCycle([WaitingThread], closedBy: Requester)
    /// A resolve whose arguments do not match the registration's factory. `expected`: the full
    /// names of the types the factory takes (`nil`: it takes none), `expectedShortNames` their short
    /// names; `given`: what the resolve passed, as one type (a tuple for several) and how many
    /// (`nil`: no arguments).
    /// `isolation`: `main-actor` or `async` for a registration whose factory runs there, which
    /// takes no arguments; `givenShortName`: the short name of the one type given, if one was.
    case wrongArguments(
        Request, registeredAt: SourceLocation, expected: [String]?, expectedShortNames: [String],
        given: (type: String, count: Int)?, context: (isolation: String?, givenShortName: String?))
    /// A forward whose target (its label) built a `built` (a full type name), which is not of the
    /// forwarded type. The request's requester is the forward; `requestedBy`, who asked for the
    /// forwarded type, when known.
    case forwardMismatch(Request, target: String, built: String, requestedBy: Requester?)
    /// A `.weak` registration whose factory built a `built` (a full type name), not an object.
    /// `contributed`: the registration is an element of the collection of its type.
    case weakScopeNeedsAClass(Request, built: String, registeredAt: SourceLocation, contributed: Bool)
    /// A `@WeakInjected` property (the request's requester) whose registration, made where and with
    /// the scope `registration` says, built a `built`, which is not an object.
    case weakInjectedNeedsAClass(
        Request, built: String, builtShortName: String, registration: (at: SourceLocation, scope: Scope)?)
    /// A set of the property `wrapper` (such as `@Injected`) of `type`, declared at `declaredAt`,
    /// that cannot be done, for `problem`.
    case propertySetRefused(wrapper: String, type: String, declaredAt: SourceLocation, problem: SetProblem)

    /// Why a set of an injected property cannot be done.
    enum SetProblem {
        /// It runs inside the property's own first read, whose value would replace it.
        case insideItsOwnFirstRead
        /// A `@WeakInjected` property set to a value of this type, which is not a class.
        case notAnObject(String)
    }
    /// A synchronous resolve of a registration whose factory cannot run here: a main-actor one off
    /// the main actor when `onMainActor`, otherwise an `async` one.
    case wrongIsolation(Request, onMainActor: Bool, registeredAt: SourceLocation)
    /// A collection (`[T]`, `[String: T]`, the request's type) resolved with arguments (`given`:
    /// as one type, a tuple for several, and how many); `element`: the short name of its element
    /// type. Its elements are contributed, each built by its own factory, with none.
    case collectionTakesNoArguments(Request, element: String, given: (type: String, count: Int))
    /// A handle (`handle`: its short name) resolved with arguments (`carried`), then called with
    /// arguments again (`given`); the request's requester is where the handle was resolved.
    case handleCalledWithArgumentsAgain(
        Request, handle: String, carried: (type: String, count: Int), given: (type: String, count: Int)?)
    /// A completion step, added at `step`, of the instance labelled `completed`, resolved a
    /// `.unique` registration (the request's) that the same resolve built: a new one would need
    /// completing again. The request's chain runs from the outermost build to what it asked for.
    case completionCycle(Request, completed: String, step: SourceLocation)
    /// The factory of the deprecated throwing `register` threw `error` (as it prints).
    case factoryThrew(requested: String, registeredAt: SourceLocation, error: String)
    /// `reset` of a scope that keeps no instance, called at `calledAt` on `store` (its name).
    case resetKeepsNothing(Scope, calledAt: SourceLocation, store: String)
    /// `verify` or `shutdown` (`call`) with a timeout that is not positive.
    case nonPositiveTimeout(Double, call: String)
    /// `closing { }`, called at `calledAt`, on the registration labelled `registration`, made at
    /// `registeredAt` with a scope whose instances the store does not keep, so never closes.
    case closingNeverRuns(String, scope: Scope, registeredAt: SourceLocation, calledAt: SourceLocation)
    /// A caching modifier (`call`: `expiring(after:)`, `cachedPerArgument()`), called at
    /// `calledAt` on the registration labelled `registration`, made at `registeredAt` with
    /// `scope`, that cannot apply, for `problem`.
    case cachingCannotApply(
        call: String, registration: String, scope: Scope, registeredAt: SourceLocation, calledAt: SourceLocation,
        problem: CachingProblem)
    /// `reset(_:name:)` of the registration labelled `registration` (made at `registeredAt`, in
    /// `store`), whose scope keeps no instance.
    case resetOneKeepsNothing(String, scope: Scope, registeredAt: SourceLocation, calledAt: SourceLocation)
    /// `call` (`reset(_:name:)`, or a call that changes alternatives), at `calledAt`, on `store`,
    /// for a type (short name `type`) that the store does not register under that name (for a
    /// reset, neither does a parent): the names it is registered under, and the registered types
    /// close to it.
    case noRegistrationToChange(
        call: String, purpose: ChangePurpose, type: String, calledAt: SourceLocation, store: String,
        registeredNames: [String?], closeMatches: [CloseMatch])

    /// What a call that found no registration meant to change.
    enum ChangePurpose {
        /// Reset the instance it keeps.
        case reset
        /// Change its alternatives: the store's own registration, which a parent (`store`, if
        /// one) may make instead.
        case alternatives(registeredInParent: String?)

        var verb: String {
            switch self {
            case .reset: "reset"
            case .alternatives: "change the alternatives of"
            }
        }
    }
    /// `call`, at `calledAt`, on the registration labelled `registration`, made at `registeredAt`,
    /// which cannot change its alternatives for `context` (all of them for `nil`), for `reason`.
    /// `byType`: the call named the registration by type and name (`on(_:for:)`), not by its entry.
    case alternativeRefused(
        String, call: String, byType: Bool, context: DependencyContext?, reason: AlternativeRefusal,
        registeredAt: SourceLocation, calledAt: SourceLocation)

    /// Why `on(_:_:)` refused an alternative, or `removeAlternatives` a removal.
    enum AlternativeRefusal {
        /// `.argument("")`: no launch argument is empty.
        case emptyArgument
        /// The entry is a contribution's (`contribute`), an element of a collection.
        case contribution
        /// The registration's factory takes arguments (their types).
        case takesArguments([String])
        /// Its factory runs on the main actor, or is `async`.
        case isolated(onMainActor: Bool)
        /// The registration forwards to another type (`forward(_:to:)`), named here.
        case forward(to: String)
        /// `removeAlternatives(for:)` of a context the registration has no alternative for; it
        /// has these.
        case noAlternative(has: [DependencyContext])
        /// The store no longer holds the registration: replaced, unregistered or unloaded since.
        case noLongerRegistered
    }
    /// The close of `instance` (a label), registered at `registeredAt`, which `store` let go of
    /// because of `trigger`, threw `error` (as it prints), or had not ended when the deadline of
    /// a shutdown with the timeout `missedDeadline` passed.
    case closeFailed(
        instance: String, registeredAt: SourceLocation, trigger: String, store: String, error: String?,
        missedDeadline: Double?)
}

/// Why a caching modifier cannot apply to a registration.
enum CachingProblem {
    /// Its scope keeps no instance (`.unique`, `.graph`, `.weak`).
    case scopeKeepsNothing
    /// Its factory runs on the main actor, or is `async`.
    case isolated(onMainActor: Bool)
    /// `cachedPerArgument()` on a factory that takes no arguments.
    case noArguments
    /// `cachedPerArgument()` on a factory with an argument of this type, not `Hashable`.
    case notHashable(String)
    /// The registration was built already, without the modifier.
    case builtAlready
    /// A duration or a limit that is not positive.
    case notPositive(String)
    /// The entry's registration is no longer the one in force: replaced, unregistered or unloaded.
    case noLongerRegistered
}

extension Diagnosis {
    /// The resolve that failed: what it asked for, from where, and which store.
    struct Request: Sendable {
        /// The label of what was asked for.
        let requested: String
        let shortName: String
        let name: String?
        /// What was being built on this thread, outermost first, ending with `requested`.
        let chain: [String]
        let requester: Requester
        let store: Store
    }

    /// A store as a diagnostic names it.
    struct Store: Sendable {
        /// `the store created at App/Tests.swift:12 (over the root store)`, or `the root store`.
        let name: String
        /// The root store, which `DependencyStore.shared` falls back to.
        let isRoot: Bool
        /// How many registrations it holds, where the message counts them.
        let registrationCount: Int?
    }

    /// What a missing registration's message adds to its request.
    struct Missing: Sendable {
        /// The parents searched after the request's store, nearest first.
        let searched: [Store]
        /// The names the requested type is registered under in those stores (`nil`: unnamed).
        let registeredNames: Set<String?>
        /// What the stores remember of it: its removal, who requires it.
        let notes: [Note]
        /// Registered types the user may have meant instead.
        let closeMatches: [CloseMatch]
        /// For a collection type (`[T]`, `[String: T]`) asked for without a name: the short name of
        /// its element type, and whether only named elements make it up.
        let collection: (element: String, onlyNamed: Bool)?
        /// The short name of the `Provider` or `Lazy` asked for, which needs a registration of the
        /// requested type; `nil` when the type itself was asked for.
        let askedForAs: String?
        /// The build that created the property that asked, when it was created while its store
        /// built an instance it keeps (see `PropertyOrigin`).
        var createdBy: CreatedBy?
    }

    /// The build that created a property: the registration whose factory ran, the instance the
    /// store was building and keeps, and the store.
    struct CreatedBy: Sendable {
        /// The label, scope and place of the registration whose factory created the property.
        let creator: String
        let creatorScope: Scope
        let creatorRegisteredAt: SourceLocation
        /// The label of the registration whose instance the store was building, when it is not
        /// `creator` (whose factory it resolved).
        let keptInstance: String?
        /// The short name and scope of the instance the store keeps (`creator`'s, or
        /// `keptInstance`'s).
        let keptShortName: String
        let keptScope: Scope
        /// The store that built it and keeps it, which the property resolves from.
        let store: String
    }

    enum Note: Sendable {
        /// Removed by `how` (`unregister(_:)`, `unload(SessionAssembly.self)`); `inStore`: the name
        /// of the store it was removed from, when not the one asked.
        case removed(registeredAt: SourceLocation, removedAt: SourceLocation, how: String, inStore: String?)
        /// Every element of the collection asked for was removed by `how` (an `unload`); the first
        /// was contributed at `contributedAt`.
        case elementsRemoved(contributedAt: SourceLocation, removedAt: SourceLocation, how: String, inStore: String?)
        /// Registered in `count` stores layered over the one asked (the first ones named): what a
        /// request's or a test's store adds, which an object bound to this store does not see.
        case registeredInStoresOver([String], count: Int)
        /// Declared required by an assembly: `SessionAssembly (at App/Session.swift:12)`.
        case requiredBy(String)
        /// Declared provided per request (`providedPerRequest`) at `declaredAt`, by `assembly` if
        /// one was being applied; `inStore`: the name of the store that declared it, when not the
        /// one asked (which is then layered over it, as a request's store is).
        case providedPerRequest(declaredAt: SourceLocation, assembly: String?, inStore: String?)

        var isProvidedPerRequest: Bool {
            if case .providedPerRequest = self { true } else { false }
        }
    }

    /// A registered type close to the one asked for: its full and short names, where it was
    /// registered, and how it is close.
    struct CloseMatch: Sendable {
        enum Kind: Sendable {
            /// The candidate is the optional of what was asked for.
            case optionalRegistered
            /// The same short name, another type (another module or enclosing type).
            case sameShortName
            /// A short name with the same stem (`PriceFetching`, `LivePriceFetcher`).
            case similarName
        }

        let kind: Kind
        let candidate: String
        let candidateShortName: String
        let registeredAt: SourceLocation
    }

    /// One thread of a cross-thread cycle: the labels of what it builds, outermost first (none when
    /// it waits from an injected property's first read), and what it waits for.
    struct WaitingThread: Sendable {
        let building: [String]
        let awaited: Awaited
    }

    enum Awaited: Sendable {
        /// The instance of a cached-scope registration (its label), built in a store (its name).
        case instance(String, in: String)
        /// The first value of the type labelled, for an injected property or a `Lazy` handle.
        case firstValue(String, for: Requester)

        var label: String {
            switch self {
            case .instance(let label, _), .firstValue(let label, _): label
            }
        }
    }

    /// Traps with the text, naming `file` and `line`: for failures that no caller can handle.
    func trap(file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError(text, file: file, line: line)
    }
}
