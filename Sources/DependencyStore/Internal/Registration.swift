/// A registration whose value type is erased, so registrations of all types share one dictionary.
///
/// The dictionary is keyed by `ObjectIdentifier(T.self)` and the registration stored under that key
/// is always a `Registration<T>`, so resolution can downcast without a dynamic type check.
class AnyRegistration {
    /// The type the registration is for: shown in diagnostics and close-match suggestions.
    let type: Any.Type
    /// Where `register` was called.
    let location: SourceLocation

    init(type: Any.Type, location: SourceLocation) {
        self.type = type
        self.location = location
    }
}

final class Registration<T>: AnyRegistration {
    let factory: (DependencyStore) -> T

    init(factory: @escaping (DependencyStore) -> T, location: SourceLocation) {
        self.factory = factory
        super.init(type: T.self, location: location)
    }
}

/// A place in the user's source: where something was declared, registered or requested.
struct SourceLocation: CustomStringConvertible {
    let fileID: StaticString
    let line: UInt

    var description: String { "\(fileID):\(line)" }
}

/// Who asked for a dependency, for the missing-registration message.
enum Requester {
    /// A direct call to `resolve` or `tryResolve`.
    case call(SourceLocation)
    /// The first read of an `@Injected` property declared at this place.
    case injectedProperty(SourceLocation)

    var location: SourceLocation {
        switch self {
        case .call(let location), .injectedProperty(let location): location
        }
    }
}
