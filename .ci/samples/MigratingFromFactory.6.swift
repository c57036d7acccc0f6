// The app types Docs/MigratingFromFactory.md assumes, and what its "After" block declares, which
// the test block uses.
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

// The "After" block.
extension Scope {
    static let session = Scope("session")
}

extension DependencyStore {
    func registerAll() {
        register(Networking.self, scope: .singleton) { _ in URLSessionNetworking() }
        register(TokenStore.self, scope: .session) { _ in KeychainTokenStore() }
        register(AccountLoading.self) { store in
            AccountClient(networking: store.resolve(), tokens: store.resolve())
        }
    }
}

@MainActor
final class AccountViewModel {
    @Injected private var loader: AccountLoading
    private(set) var name = ""

    func load() async {
        name = (try? await loader.userName()) ?? "unknown"
    }

    func logOut() {
        DependencyStore.shared.reset(.session)
    }
}
