import DependencyStore
import Hummingbird

/// A failure the server answers with a JSON body instead of an empty one:
/// `{"status":400,"error":"...","requestID":"..."}`, and `diagnostic` with the store's whole
/// message when a dependency could not be resolved.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    /// One line: what went wrong, and what to send instead when the client can fix it.
    public let message: String
    /// The store's diagnostic, several lines, for a dependency that could not be resolved.
    public let diagnostic: String?

    public init(status: HTTPResponse.Status, message: String, diagnostic: String? = nil) {
        self.status = status
        self.message = message
        self.diagnostic = diagnostic
    }

    /// A request the client can fix: 400, with a message that says how.
    public static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, message: message)
    }

    /// A dependency missing from the wiring, or failing to resolve: a fault of the server, not of
    /// the request. The body carries the store's diagnostic, so the wiring can be mended from it.
    public static func unresolved(_ error: ResolutionError) -> APIError {
        APIError(
            status: .internalServerError,
            message: "the server could not resolve \(error.typeName) (\(error.kind)); see diagnostic",
            diagnostic: error.description)
    }

    /// `'text'`, cut to a readable length: how a message shows what a client sent. The JSON
    /// encoder escapes what needs escaping.
    static func quoted(_ text: some StringProtocol) -> String {
        let limit = 40
        return text.count <= limit ? "'\(text)'" : "'\(text.prefix(limit))…' (\(text.count) characters)"
    }

    public var description: String {
        "\(status.code) \(message)" + (diagnostic.map { "\n\($0)" } ?? "")
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(status: Int(status.code), error: message, diagnostic: diagnostic, requestID: context.id)
        return try EditedResponse(status: status, response: body).response(from: request, context: context)
    }

    private struct Body: ResponseEncodable {
        let status: Int
        let error: String
        let diagnostic: String?
        let requestID: String
    }
}

extension Injected {
    /// The value, or a 500 that carries the store's diagnostic: a handler's way to read an
    /// `@Injected` property without ending the process when the wiring is wrong.
    func valueOrServerError() throws(APIError) -> T {
        do {
            return try tryValue()
        } catch {
            throw .unresolved(error)
        }
    }
}
