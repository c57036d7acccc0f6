import DependencyStore
import Hummingbird
import Services

/// The server wired through the store: the app's store is filled once at start-up, each request
/// gets a store of its own over it (``RequestStoreMiddleware``), and each handler runs inside its
/// request's store.
public enum StoreWiredServer {
    /// The app's store: the services of `Services` (demo or live, as `configuration` says) and the
    /// server's mode, registered once. App-wide values only: a request's values go in its own store.
    public static func appStore(_ configuration: ServicesConfiguration) -> DependencyStore {
        let app = DependencyStore()
        app.registerAll(configuration)
        app.register(configuration.demo ? ServerMode.demo : .live, for: ServerMode.self)
        return app
    }

    /// `GET /price?currency=CODE` and `GET /token`, answered from `app` through a store per request.
    public static func router(app: DependencyStore) -> Router<PriceRequestContext> {
        let router = Router(context: PriceRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: RequestStoreMiddleware(app: app))
        router.get("price") { request, context in
            let currency = try request.requestedCurrency()
            let store = try context.store()
            store.provide(currency, for: Currency.self)
            return try await store.execute { try await InjectedPriceHandler().respond() }
        }
        router.get("token") { request, context in
            _ = try request.queryParameters(taking: [])
            return try context.store().execute { try InjectedTokenHandler().respond() }
        }
        return router
    }
}
