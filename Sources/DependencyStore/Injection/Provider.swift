/// A handle that resolves a new `Value` each time it is called, as its registration's scope says:
/// inject it where code needs many instances, or needs one later, without holding the store.
///
/// The store makes one for any registered type, without a registration of its own: resolve it,
/// or inject it, and call it.
///
/// ```swift
/// final class SessionFactory {
///     private let makeSession: Provider<Session>
///     init(makeSession: Provider<Session>) { self.makeSession = makeSession }
///
///     func logIn() -> Session { makeSession() }   // a new Session (if it is .unique)
/// }
///
/// store.register(SessionFactory.self) { store in SessionFactory(makeSession: store.resolve()) }
/// ```
///
/// Each call is a resolve of `Value` from the store that resolved the provider (a test's store, a
/// child store), with the name it was resolved with, so a `.singleton` gives the same instance
/// every time and a `.unique` a new one. It is bound like an ``Injected`` property: it does not
/// keep alive a store that keeps the instance holding it.
///
/// A call made inside a factory, while a resolve runs on that thread, is part of that resolve
/// and shares its `.graph` instances (Swinject's rule). A call made later is a top-level resolve
/// of its own: the graph of the resolve that made the provider is over by then, and keeping it
/// for the provider would keep its instances alive with it.
///
/// A provider resolved with arguments carries them, and every call passes them to the factory:
///
/// ```swift
/// store.register(Greeting.self) { (_, name: String) in FixedGreeting("Hello, \(name)") }
/// let greetAda = store.resolve(Provider<Greeting>.self, arguments: "Ada")
/// greetAda().text   // "Hello, Ada"
/// ```
///
/// > Important: Resolving a provider for a type nothing registers traps there, with the usual
/// > diagnostic; `resolveIfRegistered(Provider<T>.self)` returns `nil` instead. So does resolving
/// > it with arguments its registration does not take. Calling a provider that carries arguments
/// > with arguments again traps, rather than dropping either.
public struct Provider<Value> {
    private let binding: InjectedBinding
    private let name: String?
    private let requester: Requester
    /// What the provider was resolved with, passed on by every call.
    private let arguments: GivenArguments

    /// Resolves a `Value`: the instance its scope keeps, or a new one; with the arguments the
    /// provider was resolved with, if any.
    public func callAsFunction() -> Value {
        binding.resolve(Value.self, name: name, arguments: arguments, requester: requester)
    }

    /// A call with arguments (the forms in Provider+Arities.generated.swift): they reach the factory
    /// unless the provider carries arguments of its own already.
    func call(with given: GivenArguments) -> Value {
        if case .some = arguments {
            DependencyStore.fail(
                binding.store.handleCalledWithArgumentsAgain(
                    Self.self, value: Value.self, name: name, carried: arguments, given: given,
                    requester: requester),
                resolving: Value.self, name: name, at: requester)
        }
        return binding.resolve(Value.self, name: name, arguments: given, requester: requester)
    }
}

extension Provider: DependencyHandle {
    static func make(
        in store: DependencyStore, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> Self {
        try prepare(in: store, name: name, arguments: arguments, requester: requester)
        return Self(binding: InjectedBinding(store), name: name, requester: requester, arguments: arguments)
    }

    static var resolvesEachUse: Bool { true }
}

extension Provider: @unchecked Sendable where Value: Sendable {}
