// The app types whose registrations say how they close.
final class Database {
    init(path: String) {}
    func disconnect() {}
}

final class UploadQueue: Sendable {
    func flush() async throws {}
}
