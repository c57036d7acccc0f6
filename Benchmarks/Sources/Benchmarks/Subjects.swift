import Dependencies
import DependencyStore
import Foundation
import Swinject

// What every library resolves: a service registered for a protocol, and a graph of three.

protocol Service: AnyObject, Sendable {
    var number: Int { get }
}

final class LiveService: Service {
    let number = 1
}

final class Leaf: Sendable {}

final class Root: Sendable {
    let left: Leaf
    let right: Leaf
    init(left: Leaf, right: Leaf) {
        self.left = left
        self.right = right
    }
}

/// A protocol as app code usually writes it: not class-bound, so an existential of it is a value.
protocol PlainService: Sendable {
    var number: Int { get }
}

/// The seed's idiom: a shared instance, registered with `register(PlainShared.shared, for:)`.
final class PlainShared: PlainService {
    static let shared = PlainShared()
    let number = 2
}

// MARK: - DependencyStore

final class InjectedHolder {
    @Injected var service: Service
}

/// The same with a protocol that is not class-bound.
final class PlainInjectedHolder {
    @Injected var service: any PlainService
}

// MARK: - A request through a store of its own

/// An app-wide repository a server keeps once.
final class Repository: Sendable {
    let number = 3
}

/// A request's own values.
struct RequestID: Sendable {
    let value: Int
}

final class RequestUser: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// A handler's dependencies as `@Injected` properties: two app-wide singletons, two values of the
/// request.
final class RequestHandler {
    @Injected var service: Service
    @Injected var repository: Repository
    @Injected var request: RequestID
    @Injected var user: RequestUser

    func handle() -> Int {
        service.number + repository.number + request.value + user.name.utf8.count
    }
}

/// The same handler wired by hand: what the store's per-request cost is measured against.
final class HandWiredHandler {
    let service: Service
    let repository: Repository
    let request: RequestID
    let user: RequestUser

    init(service: Service, repository: Repository, request: RequestID, user: RequestUser) {
        self.service = service
        self.repository = repository
        self.request = request
        self.user = user
    }

    func handle() -> Int {
        service.number + repository.number + request.value + user.name.utf8.count
    }
}

/// The app's store of a server, filled at start-up, and one request handled through a store of
/// its own layered over it: a child store, two registrations, `execute`, four `@Injected` reads.
struct Server {
    let app = DependencyStore()
    let user = RequestUser(name: "ada")

    init() {
        app.register(LiveService(), for: Service.self, scope: .singleton)
        app.register(Repository(), for: Repository.self, scope: .singleton)
        _ = handleThroughAStore(0)
    }

    func handleThroughAStore(_ number: Int) -> Int {
        let request = DependencyStore(parent: app)
        request.provide(RequestID(value: number), for: RequestID.self)
        request.provide(user, for: RequestUser.self)
        return request.execute { RequestHandler() }.handle()
    }

    /// The same request in an async handler: the async `execute`, its closure awaiting.
    func handleThroughAStoreAsync(_ number: Int) async -> Int {
        let request = DependencyStore(parent: app)
        request.provide(RequestID(value: number), for: RequestID.self)
        request.provide(user, for: RequestUser.self)
        return await request.execute { () async -> Int in RequestHandler().handle() }
    }
}

/// The same server wired by hand.
struct HandWiredServer {
    let service: Service = LiveService()
    let repository = Repository()
    let user = RequestUser(name: "ada")

    func handle(_ number: Int) -> Int {
        HandWiredHandler(service: service, repository: repository, request: RequestID(value: number), user: user)
            .handle()
    }
}

// MARK: - swift-dependencies

private enum ServiceKey: DependencyKey {
    static let liveValue: any Service = LiveService()
}

extension DependencyValues {
    var service: any Service {
        get { self[ServiceKey.self] }
        set { self[ServiceKey.self] = newValue }
    }
}

struct DependencyHolder {
    @Dependency(\.service) var service
}

/// A key per numbered type, for the 1,000-registration rows.
enum NumberedKey<T>: DependencyKey {
    static var liveValue: Numbered<T> { Numbered() }
}

// MARK: - The floor

/// What no container can beat: a dictionary keyed by `ObjectIdentifier`, behind a mutex.
final class Floor: @unchecked Sendable {
    private let lock = NSLock()
    // Only touched with the lock held: the run-time exclusivity checks would only repeat what the
    // lock guarantees (about 117 instructions a lookup), and the store's own lock does without them.
    @exclusivity(unchecked) private var instances: [ObjectIdentifier: AnyObject] = [:]
    @exclusivity(unchecked) private var factories: [ObjectIdentifier: (Floor) -> AnyObject] = [:]

    func store(_ instance: AnyObject, for type: Any.Type) {
        lock.lock()
        instances[ObjectIdentifier(type)] = instance
        lock.unlock()
    }

    func register(_ type: Any.Type, _ factory: @escaping (Floor) -> AnyObject) {
        lock.lock()
        factories[ObjectIdentifier(type)] = factory
        lock.unlock()
    }

    /// The cached instance for `type`.
    @inline(__always)
    func instance(for type: Any.Type) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return instances[ObjectIdentifier(type)]
    }

    /// Looks up `type`'s factory under the lock and calls it outside.
    @inline(__always)
    func make(_ type: Any.Type) -> AnyObject {
        lock.lock()
        let factory = factories[ObjectIdentifier(type)]!
        lock.unlock()
        return factory(self)
    }
}

// MARK: - 1,000 distinct types

enum Zero {}
enum Next<T> {}

final class Numbered<T>: Sendable {}

/// One registration of a numbered type, prepared for each library, so that the registration rows
/// time the registration and not the walk over generic types.
struct NumberedRegistrations {
    var intoStore: [(DependencyStore) -> Void] = []
    var intoContainer: [(Container) -> Void] = []
    var intoValues: [(inout DependencyValues) -> Void] = []
    var intoFloor: [(Floor) -> Void] = []
    /// swift-dependencies has no registration step: every key is known at compile time, and a
    /// live value is built and cached on first read. Reading each once is its "1,000 registered".
    var readLiveValue: [() -> Void] = []

    init(count: Int) {
        add(Zero.self, remaining: count)
    }

    private mutating func add<T>(_: T.Type, remaining: Int) {
        guard remaining > 0 else { return }
        intoStore.append { $0.register(Numbered<T>(), for: Numbered<T>.self) }
        intoContainer.append { $0.register(Numbered<T>.self) { _ in Numbered<T>() } }
        intoValues.append { $0[NumberedKey<T>.self] = Numbered<T>() }
        intoFloor.append { floor in floor.register(Numbered<T>.self) { _ in Numbered<T>() } }
        readLiveValue.append { blackHole(Dependency(NumberedKey<T>.self).wrappedValue) }
        add(Next<T>.self, remaining: remaining - 1)
    }
}
