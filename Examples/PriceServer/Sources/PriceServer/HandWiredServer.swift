import Foundation
import Hummingbird
import Services

/// The twin of ``StoreWiredServer`` for the load test: the same handlers and the same `Services`
/// objects, built once at start-up and passed by hand. No store per request, no registration, no
/// `execute`, no `@Injected` read: what the store costs per request is the difference between the
/// two.
public enum HandWiredServer {
    /// `GET /price?currency=CODE` and `GET /token`, answered by objects built here.
    public static func router(_ configuration: ServicesConfiguration) -> Router<PriceRequestContext> {
        // What `registerAll` registers, built by hand.
        let tokens: any AccessTokenServiceType
        let networking: any Networking
        if configuration.demo {
            tokens = DemoAccessTokenService()
            networking = SampleNetworking()
        } else {
            tokens = LiveAccessTokenService(environment: configuration.environment, tokenFile: configuration.tokenFile)
            networking =
                if let priceFile = configuration.priceFile {
                    FileNetworking(path: priceFile)
                } else {
                    URLSessionNetworking()
                }
        }
        let prices = HandWiredPriceFetcher(
            networking: networking,
            decoder: CoinbaseSpotPriceDecoder(),
            endpoints: CoinbasePriceFetcher(
                baseURL: configuration.endpoint,
                timeout: configuration.timeout,
                maxResponseBytes: configuration.maxResponseBytes))
        let formatter = LivePriceFormatter(locale: configuration.locale)
        let mode = configuration.demo ? ServerMode.demo : .live

        let router = Router(context: PriceRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.get("price") { request, context in
            let handler = PriceHandler(
                prices: prices, formatter: formatter, mode: mode, currency: try request.requestedCurrency(),
                requestID: RequestIdentifier(context.id))
            return try await handler.respond()
        }
        router.get("token") { request, context in
            _ = try request.queryParameters(taking: [])
            return try TokenHandler(tokens: tokens, mode: mode, requestID: RequestIdentifier(context.id)).respond()
        }
        return router
    }
}

/// `CoinbasePriceFetcher`'s work with its collaborators passed in: the fetcher takes its networking
/// and its decoder only through `@Injected`, so a twin without a store hands them over itself. It
/// asks the fetcher only for the request to make (`endpoint(for:)`, which reads no property of
/// the store); the fetcher's own `@Injected` properties are never read.
struct HandWiredPriceFetcher: PriceFetching {
    let networking: any Networking
    let decoder: any SpotPriceDecoding
    let endpoints: CoinbasePriceFetcher

    func spotPrice(in currency: String) async throws(PriceError) -> SpotPrice {
        let data: Data
        do {
            data = try await networking.data(for: endpoints.endpoint(for: currency))
        } catch {
            throw .network(error)
        }
        return try decoder.decode(data, expecting: currency)
    }
}
