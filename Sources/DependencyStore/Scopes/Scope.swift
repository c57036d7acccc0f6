/// How long an instance built by a registration lives, and who shares it.
///
/// Pick the scope where you register; the code that resolves never needs to know it:
///
/// ```swift
/// store.register(Networking.self, scope: .singleton) { _ in URLSessionNetworking() }
/// store.register(PriceFetching.self) { store in PriceFetcher(networking: store.resolve()) } // .unique
/// store.register(SessionRepository.self, scope: .session) { _ in SessionRepository() }
/// ```
///
/// | Scope | One instance per | Discarded |
/// |---|---|---|
/// | ``unique`` (the default) | resolve | never cached |
/// | ``singleton`` | store | when the store goes, or on `reset(.singleton)` |
/// | ``weak`` | while anyone holds it | after the last strong reference goes |
/// | ``graph`` | top-level resolve | when that resolve returns |
/// | custom, `Scope("session")` | store | on `reset(.session)` |
///
/// A custom scope caches like ``singleton`` until ``DependencyStore/reset(_:fileID:line:)`` discards what it
/// holds, so the next resolve builds anew. Declare it once, as a static member, so it reads like
/// the built-in ones:
///
/// ```swift
/// extension Scope {
///     static let session = Scope("session")
/// }
///
/// func logOut() {
///     DependencyStore.shared.reset(.session)
/// }
/// ```
///
/// See <doc:Lifetimes> for when to use each.
public struct Scope: Hashable {
    enum Kind: Hashable {
        case unique
        case singleton
        case weak
        case graph
        case custom(String)
    }

    let kind: Kind

    private init(kind: Kind) {
        self.kind = kind
    }

    /// Declares a custom scope: instances are cached in the store until you reset the scope.
    ///
    /// Two scopes with the same name are the same scope.
    ///
    /// ```swift
    /// extension Scope {
    ///     static let session = Scope("session")
    /// }
    /// ```
    ///
    /// - Parameter name: What the scope is called, in diagnostics and ``description``.
    public init(_ name: String) {
        kind = .custom(name)
    }

    /// A new instance on every resolve: the default.
    public static let unique = Scope(kind: .unique)

    /// One instance per store, built on the first resolve, exactly once even when many threads
    /// ask for it first at the same moment.
    public static let singleton = Scope(kind: .singleton)

    /// One instance shared for as long as something else holds it strongly; the next resolve after
    /// the last holder lets go builds a new one. For class instances only: a factory that builds a
    /// struct or an enum traps on its first resolve.
    public static let weak = Scope(kind: .weak)

    /// One instance per top-level resolve, shared by everything that resolve builds (Swinject's
    /// default scope). A `.graph` registration resolved on its own is the same as ``unique``.
    public static let graph = Scope(kind: .graph)
}

extension Scope: Sendable {}

extension Scope: CustomStringConvertible {
    /// The scope as you write it: `.singleton`, or `Scope("session")` for a custom one.
    public var description: String {
        switch kind {
        case .unique: ".unique"
        case .singleton: ".singleton"
        case .weak: ".weak"
        case .graph: ".graph"
        case .custom(let name): "Scope(\"\(name)\")"
        }
    }
}
