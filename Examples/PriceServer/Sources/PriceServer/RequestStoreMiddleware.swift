import DependencyStore
import Hummingbird

/// Gives each request a store of its own, layered over the app's, with the request's id in it.
///
/// What the app's store registers (the services, filled once at start-up) is found through the
/// request's store; what a request registers (its id here, its currency in the `GET /price`
/// route) stays in its own store, so no request sees another's values, and no app-wide service is
/// handed a request value. The store goes when the request does.
public struct RequestStoreMiddleware: RouterMiddleware {
    public typealias Context = PriceRequestContext

    /// The app's store, filled at start-up.
    let app: DependencyStore

    public init(app: DependencyStore) {
        self.app = app
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let store = DependencyStore(parent: app)
        store.provide(RequestIdentifier(context.id), for: RequestIdentifier.self)
        var context = context
        context.requestStore = store
        return try await next(request, context)
    }
}
