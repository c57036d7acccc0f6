import Hummingbird

/// Answers every failure with a JSON body: the router's 404 for a path it has no route for, and
/// any error that is not an ``APIError`` already, which Hummingbird would answer with an empty
/// 500. Added first, so it sees what every later middleware and route throws.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as any HTTPResponseError where error.status == .notFound {
            throw APIError(
                status: .notFound,
                message: "no route for \(request.method) \(APIError.quoted(request.uri.path)): this server answers "
                    + "GET /price?currency=CODE and GET /token")
        } catch let error as any HTTPResponseError {
            throw APIError(status: error.status, message: error.status.reasonPhrase)
        } catch {
            // Not shown to the client, which cannot act on it; the log has it.
            context.logger.error("unexpected error: \(String(reflecting: error))")
            throw APIError(status: .internalServerError, message: "unexpected error; the server's log has it")
        }
    }
}
