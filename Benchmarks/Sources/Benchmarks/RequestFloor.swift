import Foundation

// A store per request written as plainly as it can be, for this one request: what row 14's target
// is weighed against. It keeps only what the product's semantics need for it (a child store over
// the app's, two values registered as lazy factories, `execute` binding the store for the
// request's task, four properties bound to the store current at their creation and resolved at
// their first read) and drops everything else the library does: no registration records, no
// diagnostics, no names, no scopes, no sharing rule, no closing, no thread safety in the
// properties, no cycle detection, no removals. It is not a competitor, and not a proven lower
// bound either (a store could, for example, keep a request's few values in an array rather than a
// dictionary); it is what the obvious code costs.

/// A value or a factory, kept as an object so that reading it back is a pointer cast, not a
/// dynamic cast from `Any`.
final class FloorBox<T> {
    let value: T
    init(_ value: T) { self.value = value }
}

/// A store: a dictionary of instances and one of factories behind one lock, over a parent.
final class FloorRequestStore: @unchecked Sendable {
    @TaskLocal static var current: FloorRequestStore?

    private let parent: FloorRequestStore?
    private let lock = NSLock()
    // Only touched with the lock held, as in `Floor`.
    @exclusivity(unchecked) private var instances: [ObjectIdentifier: AnyObject] = [:]
    @exclusivity(unchecked) private var factories: [ObjectIdentifier: AnyObject] = [:]

    init(parent: FloorRequestStore? = nil) {
        self.parent = parent
    }

    func keep<T>(_ instance: T, for type: T.Type) {
        lock.lock()
        instances[ObjectIdentifier(type)] = FloorBox(instance)
        lock.unlock()
    }

    func register<T>(_ value: @autoclosure @escaping () -> T, for type: T.Type) {
        let factory = FloorBox(value)
        lock.lock()
        factories[ObjectIdentifier(type)] = factory
        lock.unlock()
    }

    /// The kept instance, else the factory's value (called with no lock held), else the parent's.
    func resolve<T>(_ type: T.Type) -> T {
        let key = ObjectIdentifier(type)
        lock.lock()
        if let instance = instances[key] {
            lock.unlock()
            return unsafeDowncast(instance, to: FloorBox<T>.self).value
        }
        let factory = factories[key]
        lock.unlock()
        if let factory { return unsafeDowncast(factory, to: FloorBox<() -> T>.self).value() }
        return parent!.resolve(type)
    }

    func execute<R>(_ body: () -> R) -> R {
        Self.$current.withValue(self, operation: body)
    }
}

/// A property bound to the store current at its creation and resolved at its first read. What it
/// holds is an object either way, so that its deinit needs no generic metadata.
@propertyWrapper
final class FloorInjected<T> {
    private var store: FloorRequestStore?
    private var value: AnyObject?

    init() {
        store = FloorRequestStore.current
    }

    var wrappedValue: T {
        if let value { return unsafeDowncast(value, to: FloorBox<T>.self).value }
        let resolved = store!.resolve(T.self)
        value = FloorBox(resolved)
        store = nil
        return resolved
    }
}

final class FloorRequestHandler {
    @FloorInjected var service: Service
    @FloorInjected var repository: Repository
    @FloorInjected var request: RequestID
    @FloorInjected var user: RequestUser

    func handle() -> Int {
        service.number + repository.number + request.value + user.name.utf8.count
    }
}

/// The same request as `Server.handleThroughAStore`, through the floor's stores.
struct FloorServer {
    let app = FloorRequestStore()
    let user = RequestUser(name: "ada")

    init() {
        app.keep(LiveService() as Service, for: Service.self)
        app.keep(Repository(), for: Repository.self)
    }

    func handle(_ number: Int) -> Int {
        let request = FloorRequestStore(parent: app)
        request.register(RequestID(value: number), for: RequestID.self)
        request.register(user, for: RequestUser.self)
        return request.execute { FloorRequestHandler() }.handle()
    }
}

/// Row `create`'s floor: a property as plain as it can be (one allocation holding the store until
/// the first read and the value after, no lock, no thread safety, no diagnostics), in an object
/// made inside the floor's `execute` and read once. What the row's bound is weighed against: the
/// task-local binding and the two allocations (the holder's and the property's) are the runtime's,
/// and the product's semantics need each of them (see Docs/Performance.md).
@propertyWrapper
final class FloorOnceInjected<T> {
    private var store: FloorRequestStore?
    private var value: T?

    init() {
        store = FloorRequestStore.current
    }

    var wrappedValue: T {
        if let value { return value }
        let resolved = store!.resolve(T.self)
        value = resolved
        store = nil
        return resolved
    }
}

final class FloorInjectedHolder {
    @FloorOnceInjected var service: Service
}
