/// Why a dependency could not be resolved, with the same diagnostic that ``DependencyStore``
/// prints when a resolve traps.
///
/// ``DependencyStore/tryResolve(_:name:fileID:line:)`` throws it where ``DependencyStore/resolve(_:name:fileID:line:)``
/// would trap, so code that can live without a dependency can ask for it safely:
///
/// ```swift
/// do {
///     let analytics = try store.tryResolve(Analytics.self)
///     analytics.track("launch")
/// } catch {
///     print(error)   // the multi-line diagnostic, "To fix ..." included
/// }
/// ```
public struct ResolutionError: Error, CustomStringConvertible {
    /// What went wrong: compare with the static members (`error.kind == .cycle`).
    ///
    /// A struct rather than an enum, like ``Scope``, so that a later release can add a kind
    /// without breaking a `switch` in your code; switch with a `default:` case.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The store has no registration for the requested type.
        public static let notRegistered = Kind("notRegistered")
        /// The requested type is already being built further up the same resolution chain.
        public static let cycle = Kind("cycle")
        /// The arguments passed do not match the ones the registration's factory takes (or one
        /// side has arguments and the other has none).
        public static let wrongArguments = Kind("wrongArguments")
        /// What the registration's factory built cannot be held weakly: a ``Scope/weak``
        /// registration, or one a ``WeakInjected`` property resolves, whose factory returned a
        /// struct or an enum.
        public static let invalidScope = Kind("invalidScope")
        /// The registration's factory cannot run here: a main-actor registration resolved
        /// synchronously off the main actor, or an `async` one resolved synchronously. Resolve it
        /// with ``DependencyStore/resolveAsync(_:name:fileID:line:)``.
        public static let wrongIsolation = Kind("wrongIsolation")
        /// A ``DependencyStore/forward(_:name:to:named:fileID:line:)`` whose target built an
        /// instance that is not of the forwarded type.
        public static let wrongType = Kind("wrongType")

        /// The kind's name: `cycle`.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind

    /// The requested type, fully qualified (`MyApp.PriceFetching`), with its name if it was asked
    /// for by one (`MyApp.Greeting (named "formal")`).
    public let typeName: String

    /// The resolution chain, outermost first, ending with the requested type.
    ///
    /// For a cycle it starts and ends with the same type (`["A", "B", "A"]`); for a missing
    /// registration it lists what was being built when the missing type was asked for.
    public let chain: [String]

    /// The full diagnostic: what happened, where, and how to fix it.
    public let description: String

    /// Why, as data: what the description is written from, and what a test can match on.
    let diagnosis: Diagnosis

    /// The error of a failed resolve, everything derived from `diagnosis`.
    init(_ diagnosis: Diagnosis) {
        self.diagnosis = diagnosis
        description = diagnosis.text
        switch diagnosis {
        case .missingRegistration(let request, _):
            (kind, typeName, chain) = (.notRegistered, request.requested, request.chain)
        case .cycle(let chain, _, _, _, _, _):
            (kind, typeName, self.chain) = (.cycle, chain.last!, chain)
        case .crossThreadCycle(let threads, _):
            // What this thread builds is what the last thread waits for.
            let awaited = threads.map(\.awaited.label)
            (kind, typeName, chain) = (.cycle, awaited[0], [awaited.last!] + awaited)
        case .wrongArguments(let request, _, _, _, _, _), .collectionTakesNoArguments(let request, _, _),
            .handleCalledWithArgumentsAgain(let request, _, _, _):
            (kind, typeName, chain) = (.wrongArguments, request.requested, request.chain)
        case .forwardMismatch(let request, let target, _, _):
            (kind, typeName, chain) = (.wrongType, request.requested, [request.requested, target])
        case .weakScopeNeedsAClass(let request, _, _, _), .weakInjectedNeedsAClass(let request, _, _, _):
            (kind, typeName, chain) = (.invalidScope, request.requested, [request.requested])
        case .wrongIsolation(let request, _, _):
            (kind, typeName, chain) = (.wrongIsolation, request.requested, request.chain)
        case .completionCycle(let request, _, _):
            (kind, typeName, chain) = (.cycle, request.requested, request.chain)
        case .factoryThrew, .resetKeepsNothing, .nonPositiveTimeout, .closingNeverRuns, .closeFailed,
            .cachingCannotApply,
            .resetOneKeepsNothing, .noRegistrationToChange,
            .alternativeRefused, .propertySetRefused:
            preconditionFailure("DependencyStore: not the failure of a resolve: \(diagnosis)")
        }
    }
}

extension ResolutionError: Sendable {}
