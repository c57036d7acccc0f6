/// Who asked for a dependency, for the missing-registration message.
enum Requester: Sendable {
    /// A direct call to `resolve` or `tryResolve`.
    case call(SourceLocation)
    /// The first read of an `@Injected` (or `@OptionalInjected`) property declared at this place.
    case injectedProperty(SourceLocation)
    /// A read of a `@ReleasableInjected` property declared at this place that found it empty: the
    /// first, or the first after a `release()`.
    case releasableInjectedProperty(SourceLocation)
    /// A read of a `@WeakInjected` property declared at this place that found it empty.
    case weakInjectedProperty(SourceLocation)
    /// The first use of a `Lazy` handle made (resolved or declared) at this place.
    case lazyHandle(SourceLocation)
    /// A `forward` made at this place, resolving the registration it forwards to.
    case forward(SourceLocation)

    var location: SourceLocation {
        switch self {
        case .call(let location), .injectedProperty(let location), .releasableInjectedProperty(let location),
            .weakInjectedProperty(let location), .lazyHandle(let location), .forward(let location):
            location
        }
    }

    /// The attribute of the property that asked (`@WeakInjected`), or `nil` when no property did.
    var propertyWrapper: String? {
        switch self {
        case .injectedProperty: "@Injected"
        case .releasableInjectedProperty: "@ReleasableInjected"
        case .weakInjectedProperty: "@WeakInjected"
        case .call, .lazyHandle, .forward: nil
        }
    }
}
