import Foundation

/// Shows an amount of money the way a reader of a locale expects it.
public protocol PriceFormatting: Sendable {
    /// `$15,840.01` for 15840.01 USD in the `en_US` locale.
    func format(_ amount: Decimal, currency: String) -> String
}

/// The live formatter: the locale's currency format, with its grouping, decimal separator and
/// symbol (or the ISO code, for a currency the locale has no symbol for), to two decimal places,
/// rounded half to even.
///
/// Every digit shown is the amount's own: the digits are grouped and rounded as text, never
/// through `Double` (which `NumberFormatter` uses on Linux, where `9007199254740993` comes out as
/// `…992`). `NumberFormatter` only shows, on a sample number, where the locale puts the symbol,
/// the separators and the groups.
public struct LivePriceFormatter: PriceFormatting {
    public let locale: Locale

    /// - Parameter locale: Whose conventions to follow; `en_US` by default, so the output is the
    ///   same on every machine unless you ask for another.
    public init(locale: Locale = Locale(identifier: "en_US")) {
        self.locale = locale
    }

    public func format(_ amount: Decimal, currency: String) -> String {
        let code = currency.uppercased()
        let text = amount.description
        let negative = text.hasPrefix("-")
        guard let digits = DecimalDigits(negative ? text.dropFirst() : Substring(text)),
            let layout = CurrencyLayout(locale: locale, currency: code, negative: negative)
        else {
            return "\(text) \(code)"
        }
        return layout.format(digits.rounded(toPlaces: CurrencyLayout.fractionDigits))
    }
}

/// Where a locale puts the parts of a currency amount, read off `NumberFormatter`'s output for a
/// sample number: `$` `1,234,567` `.` `89` in en_US, `1.234.567` `,` `89` ` €` in de_DE.
struct CurrencyLayout {
    static let fractionDigits = 2
    /// Every digit differs from its neighbours, so each group and separator can be found.
    private static let sample = 1_234_567.89
    /// Four integer digits: grouped by most locales, not by those with a minimum grouping of two.
    private static let shortSample = 1_234.5

    var prefix: String
    var suffix: String
    var decimalSeparator: String
    var groupingSeparator: String
    /// The rightmost group's size (3), and every other group's (3; 2 where lakh grouping is used);
    /// 0 for a locale that does not group.
    var primaryGroup: Int
    var secondaryGroup: Int
    /// Whether a four-digit integer part is grouped.
    var groupsFourDigits: Bool
    /// The locale's digits, zero to nine.
    var digits: [String]

    init?(locale: Locale, currency: String, negative: Bool) {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        formatter.minimumFractionDigits = Self.fractionDigits
        formatter.maximumFractionDigits = Self.fractionDigits
        let plain = NumberFormatter()
        plain.locale = locale
        let sign = negative ? -1.0 : 1.0
        let glyphs = (0...9).compactMap { plain.string(from: NSNumber(value: $0)) }
        guard glyphs.count == 10, glyphs.allSatisfy({ $0.count == 1 }),
            let sample = formatter.string(from: NSNumber(value: sign * Self.sample)),
            let short = formatter.string(from: NSNumber(value: sign * Self.shortSample))
        else { return nil }
        let isDigit = { (character: Character) in glyphs.contains(String(character)) }
        guard let number = Self.parts(of: sample, isDigit: isDigit),
            number.runs.last == Self.fractionDigits, let decimalSeparator = number.separators.last,
            Set(number.separators.dropLast()).count <= 1
        else { return nil }
        let integerRuns = number.runs.dropLast()
        prefix = number.prefix
        suffix = number.suffix
        self.decimalSeparator = decimalSeparator
        groupingSeparator = number.separators.dropLast().first ?? ""
        primaryGroup = integerRuns.count > 1 ? integerRuns.last! : 0
        secondaryGroup = integerRuns.count > 2 ? integerRuns[integerRuns.count - 2] : primaryGroup
        groupsFourDigits = (Self.parts(of: short, isDigit: isDigit)?.runs.count ?? 0) > 2
        digits = glyphs
    }

    /// `$1,234,567.89` as its prefix (`$`), suffix (none), the lengths of its runs of digits
    /// ([1, 3, 3, 2]) and the separators between them ([`,`, `,`, `.`]).
    private static func parts(
        of text: String,
        isDigit: (Character) -> Bool
    ) -> (prefix: String, suffix: String, runs: [Int], separators: [String])? {
        let characters = Array(text)
        guard let first = characters.firstIndex(where: isDigit),
            let last = characters.lastIndex(where: isDigit)
        else { return nil }
        var runs: [Int] = [0]
        var separators: [String] = []
        for character in characters[first...last] {
            if isDigit(character) {
                runs[runs.count - 1] += 1
            } else if runs.last == 0 {
                separators[separators.count - 1].append(character)
            } else {
                separators.append(String(character))
                runs.append(0)
            }
        }
        return (String(characters[..<first]), String(characters[(last + 1)...]), runs, separators)
    }

    func format(_ amount: DecimalDigits) -> String {
        let integer = amount.integer.isEmpty ? [0] : amount.integer
        var groups: [ArraySlice<UInt8>] = []
        let grouped =
            primaryGroup > 0 && integer.count > primaryGroup
            && (groupsFourDigits || integer.count > primaryGroup + 1)
        if grouped {
            var end = integer.count
            var size = primaryGroup
            while end > 0 {
                groups.insert(integer[max(0, end - size)..<end], at: 0)
                end -= size
                size = secondaryGroup
            }
        } else {
            groups = [integer[...]]
        }
        let show = { (part: ArraySlice<UInt8>) in part.map { digits[Int($0)] }.joined() }
        let number =
            groups.map(show).joined(separator: groupingSeparator)
            + decimalSeparator + show(amount.fraction[...])
        return prefix + number + suffix
    }
}
