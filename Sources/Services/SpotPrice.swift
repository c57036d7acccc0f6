import Foundation

/// The spot price of one unit of `base` in `currency`: `BTC` in `USD`, say.
public struct SpotPrice: Sendable, Equatable {
    public let base: String
    public let currency: String
    /// Kept as a decimal, never a binary floating-point number, so `15840.01` stays exactly that.
    public let amount: Decimal

    public init(base: String, currency: String, amount: Decimal) {
        self.base = base
        self.currency = currency
        self.amount = amount
    }

    /// `BTC-USD`.
    public var pair: String { "\(base)-\(currency)" }
}

/// Why a spot price could not be had.
public enum PriceError: Error, Equatable, CustomStringConvertible {
    /// The request failed.
    case network(NetworkError)
    /// The response is not JSON, or not shaped like a spot-price response.
    case malformedResponse(String)
    /// A field the response must have is missing.
    case missingField(String)
    /// The amount is not a decimal number.
    case invalidAmount(String)
    /// The amount is below zero.
    case negativeAmount(String)
    /// The response is for another currency than the one asked for.
    case unexpectedCurrency(expected: String, received: String)

    public var description: String {
        switch self {
        case .network(let error):
            error.description
        case .malformedResponse(let reason):
            "the spot-price response is not valid: \(reason)"
        case .missingField(let path):
            "the spot-price response has no '\(path)' field"
        case .invalidAmount(let amount):
            "the spot-price response's amount '\(amount)' is not a decimal number"
        case .negativeAmount(let amount):
            "the spot-price response's amount \(amount) is negative"
        case .unexpectedCurrency(let expected, let received):
            "asked for a price in \(expected) but the response is in \(received)"
        }
    }
}

/// Reads a spot-price response, `{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}`.
public protocol SpotPriceDecoding: Sendable {
    /// The price in the response, which must be in `currency`.
    func decode(_ data: Data, expecting currency: String) throws(PriceError) -> SpotPrice
}

/// The live decoder for Coinbase's `GET /v2/prices/spot` response.
public struct CoinbaseSpotPriceDecoder: SpotPriceDecoding {
    public init() {}

    private struct Response: Decodable {
        struct Payload: Decodable {
            let base: String
            let currency: String
            let amount: String
        }

        let data: Payload
    }

    public func decode(_ data: Data, expecting currency: String) throws(PriceError) -> SpotPrice {
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .missingField((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformedResponse("'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .missingField(context.codingPath.map(\.stringValue).joined(separator: "."))
        } catch {
            throw .malformedResponse("it is not JSON")
        }
        let payload = response.data
        guard payload.currency.uppercased() == currency.uppercased() else {
            throw .unexpectedCurrency(expected: currency.uppercased(), received: payload.currency)
        }
        return SpotPrice(base: payload.base, currency: payload.currency, amount: try Self.amount(payload.amount))
    }

    /// Digits with at most one decimal point, nothing else: `Decimal(string:)` alone accepts
    /// `"12abc"` as 12.
    private static func amount(_ text: String) throws(PriceError) -> Decimal {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        let wellFormed = (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard wellFormed, let value = Decimal(string: String(digits), locale: Locale(identifier: "en_US_POSIX")) else {
            throw .invalidAmount(text)
        }
        if negative && value != 0 { throw .negativeAmount(text) }
        return value
    }
}
