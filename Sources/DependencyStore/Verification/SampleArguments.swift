/// Arguments for ``DependencyStore/verify(sampleArguments:timeout:captives:overrides:)`` to build a registration
/// whose factory takes arguments; without them, that registration is skipped and listed as such.
///
/// ```swift
/// let report = store.verify(sampleArguments: [
///     SampleArguments(for: Greeter.self, "Ada"),
///     SampleArguments(for: PriceView.self, Currency.usd, Date()),
/// ])
/// ```
public struct SampleArguments {
    let type: ObjectIdentifier
    let name: String?
    let given: GivenArguments

    /// Sample arguments for the registration of `type` (with `name`) whose factory takes one.
    public init<T, A>(for type: T.Type, name: String? = nil, _ argument: A) {
        self.type = ObjectIdentifier(type)
        self.name = name
        given = .some(values: argument, types: A.self, count: 1)
    }

    /// Sample arguments for a factory that takes two.
    public init<T, A1, A2>(for type: T.Type, name: String? = nil, _ first: A1, _ second: A2) {
        self.type = ObjectIdentifier(type)
        self.name = name
        given = .some(values: (first, second), types: (A1, A2).self, count: 2)
    }

    /// Sample arguments for a factory that takes three.
    public init<T, A1, A2, A3>(for type: T.Type, name: String? = nil, _ first: A1, _ second: A2, _ third: A3) {
        self.type = ObjectIdentifier(type)
        self.name = name
        given = .some(values: (first, second, third), types: (A1, A2, A3).self, count: 3)
    }
}

/// Not `Sendable`: it holds the sample values as they were given, which need not be.
@available(*, unavailable)
extension SampleArguments: Sendable {}
