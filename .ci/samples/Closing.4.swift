// The test of the seed's logout uses the session the block before it wires.
import DependencyStore
import Foundation
import Testing

extension Scope {
    static let session = Scope("session")
}

struct User: Sendable {}

final class Socket: Sendable {
    init(host: String, user: User = User()) {}
    func send(_ message: String) async throws {}
    func disconnect() {}
}

final class ChatConnection: AsyncClosable {
    let socket: Socket
    init(user: User) { socket = Socket(host: "chat.example.com", user: user) }
    func close() async throws { socket.disconnect() }
}

final class Drafts: Closable {
    let connection: ChatConnection
    init(connection: ChatConnection) { self.connection = connection }
    func close() throws {}
}

struct SessionAssembly: Assembly {
    let user: User

    func assemble(into store: DependencyStore) {
        store.register(ChatConnection.self, scope: .session) { [user] _ in ChatConnection(user: user) }
        store.register(Drafts.self, scope: .session) { store in Drafts(connection: store.resolve()) }
    }
}
