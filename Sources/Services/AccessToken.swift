/// An access token, which knows how to show itself without giving itself away.
///
/// ```swift
/// let token = AccessToken("sk-1234567890abf9c2")
/// print(token.masked)   // sk-1…f9c2
/// ```
public struct AccessToken: Sendable, Equatable {
    /// The most bytes a token may have: 4096.
    public static let maxLength = 4096

    /// The whole token.
    public let value: String

    /// Wraps `value` as it is; ``problem(with:)`` says whether it is a usable token.
    public init(_ value: String) {
        self.value = value
    }

    /// Why `text` cannot be a token, or `nil` when it can: a token is one line of 1 to
    /// ``maxLength`` printable ASCII characters (space to `~`).
    ///
    /// The reason never quotes the text, which may be a secret: it names a position instead.
    ///
    /// ```swift
    /// AccessToken.problem(with: "sk-1\u{1B}[2J")   // "character 5 is a control character (U+001B)"
    /// ```
    public static func problem(with text: String) -> String? {
        let length = text.utf8.count
        if length == 0 {
            return "it is empty"
        }
        if length > maxLength {
            return "it is \(length) bytes long, more than the \(maxLength) a token may have"
        }
        if text.contains(where: \.isNewline) {
            return "it is more than one line"
        }
        for (offset, scalar) in text.unicodeScalars.enumerated() where !scalar.isPrintableASCII {
            let kind = scalar.properties.generalCategory == .control ? "a control character" : "not printable ASCII"
            let code = String(scalar.value, radix: 16, uppercase: true)
            return
                "character \(offset + 1) is \(kind) (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
        }
        return nil
    }

    /// The token with its middle hidden, `sk-1…f9c2`: enough to tell two tokens apart, not enough
    /// to use one. Tokens shorter than 12 characters are hidden whole, and a character that is not
    /// printable ASCII is shown as `•`, so a masked token never acts on the terminal.
    public var masked: String {
        guard value.count >= 12 else { return String(repeating: "•", count: value.count) }
        func shown(_ part: Substring) -> String {
            String(String.UnicodeScalarView(part.unicodeScalars.map { $0.isPrintableASCII ? $0 : "•" }))
        }
        return "\(shown(value.prefix(4)))…\(shown(value.suffix(4)))"
    }
}

extension Unicode.Scalar {
    /// Space to `~`.
    var isPrintableASCII: Bool {
        (0x20...0x7E).contains(value)
    }
}
