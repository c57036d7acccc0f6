import Foundation

/// The spot price of one unit of `base` in `currency`: `BTC` in `USD`, say.
public struct SpotPrice: Sendable, Equatable {
    public let base: String
    public let currency: String
    /// Kept as a decimal, never a binary floating-point number, so `15840.01` stays exactly that.
    public let amount: Decimal
    /// The amount as the response wrote it, digit for digit: `15840.10` stays `15840.10`.
    public let amountText: String

    /// - Parameters:
    ///   - amountText: The amount as written; by default the shortest form of `amount`.
    public init(base: String, currency: String, amount: Decimal, amountText: String? = nil) {
        self.base = base
        self.currency = currency
        self.amount = amount
        self.amountText = amountText ?? amount.description
    }

    /// `BTC-USD`.
    public var pair: String { "\(base)-\(currency)" }
}

/// Why a spot price could not be had. Each description is one line, safe to show on a terminal:
/// what the server sent is quoted with its control characters escaped and cut to a readable
/// length.
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
    /// The amount has more significant digits than a `Decimal` holds (38 or so), or is too small
    /// to hold: it cannot be shown exactly.
    case inexactAmount(String)
    /// The response prices another asset than the one asked for.
    case unexpectedBase(expected: String, received: String)
    /// The response is for another currency than the one asked for.
    case unexpectedCurrency(expected: String, received: String)

    public var description: String {
        switch self {
        case .network(let error):
            error.description
        case .malformedResponse(let reason):
            "the spot-price response is not valid: \(reason)"
        case .missingField(let path):
            "the spot-price response has no '\(path.terminalSafe())' field"
        case .invalidAmount(let amount):
            "the spot-price response's amount '\(amount.terminalSafe())' is not a decimal number"
        case .negativeAmount(let amount):
            "the spot-price response's amount \(amount.terminalSafe()) is negative"
        case .inexactAmount(let amount):
            "the spot-price response's amount \(amount.terminalSafe()) has more digits than can be held exactly"
        case .unexpectedBase(let expected, let received):
            "asked for the price of \(expected) but the response is for '\(received.terminalSafe())'"
        case .unexpectedCurrency(let expected, let received):
            "asked for a price in \(expected) but the response is in '\(received.terminalSafe())'"
        }
    }
}

/// Reads a spot-price response, `{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}`.
public protocol SpotPriceDecoding: Sendable {
    /// The price in the response, which must be for Bitcoin in `currency`.
    func decode(_ data: Data, expecting currency: String) throws(PriceError) -> SpotPrice
}

/// The live decoder for Coinbase's `GET /v2/prices/spot` response.
///
/// It trusts nothing the server sends: the base must be `BTC` and the currency the one asked for
/// (compared without regard to case), and the price then carries the codes as asked, never the
/// server's spelling. The amount must be plain decimal digits that a `Decimal` holds exactly.
public struct CoinbaseSpotPriceDecoder: SpotPriceDecoding {
    /// What every price is of.
    public static let base = "BTC"

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
            throw .malformedResponse(
                "'\(context.codingPath.map(\.stringValue).joined(separator: ".").terminalSafe())' has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .missingField(context.codingPath.map(\.stringValue).joined(separator: "."))
        } catch {
            throw .malformedResponse("it is not JSON")
        }
        let payload = response.data
        let expected = currency.uppercased()
        guard Self.sameCode(payload.base, Self.base) else {
            throw .unexpectedBase(expected: Self.base, received: payload.base)
        }
        guard Self.sameCode(payload.currency, expected) else {
            throw .unexpectedCurrency(expected: expected, received: payload.currency)
        }
        return SpotPrice(
            base: Self.base, currency: expected, amount: try Self.amount(payload.amount), amountText: payload.amount)
    }

    /// `usd` is `USD`; `uſd` is not (Swift upper-cases `ſ` to `S`).
    private static func sameCode(_ received: String, _ expected: String) -> Bool {
        received.unicodeScalars.allSatisfy(\.isASCII) && received.uppercased() == expected
    }

    /// The amount as a `Decimal` that holds it exactly: `Decimal(string:)` alone accepts `"12abc"`
    /// as 12 and rounds a 40-digit amount without a word.
    private static func amount(_ text: String) throws(PriceError) -> Decimal {
        if text.hasPrefix("-"), DecimalDigits(text.dropFirst()) != nil {
            throw .negativeAmount(text)
        }
        guard let digits = DecimalDigits(text) else {
            throw .invalidAmount(text)
        }
        let canonical = digits.canonical
        // Exact when the decimal writes back the very digits it was read from.
        guard let value = Decimal(string: canonical, locale: Locale(identifier: "en_US_POSIX")),
            value.description == canonical
        else {
            throw .inexactAmount(text)
        }
        return value
    }
}
