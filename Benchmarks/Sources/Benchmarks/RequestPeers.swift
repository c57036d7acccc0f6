import Dependencies
import Swinject

// Row 14's request, written for each peer as its users write it: the same two app-wide singletons,
// the same two request values, the same handler doing the same sum, so that each line of row 14
// measures what its library asks of one request.

// MARK: - Swinject

/// The handler as Swinject users write it: its dependencies come from the resolver it is given,
/// here the request's child container, once each.
final class SwinjectRequestHandler {
    let service: Service
    let repository: Repository
    let request: RequestID
    let user: RequestUser

    init(resolver: Resolver) {
        service = resolver.resolve(Service.self)!
        repository = resolver.resolve(Repository.self)!
        request = resolver.resolve(RequestID.self)!
        user = resolver.resolve(RequestUser.self)!
    }

    func handle() -> Int {
        service.number + repository.number + request.value + user.name.utf8.count
    }
}

/// The app's container, with the two singletons in `.container` scope (shared with its child
/// containers), and one request handled through a child container of its own that registers the
/// request's id and user.
struct SwinjectServer {
    let app = Container()
    let user = RequestUser(name: "ada")

    init() {
        app.register(Service.self) { _ in LiveService() }.inObjectScope(.container)
        app.register(Repository.self) { _ in Repository() }.inObjectScope(.container)
        _ = handle(0)
    }

    func handle(_ number: Int) -> Int {
        let request = Container(parent: app)
        let user = self.user
        request.register(RequestID.self) { _ in RequestID(value: number) }
        request.register(RequestUser.self) { _ in user }
        return SwinjectRequestHandler(resolver: request).handle()
    }
}

// MARK: - swift-dependencies

private enum RepositoryKey: DependencyKey {
    static let liveValue = Repository()
}

/// A request's values have no meaningful app-wide value: every request sets its own with
/// `withDependencies`, so these are placeholders that are never read.
private enum RequestIDKey: DependencyKey {
    static let liveValue = RequestID(value: 0)
}

private enum RequestUserKey: DependencyKey {
    static let liveValue = RequestUser(name: "")
}

extension DependencyValues {
    var repository: Repository {
        get { self[RepositoryKey.self] }
        set { self[RepositoryKey.self] = newValue }
    }

    var requestID: RequestID {
        get { self[RequestIDKey.self] }
        set { self[RequestIDKey.self] = newValue }
    }

    var requestUser: RequestUser {
        get { self[RequestUserKey.self] }
        set { self[RequestUserKey.self] = newValue }
    }
}

/// The handler with four `@Dependency` properties, each read once.
final class DependenciesRequestHandler {
    @Dependency(\.service) var service
    @Dependency(\.repository) var repository
    @Dependency(\.requestID) var request
    @Dependency(\.requestUser) var user

    func handle() -> Int {
        service.number + repository.number + request.value + user.name.utf8.count
    }
}

/// One request: its two values set with `withDependencies`, the handler made and run inside. The
/// two app-wide values are the keys' `liveValue`s.
struct DependenciesServer {
    let user = RequestUser(name: "ada")

    init() {
        _ = handle(0)
    }

    func handle(_ number: Int) -> Int {
        withDependencies {
            $0.requestID = RequestID(value: number)
            $0.requestUser = user
        } operation: {
            DependenciesRequestHandler().handle()
        }
    }
}
