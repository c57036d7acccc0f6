import Foundation

/// The dependencies ``DependencyStore/verify(sampleArguments:entryPoints:timeout:captives:overrides:)`` saw: one node for each
/// registration it built and each type that was asked for but not registered, and one edge for
/// each resolve a factory made or `@Injected` property it created.
///
/// Render it with ``VerificationReport/mermaid()`` or ``VerificationReport/dot()``, which also
/// highlight the problems.
public struct DependencyGraph: Sendable {
    /// A registration, a type that was asked for and is not registered, or a type that each
    /// request's store provides (``DependencyStore/providedPerRequest(_:name:fileID:line:)``).
    public struct Node: Hashable, Sendable, CustomStringConvertible {
        let key: Key

        /// Which node it is: a registration of the store verified (by identity), a type and name
        /// nothing registers, or one declared provided per request.
        enum Key: Hashable {
            case registration(ObjectIdentifier)
            case missing(type: ObjectIdentifier, name: String?)
            case perRequest(type: ObjectIdentifier, name: String?)
        }
        /// The type, as Swift prints it: `PriceFetching`.
        public let type: String
        /// The name it is registered (or was asked for) under, if any.
        public let name: String?
        /// The registration's scope; `nil` when nothing is registered for the type and name.
        public let scope: Scope?
        /// Where it was registered (`Module/File.swift:12`); `nil` when it is not registered.
        public let registeredAt: String?

        /// Whether it is an element contributed to the collection of ``type``.
        public let isContribution: Bool

        /// For a registration with alternatives for contexts, which factory this node built when
        /// it is not the registration's own in force: `on .test`, or `default` for its own
        /// factory, built though an alternative is in force. `nil` otherwise.
        public var alternative: String? = nil

        /// For a registration with an expiring cache (`expiring(after:)`), the seconds an instance
        /// is handed out for; `nil` otherwise.
        public var expiresAfter: TimeInterval? = nil

        /// Whether a registration exists for the node.
        public var isRegistered: Bool { scope != nil }

        /// Whether it is a type (and name) that the store verified does not register and declared
        /// provided per request, with ``DependencyStore/providedPerRequest(_:name:fileID:line:)``:
        /// each request's store registers it. Verification treats it as satisfied; an app-wide
        /// instance that depends on it is a problem (``VerificationProblem/Kind/perRequestDependency``).
        public var isProvidedPerRequest: Bool {
            if case .perRequest = key { true } else { false }
        }

        /// `PriceFetching`, `Greeting (named "formal")`, `Networking (on .test)`, or for an element
        /// of a collection, `[AnalyticsSink] element "file"` or
        /// `[AnalyticsSink] element at App/Analytics.swift:9`.
        public var description: String {
            if isContribution {
                return "[\(type)] element " + (name.map { "\"\($0)\"" } ?? "at \(registeredAt ?? "?")")
            }
            let label = name.map { "\(type) (named \"\($0)\")" } ?? type
            return alternative.map { "\(label) (\($0))" } ?? label
        }

        /// The scope, or what stands for it: `.singleton`, `per request`, `not registered`.
        var scopeLabel: String { scope.map(\.description) ?? (isProvidedPerRequest ? "per request" : "not registered") }

        /// The description with the scope: `Presenter (.singleton)`, `RequestID (per request)`.
        var labelWithScope: String {
            guard let scope, let expiresAfter else { return "\(self) (\(scopeLabel))" }
            return "\(self) (\(scope), expiring after \(expiresAfter) s)"
        }
    }

    /// One dependency: `from`'s factory resolved `to`, or created an `@Injected` property for it.
    public struct Edge: Hashable, Sendable {
        /// The dependent: the registration whose factory asked.
        public let from: Node
        /// The dependency.
        public let to: Node
        /// Whether the dependency is an `@Injected` or `@OptionalInjected` property, resolved on
        /// first read rather than while the factory ran.
        public let isLazy: Bool
        /// Whether the dependency is held as a `Provider`, which resolves it at each call and
        /// keeps no instance: such an edge makes no captive.
        public var resolvesEachUse: Bool = false
    }

    /// Every node, in the order verification first met it.
    public let nodes: [Node]
    /// Every edge, in the order verification first saw it; each appears once.
    public let edges: [Edge]
}

extension DependencyGraph.Node {
    /// The node of a type (and name) that nothing registers.
    static func missing(_ type: Any.Type, name: String?) -> Self {
        Self(
            key: .missing(type: ObjectIdentifier(type), name: name), type: Diagnostics.shortName(of: type), name: name,
            scope: nil, registeredAt: nil, isContribution: false)
    }

    /// The node of a type (and name) declared provided per request, which the store verified
    /// does not register.
    static func perRequest(_ type: Any.Type, name: String?) -> Self {
        Self(
            key: .perRequest(type: ObjectIdentifier(type), name: name), type: Diagnostics.shortName(of: type),
            name: name, scope: nil, registeredAt: nil, isContribution: false)
    }
}
