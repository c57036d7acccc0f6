import DependencyStore
import Foundation
import Hummingbird

/// The request context of both servers: Hummingbird's, plus the request's store, which
/// ``RequestStoreMiddleware`` sets (the hand-wired twin leaves it `nil`).
public struct PriceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's store, layered over the app's; `nil` until the middleware has run.
    public var requestStore: DependencyStore?

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Bodies with their keys in order and `/` as it is, so that they read the same every time.
    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The request's store.
    ///
    /// - Throws: ``APIError`` (500) when the router has no ``RequestStoreMiddleware`` in front of
    ///   the route: a fault of the server's set-up, which the body names.
    public func store() throws(APIError) -> DependencyStore {
        guard let requestStore else {
            throw APIError(
                status: .internalServerError,
                message: "this route has no request store: add RequestStoreMiddleware to the router before the route")
        }
        return requestStore
    }
}
