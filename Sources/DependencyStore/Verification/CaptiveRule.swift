/// Which dependencies ``DependencyStore/verify(sampleArguments:entryPoints:timeout:captives:overrides:)`` reports as
/// *captive*: held by an instance the store keeps longer than their own scope lets them live.
///
/// ```swift
/// let report = store.verify()                      // .scoped, the default
/// let strict = store.verify(captives: .strict)     // .unique and .graph held by a singleton too
/// ```
public struct CaptiveRule: Hashable {
    private let isStrict: Bool

    /// Only scoped lifetimes held past their end: a custom scope (which `reset` ends) or `.weak`
    /// (which ends with its last holder) held by a `.singleton`, or by an instance of a different
    /// custom scope. This is .NET's scope validation, and the default.
    ///
    /// A `.singleton` holding a `.unique` or `.graph` instance is not a problem under this rule:
    /// those scopes promise a new instance per resolve, not an end, and the seed's idiom
    /// `register(Service.shared, for: ServiceType.self)` registers a shared object as `.unique`.
    public static let scoped = CaptiveRule(isStrict: false)

    /// Also `.unique` and `.graph` instances held by a `.singleton` or a custom scope: for a
    /// codebase where `.unique` means "must not be shared".
    public static let strict = CaptiveRule(isStrict: true)
}

extension CaptiveRule: Sendable {}
