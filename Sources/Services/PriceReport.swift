import DependencyStore
import Foundation

/// What `access-token-cli` prints: the access token and the current price, built only from what
/// the store provides.
///
/// ```swift
/// DependencyStore.shared.registerAll()
/// let report = try await PriceReport().make(currency: "USD")
/// print(report.formattedPrice)   // $15,840.01
/// ```
public struct PriceReport: Sendable {
    @Injected private var tokens: AccessTokenServiceType
    @Injected private var prices: PriceFetching
    @Injected private var formatter: PriceFormatting

    /// Binds to the current store.
    public init() {}

    /// The token and the price in `currency`.
    ///
    /// - Throws: ``ReportError``: no token, or no valid price.
    public func make(currency: String) async throws(ReportError) -> Report {
        let token: AccessToken
        do {
            token = try tokens.accessToken()
        } catch {
            throw .token(error)
        }
        let price: SpotPrice
        do {
            price = try await prices.spotPrice(in: currency)
        } catch {
            throw .price(error)
        }
        return Report(
            token: token, price: price, formattedPrice: formatter.format(price.amount, currency: price.currency))
    }
}

/// A finished report.
public struct Report: Sendable, Equatable {
    public let token: AccessToken
    public let price: SpotPrice
    /// `$15,840.01`.
    public let formattedPrice: String
}

/// Why a report could not be made; its description is one line naming the cause.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    case token(AccessTokenError)
    case price(PriceError)

    public var description: String {
        switch self {
        case .token(let error): error.description
        case .price(let error): error.description
        }
    }
}
