import DependencyStore

// The shapes an iOS app writes, in the Swift 5 language mode.

public protocol APIClient: Sendable {
    func user() async -> String
}

public struct StubAPIClient: APIClient {
    public init() {}
    public func user() async -> String { "Ada" }
}

public protocol UserRepository: Sendable {
    func currentUser() async -> String
}

/// A `Sendable` service with an injected dependency.
public final class LiveUserRepository: UserRepository {
    private let api = Lazy<any APIClient>()
    public init() {}
    public func currentUser() async -> String { await api.value.user() }
}

/// A main-actor view model, injected into a main-actor screen.
@MainActor public final class ProfileModel {
    @Injected private var repository: any UserRepository
    public private(set) var title = ""
    public init() {}
    public func load() async { title = await repository.currentUser() }
}

@MainActor public final class ProfileScreen {
    @Injected public var model: ProfileModel
    public init() {}
}

/// A session that ends at logout, and a coordinator that must not be kept alive by its screens.
public protocol SessionType: AnyObject, Sendable {}
public protocol Coordinating: Sendable {
    func screenDidFinish()
}

/// A main-actor screen: a releasable session, a weak coordinator, and `$property` of `@Injected`.
@MainActor public final class AccountScreen {
    @Injected private var repository: any UserRepository
    @ReleasableInjected private var session: any SessionType
    @WeakInjected private var coordinator: (any Coordinating)?
    public init() {}
    public var isLoaded: Bool { $repository.isResolved && $session.isResolved }
    public func finish() {
        coordinator?.screenDidFinish()
        $session.release()
    }
}

/// The same in an actor.
public actor SessionKeeper {
    @ReleasableInjected private var session: any SessionType
    @WeakInjected private var coordinator: (any Coordinating)?
    public init() {}
    public func logOut() { $session.release() }
}

/// A `Sendable` class holds the wrappers as constants, as it holds a `Lazy`.
public final class SessionService: Sendable {
    private let session = ReleasableInjected<any SessionType>()
    private let coordinator = WeakInjected<any Coordinating>()
    public init() {}
    public func logOut() {
        session.release()
        coordinator.wrappedValue?.screenDidFinish()
    }
}

/// A service that starts with `await`.
public final class Database: Sendable {
    public static func open() async throws -> Database { Database() }
}

extension DependencyStore {
    /// Nonisolated, as `registerAll()` is.
    public func registerClient() {
        register(StubAPIClient(), for: (any APIClient).self)
        register((any UserRepository).self, scope: .singleton) { _ in LiveUserRepository() }
        register(ProfileModel.self, on: MainActor.self) { _ in ProfileModel() }
        register(Database.self, scope: .singleton) { _ async throws in try await Database.open() }
    }
}

public func prefetch(from store: DependencyStore) async throws {
    _ = try await store.resolveAsync(Database.self)
    _ = try await store.resolveAsync(ProfileModel.self)
}
