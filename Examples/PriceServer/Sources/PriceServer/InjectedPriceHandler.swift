import DependencyStore
import Services

/// ``PriceHandler`` filled from the current store: made inside the request store's `execute`, its
/// properties bind to the request's store, which finds the services in the app's store and the
/// currency and the request id in its own.
///
/// Each is read with `tryValue()`, so a dependency missing from the wiring is a 500 whose body
/// carries the store's diagnostic, not a trap that ends the server.
struct InjectedPriceHandler: Sendable {
    @Injected private var prices: any PriceFetching
    @Injected private var formatter: any PriceFormatting
    @Injected private var mode: ServerMode
    @Injected private var currency: Currency
    @Injected private var requestID: RequestIdentifier

    func respond() async throws(APIError) -> PriceBody {
        let handler = PriceHandler(
            prices: try $prices.valueOrServerError(),
            formatter: try $formatter.valueOrServerError(),
            mode: try $mode.valueOrServerError(),
            currency: try $currency.valueOrServerError(),
            requestID: try $requestID.valueOrServerError())
        return try await handler.respond()
    }
}
