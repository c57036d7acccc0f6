/// A non-negative decimal number as its digits, `15840.01`: what a price is parsed into and
/// formatted from, so that no amount ever passes through binary floating point. The CLI reads
/// `--timeout` with it too, so that only plain decimals are accepted there.
package struct DecimalDigits: Equatable {
    /// The digits before the point, most significant first, without leading zeros (`[]` for 0).
    var integer: [UInt8]
    /// The digits after the point, as written (trailing zeros kept).
    var fraction: [UInt8]

    /// Digits with at most one decimal point, nothing else: `12`, `0.5`, `15840.01`. Signs,
    /// exponents, spaces, `.5` and `5.` are not accepted.
    package init?(_ text: some StringProtocol) {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        integer = Array(parts[0].map { $0 - 0x30 }.drop { $0 == 0 })
        fraction = parts.count == 2 ? parts[1].map { $0 - 0x30 } : []
    }

    init(integer: [UInt8], fraction: [UInt8]) {
        self.integer = Array(integer.drop { $0 == 0 })
        self.fraction = fraction
    }

    /// The shortest form: `15840.1` for `015840.10`, `0` for `0.00`. `Decimal`'s description
    /// writes a value it holds exactly in just this form.
    var canonical: String {
        let integerText = integer.isEmpty ? "0" : String(decoding: integer.map { $0 + 0x30 }, as: UTF8.self)
        let significantFraction = fraction.reversed().drop { $0 == 0 }.reversed()
        guard !significantFraction.isEmpty else { return integerText }
        return integerText + "." + String(decoding: significantFraction.map { $0 + 0x30 }, as: UTF8.self)
    }

    /// Rounded to `places` digits after the point, half to even (as `NumberFormatter` rounds),
    /// and padded with zeros to exactly that many.
    func rounded(toPlaces places: Int) -> DecimalDigits {
        guard fraction.count > places else {
            return DecimalDigits(
                integer: integer, fraction: fraction + Array(repeating: 0, count: places - fraction.count))
        }
        var digits = integer + fraction[..<places]
        let dropped = fraction[places...]
        let first = dropped.first!
        let beyondHalf = dropped.dropFirst().contains { $0 != 0 }
        let lastKeptIsOdd = (digits.last ?? 0) % 2 == 1
        let roundUp = first > 5 || (first == 5 && (beyondHalf || lastKeptIsOdd))
        if roundUp {
            var index = digits.count - 1
            while index >= 0 && digits[index] == 9 {
                digits[index] = 0
                index -= 1
            }
            if index >= 0 {
                digits[index] += 1
            } else {
                digits.insert(1, at: 0)
            }
        }
        let integerCount = digits.count - places
        return DecimalDigits(integer: Array(digits[..<integerCount]), fraction: Array(digits[integerCount...]))
    }
}
