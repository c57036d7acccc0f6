/// The currency a request asked for: a request value, registered in the request's store by the
/// `GET /price` route.
public struct Currency: Sendable, Equatable, CustomStringConvertible {
    /// What `GET /price` answers in when the request names no currency.
    public static let `default` = Currency(checkedCode: "USD")

    /// The ISO 4217 code, upper case: `USD`.
    public let code: String

    /// Reads the `currency` query parameter: three ASCII letters, in any case.
    ///
    /// - Throws: ``APIError`` (400) naming what was given and what is expected.
    public init(parsing text: String) throws(APIError) {
        guard text.count == 3, text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw .badRequest(
                "currency must be a three-letter ISO 4217 code such as USD or EUR, not \(APIError.quoted(text))")
        }
        self.init(checkedCode: text.uppercased())
    }

    private init(checkedCode: String) {
        code = checkedCode
    }

    public var description: String { code }
}
