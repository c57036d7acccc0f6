/// A handle that resolves its `Value` once, on first use, and returns that same value afterwards:
/// inject it to defer an expensive service, or to break a cycle in constructor injection.
///
/// The store makes one for any registered type, without a registration of its own:
///
/// ```swift
/// final class Checkout {
///     private let payments: Lazy<PaymentService>    // built only if the user pays
///     init(payments: Lazy<PaymentService>) { self.payments = payments }
///
///     func pay() { payments.value.charge() }
/// }
///
/// store.register(Checkout.self) { store in Checkout(payments: store.resolve()) }
/// ```
///
/// It resolves exactly once, even when many threads use it first together, from the store that
/// resolved the handle (a test's store, a child store), like an ``Injected`` property; copies of a
/// handle share its value. Two services that need each other can each take a `Lazy` of the other:
/// neither resolve happens while the other is being built, so that is not a cycle, and `verify()`
/// does not report it as one.
///
/// A handle resolved with arguments (`store.resolve(Lazy<Greeting>.self, arguments: "Ada")`)
/// resolves its value with them.
///
/// > Important: Resolving a lazy handle for a type nothing registers traps there, with the usual
/// > diagnostic; `resolveIfRegistered(Lazy<T>.self)` returns `nil` instead. So does resolving it
/// > with arguments its registration does not take, or without the arguments it needs: nothing
/// > can pass them to a lazy handle later.
///
/// ## In a `Sendable` class
///
/// A property wrapper's storage is a `var`, which a `Sendable` class may not have, so `@Injected`
/// does not compile there. Declare a `Lazy` constant instead: it binds to
/// ``DependencyStore/shared`` when it is created and resolves once, on first use, exactly as
/// `@Injected` does. The dependency's type must be `Sendable`, as for any stored property of a
/// `Sendable` class.
///
/// ```swift
/// protocol APIClient: Sendable { func fetchUser() async throws -> User }
/// protocol Repository: Sendable { func user() async throws -> User }
///
/// final class LiveRepository: Repository {
///     private let api = Lazy<APIClient>()
///
///     func user() async throws -> User { try await api.value.fetchUser() }
/// }
/// ```
public struct Lazy<Value> {
    private let property: Injected<Value>
    /// What the handle was resolved with, for its one resolve.
    private let arguments: GivenArguments

    /// The value: resolved on first use, the same afterwards.
    public var value: Value {
        property.value(resolvingWith: arguments)
    }
}

extension Lazy {
    /// Binds to the current ``DependencyStore/shared``, as an ``Injected`` property does: the
    /// form for a `let` in a `Sendable` class.
    ///
    /// - Parameters:
    ///   - name: The name the dependency was registered under; `nil`, the default, for the
    ///     unnamed one.
    ///   - fileID: Where the handle is declared, for diagnostics. Leave the default.
    ///   - line: The line of the declaration. Leave the default.
    public init(name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        property = Injected(
            boundTo: .shared, name: name, requester: .lazyHandle(SourceLocation(fileID: fileID, line: line)))
        arguments = .none
    }
}

extension Lazy: DependencyHandle {
    static func make(
        in store: DependencyStore, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> Self {
        try prepare(in: store, name: name, arguments: arguments, requester: requester)
        return Self(
            property: Injected(boundTo: store, name: name, requester: .lazyHandle(requester.location)),
            arguments: arguments)
    }

    static var resolvesEachUse: Bool { false }
}

extension Lazy: @unchecked Sendable where Value: Sendable {}
