/// One resolve, as a store reports it to the observers installed with
/// ``DependencyStore/observeResolves(_:)``: what was asked for, in which store, whether its
/// factory ran, and for how long.
///
/// ```swift
/// DependencyStore.shared.observeResolves { event in
///     print(event)
///     // built Catalog (.singleton) in 11.200 ms, 3.100 ms own, in the root store, for AppModel
///     // reused Database (.singleton) in the root store, for AppModel > Catalog
/// }
/// ```
///
/// A resolve that builds reports the factory's ``Build``; one that returns an instance the store
/// keeps (a built `.singleton`, say), or the instance a `.graph` resolve already built, reports
/// `nil` there.
public struct ResolveEvent {
    /// The type that was resolved, as it was registered (usually a protocol).
    public let type: Any.Type
    /// The name it was resolved by; `nil` for the unnamed registration.
    public var name: String? { details.name }
    /// The scope it was registered with.
    public var scope: Scope { details.scope }
    /// The store that resolved it, as diagnostics name it: `the root store`, or
    /// `the store created at AppTests/PriceTests.swift:12 (over the root store)`. A store over a
    /// parent names itself, also when the registration was found in the parent. The event holds
    /// only this text, never the store.
    public var store: String { details.store }
    /// The factory run, when the resolve built an instance; `nil` when it returned one that was
    /// already built.
    public let build: Build?
    /// What was being built on this thread (or, for an `async` factory, in this chain of tasks)
    /// when this was resolved, outermost first, labelled as ``label`` is; empty for a resolve
    /// made outside any factory. Builds of other stores are included. Worded when read, so an
    /// observer that does not read it does not pay for the text.
    public var chain: [String] {
        details.links?.map { Tracing.label(of: $0.type, name: $0.name) } ?? []
    }

    /// The chain's types and names: no registration is held, so an event an observer keeps keeps
    /// nothing of the store alive.
    struct Link {
        let type: Any.Type
        let name: String?
    }

    /// What the event says besides its type and build, in one object that never changes, so that
    /// making an event costs one retain and dropping it one release, however much it says. The
    /// resolves of one registration in one store made outside any factory say the same, and share
    /// the one its slot keeps (see `DependencyStore.reportReuse(of:in:)`).
    final class Details: Sendable {
        let name: String?
        let scope: Scope
        let store: String
        /// The chain's types and names; `nil` for an empty chain.
        let links: [Link]?

        init(_ registration: AnyRegistration, store: String, links: [Link]?) {
            name = registration.name
            scope = registration.scope
            self.store = store
            self.links = links
        }
    }

    let details: Details

    /// A factory run: how long it took.
    public struct Build: Hashable, Sendable {
        /// From the factory's start to its return, the builds it asked for included.
        public let nanoseconds: UInt64
        /// ``nanoseconds`` less the builds the factory asked for that were reported too (those of
        /// stores with an observer): the factory's own work, and what it waited for.
        public let ownNanoseconds: UInt64
    }

    /// The registration as listings name it: `Greeting`, or `Greeting (named "formal")`.
    public var label: String {
        Tracing.label(of: type, name: name)
    }
}

extension ResolveEvent: Sendable {}

extension ResolveEvent: CustomStringConvertible {
    /// One line: `built Catalog (.singleton) in 11.200 ms, 3.100 ms own, in the root store, for
    /// AppModel`, or `reused Database (.singleton) in the root store`; the chain, after `for`, only
    /// when there is one.
    public var description: String {
        let label = Tracing.label(of: type, name: name, scope: scope)
        let what =
            build.map {
                "built \(label) in \(Tracing.milliseconds($0.nanoseconds)) ms, \(Tracing.milliseconds($0.ownNanoseconds)) ms own,"
            } ?? "reused \(label)"
        let chain = self.chain
        return "\(what) in \(store)" + (chain.isEmpty ? "" : ", for " + chain.joined(separator: " > "))
    }
}
