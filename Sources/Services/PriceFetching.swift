import Foundation

/// The spot price of Bitcoin in a currency.
public protocol PriceFetching: Sendable {
    /// The current price of one bitcoin in `currency` (an ISO 4217 code such as `USD`).
    ///
    /// - Throws: ``PriceError``: the network failed, or the response is not a valid price in
    ///   `currency`.
    func spotPrice(in currency: String) async throws(PriceError) -> SpotPrice
}
