/// Arguments for ``DependencyStore/verify(sampleArguments:entryPoints:timeout:captives:overrides:)`` to build a registration
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
    /// What it is for, as a report names it: `Greeting (named "formal")`.
    let label: String

    /// The sample for the registration of `type` with `name`: what the generated initialisers, one
    /// for each number of arguments (SampleArguments+Arities.generated.swift), make.
    init(_ type: Any.Type, _ name: String?, _ given: GivenArguments) {
        self.type = ObjectIdentifier(type)
        self.name = name
        self.given = given
        label = Tracing.label(of: type, name: name)
    }
}

/// Not `Sendable`: it holds the sample values as they were given, which need not be.
@available(*, unavailable)
extension SampleArguments: Sendable {}
