// Which registered types a user may have meant instead of the one asked for: the fuzzy matching
// behind the "Registered, and close to what was asked for" lines of a missing registration.

extension Diagnostics {
    /// Registered types that the user may have meant instead of `type`, one sentence each.
    static func closeMatches(to type: Any.Type, among registered: [AnyRegistration]) -> [String] {
        let requestedShort = shortName(of: type)
        let requestedWrapped = (type as? any OptionalProtocol.Type)?.wrappedType
        let requestedStem = stem(of: requestedShort)

        var matches: [String] = []
        // Registrations of the very type asked for (under other names) are listed separately.
        let others = registered.filter { $0.type != type }
        for registration in others.sorted(by: { name(of: $0.type) < name(of: $1.type) }) {
            let candidate = registration.type
            let candidateName = name(of: candidate)
            let candidateShort = shortName(of: candidate)
            let at = "(registered at \(registration.location))"

            if let wrapped = requestedWrapped, wrapped == candidate {
                matches.append(
                    "'\(candidateName)' \(at) is registered, but its Optional was asked for. "
                        + "Ask for '\(candidateShort)', or register the optional type itself."
                )
            } else if let wrapped = (candidate as? any OptionalProtocol.Type)?.wrappedType, wrapped == type {
                matches.append(
                    "'\(candidateName)' \(at) is registered: an Optional is a different type from what it wraps. "
                        + "Register for '\(requestedShort).self', or ask for the optional."
                )
            } else if candidateShort == requestedShort {
                matches.append(
                    "'\(candidateName)' \(at) has the same name but is a different type (another module or enclosing type). "
                        + "Check which module's '\(requestedShort)' the registration and the request import."
                )
            } else if let stem = requestedStem, stem == self.stem(of: candidateShort) {
                matches.append(
                    "'\(candidateName)' \(at) has a similar name. A registration is found only by the exact type "
                        + "it was registered for: if it conforms to '\(requestedShort)', register it with "
                        + "'for: \(requestedShort).self'."
                )
            }
        }
        return matches
    }

    /// A type name reduced to what distinguishes it: `AccessTokenServiceType`, `AccessTokenService`
    /// and `MockAccessTokenService` share one stem, as do `PriceFetching` and `LivePriceFetcher`.
    /// `nil` when too little is left to compare.
    static func stem(of shortName: String) -> String? {
        var name = shortName.lowercased()
        if let genericStart = name.firstIndex(of: "<") { name = String(name[..<genericStart]) }
        if name.hasPrefix("any ") { name.removeFirst(4) }
        for prefix in ["live", "default", "mock", "fake", "stub", "real"] where name.hasPrefix(prefix) {
            name.removeFirst(prefix.count)
            break
        }
        for suffix in ["protocol", "type", "interface", "impl", "implementation"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        for suffix in ["ing", "er", "or"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name.count >= 3 ? name : nil
    }
}
