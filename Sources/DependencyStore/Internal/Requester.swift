/// Who asked for a dependency, for the missing-registration message.
enum Requester: Sendable {
    /// A direct call to `resolve` or `tryResolve`.
    case call(SourceLocation)
    /// The first read of an `@Injected` property declared at this place.
    case injectedProperty(SourceLocation)
    /// The first use of a `Lazy` handle made (resolved or declared) at this place.
    case lazyHandle(SourceLocation)
    /// A `forward` made at this place, resolving the registration it forwards to.
    case forward(SourceLocation)

    var location: SourceLocation {
        switch self {
        case .call(let location), .injectedProperty(let location), .lazyHandle(let location),
            .forward(let location):
            location
        }
    }
}
