import Hummingbird
import Services

/// What `GET /token` answers: the access token, masked. The same code for both wirings, as
/// ``PriceHandler`` is.
public struct TokenHandler: Sendable {
    // App-wide.
    public let tokens: any AccessTokenServiceType
    public let mode: ServerMode
    // A request value.
    public let requestID: RequestIdentifier

    public init(tokens: any AccessTokenServiceType, mode: ServerMode, requestID: RequestIdentifier) {
        self.tokens = tokens
        self.mode = mode
        self.requestID = requestID
    }

    /// The token with its middle hidden (`sk-d…f9c2`): never the whole token.
    ///
    /// - Throws: ``APIError`` (503) when the server has no usable token; the message says why
    ///   and never quotes the token.
    public func respond() throws(APIError) -> TokenBody {
        do {
            let token = try tokens.accessToken()
            return TokenBody(token: token.masked, source: mode.tokenSource, requestID: requestID.description)
        } catch {
            throw APIError(status: .serviceUnavailable, message: "the server has no usable access token: \(error)")
        }
    }
}

/// `{"token":"sk-d…f9c2","source":"demo","requestID":"..."}`.
public struct TokenBody: ResponseEncodable, Equatable, Sendable {
    /// Masked: enough to tell two tokens apart, not enough to use one.
    public let token: String
    /// `demo` in demo mode, else `live`.
    public let source: String
    public let requestID: String
}
