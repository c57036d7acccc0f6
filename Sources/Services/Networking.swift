import Foundation

/// A request the app makes: where to, how long it may take in all, and how much it may read.
public struct Endpoint: Sendable, Equatable {
    public var url: URL
    /// The deadline for the whole request, from start to the last byte, in seconds.
    public var timeout: TimeInterval
    /// The largest response body accepted, in bytes; a larger one is refused while it streams in.
    public var maxResponseBytes: Int

    public init(url: URL, timeout: TimeInterval = 10, maxResponseBytes: Int = 1 << 20) {
        self.url = url
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }
}

/// Fetches the body of an endpoint. The live implementation is ``URLSessionNetworking``; tests and
/// offline runs register another.
public protocol Networking: Sendable {
    /// The body of a successful (2xx) response.
    ///
    /// - Throws: ``NetworkError`` for every other outcome.
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data
}

/// Why a request produced no body.
public enum NetworkError: Error, Equatable, CustomStringConvertible {
    /// The host could not be reached (no network, unknown host, connection refused).
    case unreachable(url: URL, reason: String)
    /// The whole request took longer than its deadline.
    case timedOut(url: URL, after: TimeInterval)
    /// The server answered with a status outside 200–299.
    case httpStatus(Int, url: URL)
    /// The body was larger than the endpoint allows.
    case responseTooLarge(url: URL, limit: Int)
    /// A local file standing in for the network could not be read.
    case fileUnreadable(path: String, reason: String)
    /// Any other transport failure.
    case transport(url: URL, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let url, let reason):
            "cannot reach \(url.host ?? url.absoluteString): \(reason)"
        case .timedOut(let url, let after):
            "no complete response from \(url.absoluteString) within \(after.formatted) seconds (use --timeout to allow longer)"
        case .httpStatus(let status, let url):
            "the server answered HTTP \(status) for \(url.absoluteString)"
        case .responseTooLarge(let url, let limit):
            "the response from \(url.absoluteString) is larger than \(limit) bytes, so it was refused"
        case .fileUnreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .transport(let url, let reason):
            "the request to \(url.absoluteString) failed: \(reason)"
        }
    }
}

extension TimeInterval {
    /// `2`, `0.5`: how a user writes a number of seconds.
    var formatted: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}

/// Serves a saved response from a file instead of the network, for offline runs
/// (`access-token-cli --price-file`).
public struct FileNetworking: Networking {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func data(for endpoint: Endpoint) async throws(NetworkError) -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > endpoint.maxResponseBytes {
            throw .responseTooLarge(url: URL(fileURLWithPath: path), limit: endpoint.maxResponseBytes)
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? error.localizedDescription : "no such file"
            throw .fileUnreadable(path: path, reason: reason)
        }
    }
}
