extension String {
    /// This text as it may be shown on a terminal: every control character (C0, DEL, C1),
    /// format character (bidirectional overrides, zero-width marks) and line or paragraph
    /// separator written as a visible escape such as `\u{1B}`, so that text from a server or a
    /// file can neither move the cursor, clear the screen nor start a line of its own.
    ///
    /// Text longer than `limit` characters is cut, and says how long it was: a message quoting a
    /// 60 KB field stays one readable line.
    package func terminalSafe(limit: Int = 80) -> String {
        var result = ""
        var shown = 0
        for scalar in unicodeScalars {
            guard shown < limit else {
                return result + "… (\(unicodeScalars.count) characters in all)"
            }
            result += scalar.isTerminalSafe ? String(scalar) : scalar.escaped
            shown += 1
        }
        return result
    }
}

extension Unicode.Scalar {
    /// Whether a terminal shows this scalar as a character, rather than acting on it.
    var isTerminalSafe: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            false
        default:
            true
        }
    }

    /// `\u{1B}`.
    var escaped: String {
        "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }
}
