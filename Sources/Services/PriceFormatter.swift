import Foundation

/// Shows an amount of money the way a reader of a locale expects it.
public protocol PriceFormatting: Sendable {
    /// `$15,840.01` for 15840.01 USD in the `en_US` locale.
    func format(_ amount: Decimal, currency: String) -> String
}

/// The live formatter: the locale's currency format, with its grouping, decimal separator and
/// symbol (or the ISO code, for a currency the locale has no symbol for).
public struct LivePriceFormatter: PriceFormatting {
    public let locale: Locale

    /// - Parameter locale: Whose conventions to follow; `en_US` by default, so the output is the
    ///   same on every machine unless you ask for another.
    public init(locale: Locale = Locale(identifier: "en_US")) {
        self.locale = locale
    }

    public func format(_ amount: Decimal, currency: String) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .currency
        formatter.currencyCode = currency.uppercased()
        formatter.minimumFractionDigits = 2
        formatter.maximumFractionDigits = 2
        return formatter.string(from: NSDecimalNumber(decimal: amount)) ?? "\(amount) \(currency.uppercased())"
    }
}
