/// A registration whose value type is erased, so registrations of all types share one dictionary.
///
/// The dictionaries are keyed by `ObjectIdentifier(T.self)` (and the name), and the registration
/// stored under that key is always a `Registration<T>`, so resolution can downcast without a
/// dynamic type check.
///
/// Everything the resolve of an already-built instance reads is here, in non-generic fields:
/// generic values on that path (a `T?`, a struct generic over `T`) make unspecialised code look up
/// their type metadata at run time, which costs more than the rest of the resolve.
class AnyRegistration {
    /// The type the registration is for: shown in diagnostics and close-match suggestions.
    let type: Any.Type
    /// The name it was registered under, if any.
    let name: String?
    let scope: Scope
    let lifetime: Lifetime
    /// Where `register` was called.
    let location: SourceLocation
    /// The factory's argument types, or `nil` for a factory without arguments.
    let argumentTypes: [Any.Type]?
    /// Whether given arguments cast to the factory's; `nil` for a factory without arguments.
    let acceptsArguments: ((Any) -> Bool)?
    /// Where a cached scope keeps the instance, when the registration is resolved through the
    /// store that holds it; `nil` for `.unique` and `.graph`. A store that inherits the
    /// registration from a parent keeps a slot of its own (see `DependencyStore+Resolution.swift`).
    let slot: InstanceSlot?
    /// Where its factory must run.
    let isolation: Isolation
    /// No arguments and no isolation: a kept instance may be returned by the one-lookup fast path.
    let isPlain: Bool

    /// Where a registration's factory runs.
    enum Isolation {
        /// Wherever it is resolved.
        case none
        /// On the main actor: resolved synchronously on the main thread, or with `resolveAsync`.
        case mainActor
        /// It is `async`: resolved only with `resolveAsync`.
        case async
    }

    /// What resolution does with a registration's instances: the ``Scope`` without its name.
    enum Lifetime {
        case unique
        case graph
        /// Kept strongly in the store's slot: `.singleton` and custom scopes.
        case cached
        /// Kept weakly in the store's slot.
        case weak
    }

    init(
        type: Any.Type,
        name: String?,
        scope: Scope,
        location: SourceLocation,
        argumentTypes: [Any.Type]?,
        acceptsArguments: ((Any) -> Bool)?,
        isolation: Isolation
    ) {
        self.type = type
        self.isolation = isolation
        isPlain = argumentTypes == nil && isolation == .none
        self.name = name
        self.scope = scope
        lifetime = switch scope.kind {
        case .unique: .unique
        case .graph: .graph
        case .singleton, .custom: .cached
        case .weak: .weak
        }
        self.location = location
        self.argumentTypes = argumentTypes
        self.acceptsArguments = acceptsArguments
        slot = lifetime == .cached || lifetime == .weak ? InstanceSlot() : nil
    }

    /// Whether a resolve that passes `given` may run this registration's factory.
    @inline(__always)
    func accepts(_ given: GivenArguments) -> Bool {
        switch given {
        case .none: argumentTypes == nil
        case .some(let given): acceptsArguments?(given.values) ?? false
        }
    }

    /// The same registration with a slot of its own, for the copy `verify()` builds in.
    func copyForVerification() -> AnyRegistration {
        preconditionFailure("every registration is a Registration<T>")
    }

    /// Resolves this registration in `store` (a verification copy), discarding the instance.
    func resolveForVerification(in store: DependencyStore, arguments: GivenArguments) {
        preconditionFailure("every registration is a Registration<T>")
    }
}

final class Registration<T>: AnyRegistration, @unchecked Sendable {
    /// Runs the factory, with the arguments `accepts(_:)` has already checked. For a main-actor
    /// registration, call it only on the main thread.
    let build: (DependencyStore, GivenArguments) -> T
    /// The factory of an `async` registration, or the main-actor factory run on the main actor;
    /// `nil` for the others, which `resolveAsync` builds with `build`.
    let buildAsync: (@Sendable (DependencyStore, Requester) async throws -> T)?

    init(
        name: String?,
        scope: Scope,
        location: SourceLocation,
        arguments: (types: [Any.Type], accept: (Any) -> Bool)?,
        isolation: Isolation = .none,
        build: @escaping (DependencyStore, GivenArguments) -> T,
        buildAsync: (@Sendable (DependencyStore, Requester) async throws -> T)? = nil
    ) {
        self.build = build
        self.buildAsync = buildAsync
        super.init(
            type: T.self,
            name: name,
            scope: scope,
            location: location,
            argumentTypes: arguments?.types,
            acceptsArguments: arguments?.accept,
            isolation: isolation
        )
    }

    override func copyForVerification() -> AnyRegistration {
        Registration(
            name: name,
            scope: scope,
            location: location,
            arguments: argumentTypes.map { ($0, acceptsArguments!) },
            isolation: isolation,
            build: build,
            buildAsync: buildAsync
        )
    }

    override func resolveForVerification(in store: DependencyStore, arguments: GivenArguments) {
        _ = store.resolve(T.self, name: name, arguments: arguments, requester: .call(location))
    }
}

/// A built instance, boxed so that a slot can hold an instance of any type without being generic.
///
/// The value lives behind a raw pointer in this non-generic base, so reading it as a `T` needs
/// only `T`, which the resolve has at hand: reading a field of a generic class (`Box<T>.value`)
/// from code that is not specialised would look up `Box<T>`'s metadata at run time first, which
/// costs as much as the rest of the resolve of a built singleton.
class InstanceBox {
    let value: UnsafeMutableRawPointer

    fileprivate init(value: UnsafeMutableRawPointer) {
        self.value = value
    }

    /// Boxes `value`.
    static func make<T>(_ value: T) -> InstanceBox {
        TypedInstanceBox(value)
    }

    /// The value, which must have been boxed as a `T`.
    @inline(__always)
    func value<T>(as type: T.Type) -> T {
        value.assumingMemoryBound(to: T.self).pointee
    }
}

/// The subclass that knows the type, to destroy the value with the box.
private final class TypedInstanceBox<T>: InstanceBox {
    init(_ value: T) {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        super.init(value: UnsafeMutableRawPointer(pointer))
    }

    deinit {
        let pointer = value.assumingMemoryBound(to: T.self)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// Where a store keeps the instance of a ``Scope/singleton``, ``Scope/weak`` or custom-scoped
/// registration.
///
/// `box`, `object` and `generation` are guarded by the lock of the store that owns the slot;
/// `gate` is held by the one thread building the instance, so that others asking at the same
/// time wait for it instead of building their own.
final class InstanceSlot: @unchecked Sendable {
    let gate = Gate()
    /// The instance of a `.singleton` or custom scope, in an `InstanceBox`.
    var box: AnyObject?
    /// The instance of a `.weak` scope: the object itself, held weakly.
    weak var object: AnyObject?
    /// Bumped by every reset, so a build that was running during a reset does not cache its
    /// result afterwards.
    var generation = 0
    /// The build of an `async` (or main-actor) registration that `resolveAsync` callers are
    /// awaiting, so that it runs once however many tasks ask first.
    var inFlight: AsyncBuild?

    /// What the slot keeps: the box, or the weakly held object. Call with the owning store's lock
    /// held.
    @inline(__always)
    var kept: AnyObject? { box ?? object }

    /// Forgets the instance and returns what the slot held strongly, for the caller to release
    /// once it has dropped the store's lock (a `deinit` may resolve from the store). Call with the
    /// owning store's lock held.
    func discard() -> AnyObject? {
        let released = box
        box = nil
        object = nil
        generation &+= 1
        return released
    }
}

/// A place in the user's source: where something was declared, registered or requested.
struct SourceLocation: CustomStringConvertible, Sendable {
    let fileID: StaticString
    let line: UInt

    var description: String { "\(fileID):\(line)" }
}

/// Who asked for a dependency, for the missing-registration message.
enum Requester: Sendable {
    /// A direct call to `resolve` or `tryResolve`.
    case call(SourceLocation)
    /// The first read of an `@Injected` property declared at this place.
    case injectedProperty(SourceLocation)
    /// The first use of a `Lazy` handle made (resolved or declared) at this place.
    case lazyHandle(SourceLocation)

    var location: SourceLocation {
        switch self {
        case .call(let location), .injectedProperty(let location), .lazyHandle(let location): location
        }
    }
}

/// The arguments a resolve passes to the factory.
///
/// The values sit in a class, so the enum is one pointer wide and `.none`, which almost every
/// resolve passes down its calls, costs nothing to copy; an `Any` payload inline would be copied
/// and destroyed through value witnesses at each call.
enum GivenArguments {
    case none
    case some(Values)

    /// `values` is a tuple of type `types` (or the single value, when `count` is 1).
    final class Values {
        let values: Any
        let types: Any.Type
        let count: Int

        init(values: Any, types: Any.Type, count: Int) {
            self.values = values
            self.types = types
            self.count = count
        }
    }

    static func some(values: Any, types: Any.Type, count: Int) -> Self {
        .some(Values(values: values, types: types, count: count))
    }

    /// The values of a resolve that passed arguments; only a factory that takes them asks.
    var values: Any {
        guard case .some(let given) = self else {
            preconditionFailure("DependencyStore: a factory that takes arguments ran without them")
        }
        return given.values
    }
}

/// What the registrations dictionary of a named registration is keyed by.
struct NamedKey: Hashable {
    let type: ObjectIdentifier
    let name: String
}

// Registrations are immutable once made (every stored property is a `let`), and their factories
// may run on any thread by design (see `DependencyStore`'s documentation): a shared build's task
// carries its registration across to the thread that runs it.
extension AnyRegistration: @unchecked Sendable {}
