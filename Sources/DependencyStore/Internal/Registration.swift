/// A registration whose value type is erased, so registrations of all types share one dictionary.
///
/// The dictionaries are keyed by `ObjectIdentifier(T.self)` (and the name), and the registration
/// stored under that key is always a `Registration<T>`, so resolution can downcast without a
/// dynamic type check.
class AnyRegistration {
    /// The type the registration is for: shown in diagnostics and close-match suggestions.
    let type: Any.Type
    /// The name it was registered under, if any.
    let name: String?
    let scope: Scope
    /// Where `register` was called.
    let location: SourceLocation
    /// The factory's argument types, or `nil` for a factory without arguments.
    let argumentTypes: [Any.Type]?

    init(type: Any.Type, name: String?, scope: Scope, location: SourceLocation, argumentTypes: [Any.Type]?) {
        self.type = type
        self.name = name
        self.scope = scope
        self.location = location
        self.argumentTypes = argumentTypes
    }

    /// The slot of a cached scope, type-erased for `reset`.
    var cachedSlot: AnyInstanceSlot? { nil }
}

final class Registration<T>: AnyRegistration {
    enum Factory {
        case plain((DependencyStore) -> T)
        /// `accepts` says whether the given arguments cast to the factory's; `build` runs the
        /// factory with arguments that do.
        case arguments(accepts: (Any) -> Bool, build: (DependencyStore, Any) -> T)
    }

    let factory: Factory

    /// Where a scope cached in the store keeps the instance, when the registration is resolved
    /// through the store that holds it; `nil` for ``Scope/unique`` and ``Scope/graph``. A store
    /// that inherits the registration from a parent keeps its own slot (see
    /// `DependencyStore+Resolution.swift`).
    let slot: InstanceSlot<T>?

    init(
        name: String?,
        scope: Scope,
        location: SourceLocation,
        argumentTypes: [Any.Type]?,
        factory: Factory
    ) {
        self.factory = factory
        slot = scope.isCachedInStore ? InstanceSlot<T>(scope: scope) : nil
        super.init(type: T.self, name: name, scope: scope, location: location, argumentTypes: argumentTypes)
    }

    override var cachedSlot: AnyInstanceSlot? { slot }
}

/// Where a store keeps the instance of a ``Scope/singleton``, ``Scope/weak`` or custom-scoped
/// registration.
///
/// `value`, `object` and `generation` are guarded by the lock of the store that owns the slot;
/// `gate` is held by the one thread building the instance, so that others asking at the same
/// time wait for it instead of building their own.
class AnyInstanceSlot {
    let scope: Scope
    let gate = Lock()
    /// Bumped by every reset, so a build that was running during a reset does not cache its
    /// result afterwards.
    var generation = 0

    init(scope: Scope) {
        self.scope = scope
    }

    /// Whether an instance is kept. Call with the owning store's lock held.
    var hasInstance: Bool { false }

    /// Drops the instance. Call with the owning store's lock held.
    func discard() {
        generation &+= 1
    }
}

final class InstanceSlot<T>: AnyInstanceSlot {
    /// The instance of a `.singleton` or custom scope.
    private var value: T?
    /// The instance of a `.weak` scope.
    private weak var object: AnyObject?

    /// The cached instance, if any. Call with the owning store's lock held.
    @inline(__always)
    var instance: T? {
        if let value { return value }
        // Only a `.weak` slot stores an object, and only one built as a T.
        if let object { return (object as! T) }
        return nil
    }

    /// Keeps `instance`, which must be a class instance for a `.weak` slot. Call with the owning
    /// store's lock held.
    func keep(_ instance: T, as object: AnyObject?) {
        if let object {
            self.object = object
        } else {
            value = instance
        }
    }

    override var hasInstance: Bool { value != nil || object != nil }

    override func discard() {
        super.discard()
        value = nil
        object = nil
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

/// The arguments a resolve passes to the factory.
enum GivenArguments {
    case none
    /// `values` is a tuple of type `types` (or the single value, when `count` is 1).
    case some(values: Any, types: Any.Type, count: Int)
}

/// What the registrations dictionary of a named registration is keyed by.
struct NamedKey: Hashable {
    let type: ObjectIdentifier
    let name: String
}
