// The app's socket and upload queue that Closable and AsyncClosable's samples close, and the
// session scope they register in.
final class Socket {
    init(host: String) {}
    func disconnect() {}
}

final class PendingUploads {
    func send() async throws {}
}

extension Scope { static let session = Scope("session") }
