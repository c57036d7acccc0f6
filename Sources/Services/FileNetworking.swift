import Foundation

/// Serves a saved response from a file instead of the network, for offline runs
/// (`access-token-cli --price-file`).
///
/// Only a regular file (or a link to one) no larger than the endpoint's `maxResponseBytes` is
/// read; a directory, FIFO or device is refused by name without being opened.
public struct FileNetworking: Networking {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func data(for endpoint: Endpoint) async throws(NetworkError) -> Data {
        do {
            return try RegularFile(path: path, limit: endpoint.maxResponseBytes).contents
        } catch .tooLarge(let limit) {
            throw .fileUnreadable(
                path: path, reason: "it is larger than \(limit) bytes, the most a price response may be")
        } catch {
            throw .fileUnreadable(path: path, reason: error.description)
        }
    }
}
