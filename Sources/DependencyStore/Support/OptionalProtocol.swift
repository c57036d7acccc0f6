/// Lets diagnostics see through `Optional` without knowing its payload type statically.
protocol OptionalProtocol {
    static var wrappedType: Any.Type { get }
    /// Whether it is `nil`: what a cache asks of a result before it keeps it.
    var isNil: Bool { get }
}

extension Optional: OptionalProtocol {
    static var wrappedType: Any.Type { Wrapped.self }
    var isNil: Bool { self == nil }
}
