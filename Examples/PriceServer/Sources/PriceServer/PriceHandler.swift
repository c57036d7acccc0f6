import Hummingbird
import Services

/// What `GET /price` answers: the same code for the server wired through the store and for its
/// hand-wired twin, which differ only in how they fill these properties.
public struct PriceHandler: Sendable {
    // App-wide: the same for every request.
    public let prices: any PriceFetching
    public let formatter: any PriceFormatting
    public let mode: ServerMode
    // Request values.
    public let currency: Currency
    public let requestID: RequestIdentifier

    public init(
        prices: any PriceFetching, formatter: any PriceFormatting, mode: ServerMode, currency: Currency,
        requestID: RequestIdentifier
    ) {
        self.prices = prices
        self.formatter = formatter
        self.mode = mode
        self.currency = currency
        self.requestID = requestID
    }

    /// The price of one bitcoin in the requested currency.
    ///
    /// - Throws: ``APIError``: 400 for a currency the demo's sample is not in, 502 when the price
    ///   service fails or answers with something that is not a price.
    public func respond() async throws(APIError) -> PriceBody {
        if mode == .demo && currency.code != ServerMode.sampleCurrency {
            throw .badRequest(
                "the server runs with --demo, whose sample price is in \(ServerMode.sampleCurrency) only, "
                    + "not \(currency.code); ask for currency=\(ServerMode.sampleCurrency)")
        }
        let price: SpotPrice
        do {
            price = try await prices.spotPrice(in: currency.code)
        } catch {
            throw APIError(status: .badGateway, message: "no price: \(error)")
        }
        return PriceBody(
            pair: price.pair, base: price.base, currency: price.currency, amount: price.amountText,
            formatted: formatter.format(price.amount, currency: price.currency), source: mode.priceSource,
            requestID: requestID.description)
    }
}

/// `{"pair":"BTC-USD","base":"BTC","currency":"USD","amount":"15840.01","formatted":"$15,840.01",
/// "source":"sample","requestID":"..."}`: the keys of `access-token-cli --json`, less the token.
public struct PriceBody: ResponseEncodable, Equatable, Sendable {
    public let pair: String
    public let base: String
    public let currency: String
    /// As the price service wrote it, digit for digit.
    public let amount: String
    public let formatted: String
    /// `sample` in demo mode, else `live`.
    public let source: String
    public let requestID: String
}
