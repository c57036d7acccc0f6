// The app types Docs/Lifetimes.md assumes, and the custom scope its "Custom scopes" section
// declares.
import DependencyStore
import Foundation
import Testing

extension Scope {
    static let session = Scope("session")
}

protocol Networking {}
struct URLSessionNetworking: Networking {
    init(host: String = "api.example.com") {}
}
struct MockNetworking: Networking {}

protocol PriceFetching {}
struct PriceFetcher: PriceFetching {
    init(networking: Networking) {}
}

protocol Caching {}
final class Cache: Caching {}

struct User: Sendable {}
let user = User()

final class SessionRepository {
    init(user: User = User()) {}
}

protocol Window {}
final class MainWindow: Window, Sendable {}
let mainWindow = MainWindow()

struct DetailScreen {
    init(window: Window?, date: Date, fetcher: PriceFetching) {}
}

final class Session {}

final class AccessToken: Sendable {
    static func fetch() -> AccessToken { AccessToken() }
    static func fetchOrThrow() throws -> AccessToken { AccessToken() }
}

struct DocumentID: Hashable, Sendable {
    init(_ value: String) {}
}

protocol DocumentStorage {}

final class DocumentModel {
    init(id: DocumentID, storage: DocumentStorage) {}
}

final class AccountCoordinator {
    func didLogOut() {}
}

protocol SessionType: AnyObject, Sendable {
    var user: String { get }
}

protocol Analytics {
    func track(_ event: String)
}

struct NetworkAssembly: Assembly {
    func assemble(into store: DependencyStore) {}
}
struct SessionAssembly: Assembly {
    let user: User
    func assemble(into store: DependencyStore) {}
}

final class PriceViewModel {
    @Injected var fetcher: PriceFetching
}

final class Database {}

let store = DependencyStore()
let live = DependencyStore()

final class Connection: Closable {
    func close() {}
}
final class Model {
    @Injected var connection: Connection
}
