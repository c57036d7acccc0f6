// The server that "Servers: types provided per request" wires. CI also runs the block, as module
// App with the block as Server.swift, and compares what it prints with the report the guide shows.
import DependencyStore

struct RequestID {
    let value: String
    init(_ value: String) { self.value = value }
}

struct User {
    let name: String
}

final class Database {}

final class OrderHandler {
    init(_ requestID: RequestID, _ user: User, _ database: Database) {}
    func handle() {}
}

final class RequestContext {
    init(_ requestID: RequestID) {}
}

final class AuditLog {
    init(_ context: RequestContext) {}
}
