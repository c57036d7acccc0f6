// The app types Docs/MigratingFromFactory.md assumes: its small app's protocols, live services and
// mock, as a reader of the guide would already have them.
import DependencyStore
import Testing

protocol Networking: Sendable {
    func get(_ path: String) async throws -> String
}

struct URLSessionNetworking: Networking {
    func get(_ path: String) async throws -> String { "" }
}

struct MockNetworking: Networking {
    let reply: String
    func get(_ path: String) async throws -> String { reply }
}

protocol TokenStore: AnyObject, Sendable {
    var token: String? { get }
}

final class KeychainTokenStore: TokenStore {
    var token: String? { nil }
}

protocol AccountLoading: Sendable {
    func userName() async throws -> String
}

struct AccountClient: AccountLoading {
    let networking: Networking
    let tokens: TokenStore

    func userName() async throws -> String {
        try await networking.get("/me?token=\(tokens.token ?? "")")
    }
}

final class OrderDetail {
    let id: Int
    init(id: Int, client: AccountLoading) { self.id = id }
}

final class AccessToken: Sendable {
    static func fetch() -> AccessToken { AccessToken() }
}
