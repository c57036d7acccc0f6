// The app types Docs/Closing.md assumes: a socket to a chat server, and the signed-in user. Blocks
// 2 and 4 have preludes of their own.
import DependencyStore
import Foundation
import Testing

struct User: Sendable {}

final class Socket: Sendable {
    init(host: String, user: User = User()) {}
    func send(_ message: String) async throws {}
    func disconnect() {}
}
