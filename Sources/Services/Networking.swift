import Foundation

/// A request the app makes: where to, how long it may take in all, and how much it may read.
public struct Endpoint: Sendable, Equatable {
    public var url: URL
    /// The deadline for the whole request, from start to the last byte, in seconds.
    public var timeout: TimeInterval
    /// The largest response body accepted, in bytes (after any decompression); a larger one is
    /// refused while it streams in.
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

/// Why a request produced no body. Each description is one line, safe to show on a terminal.
public enum NetworkError: Error, Equatable, CustomStringConvertible {
    /// The host could not be reached (no network, unknown host, connection refused); when a
    /// redirect led there, `redirectedFrom` is the URL that sent it.
    case unreachable(url: URL, reason: String, redirectedFrom: URL? = nil)
    /// The whole request took longer than its deadline.
    case timedOut(url: URL, after: TimeInterval)
    /// The server answered with a status outside 200–299.
    case httpStatus(Int, url: URL)
    /// The body was larger than the endpoint allows.
    case responseTooLarge(url: URL, limit: Int)
    /// The server redirected somewhere the request may not follow.
    case redirectRefused(from: URL, to: String, reason: RedirectRefusal)
    /// A local file standing in for the network could not be read.
    case fileUnreadable(path: String, reason: String)
    /// Any other transport failure.
    case transport(url: URL, reason: String)

    /// Why a redirect is not followed.
    public enum RedirectRefusal: Sendable, Equatable {
        /// To a scheme other than http and https (`file:`, `ftp:`, ...).
        case notHTTP
        /// From https to plain http.
        case insecure
    }

    public var description: String {
        switch self {
        case .unreachable(let url, let reason, let from):
            let redirect = from.map { " (where \($0.absoluteString.terminalSafe()) redirected)" } ?? ""
            return "cannot reach \(url.hostAndPort.terminalSafe())\(redirect): \(reason)"
        case .timedOut(let url, let after):
            return "no complete response from \(url.absoluteString.terminalSafe()) within \(after.formatted) seconds "
                + "(use --timeout to allow longer)"
        case .httpStatus(let status, let url):
            return "the server answered HTTP \(status) for \(url.absoluteString.terminalSafe())"
        case .responseTooLarge(let url, let limit):
            return
                "the response from \(url.absoluteString.terminalSafe()) is larger than \(limit) bytes, so it was refused"
        case .redirectRefused(let from, let to, .notHTTP):
            return "\(from.absoluteString.terminalSafe()) redirected to \(to.terminalSafe()), which is not an http or "
                + "https URL, so the redirect was not followed"
        case .redirectRefused(let from, let to, .insecure):
            return
                "\(from.absoluteString.terminalSafe()) redirected to \(to.terminalSafe()), from https to plain http, "
                + "so the redirect was not followed"
        case .fileUnreadable(let path, let reason):
            return "cannot read \(path.terminalSafe()): \(reason)"
        case .transport(let url, let reason):
            return "the request to \(url.absoluteString.terminalSafe()) failed: \(reason)"
        }
    }
}

extension URL {
    /// `api.coinbase.com`, or `127.0.0.1:8080` when the URL names a port.
    var hostAndPort: String {
        guard let host else { return absoluteString }
        return port.map { "\(host):\($0)" } ?? host
    }
}

extension TimeInterval {
    /// `2`, `0.5`: how a user writes a number of seconds.
    package var formatted: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
