// Which registered types a user may have meant instead of the one asked for: the fuzzy matching
// behind the "Registered, and close to what was asked for" lines of a missing registration, whose
// words are in `Diagnosis+Text.swift`.

extension Diagnostics {
    /// Registered types that the user may have meant instead of `type`.
    static func closeMatches(to type: Any.Type, among registered: [AnyRegistration]) -> [Diagnosis.CloseMatch] {
        let requestedShort = shortName(of: type)
        let requestedStem = stem(of: requestedShort)

        // Registrations of the very type asked for (under other names) are listed separately.
        let others = registered.filter { $0.type != type }
        return others.sorted(by: { name(of: $0.type) < name(of: $1.type) }).compactMap { registration in
            let candidate = registration.type
            let candidateShort = shortName(of: candidate)
            let kind: Diagnosis.CloseMatch.Kind? =
                if let wrapped = (candidate as? any OptionalProtocol.Type)?.wrappedType, wrapped == type {
                    .optionalRegistered
                } else if candidateShort == requestedShort {
                    .sameShortName
                } else if let stem = requestedStem, stem == self.stem(of: candidateShort) {
                    .similarName
                } else {
                    nil
                }
            return kind.map {
                .init(
                    kind: $0, candidate: name(of: candidate), candidateShortName: candidateShort,
                    registeredAt: registration.location)
            }
        }
    }

    /// A type name reduced to what distinguishes it: `AccessTokenServiceType`, `AccessTokenService`
    /// and `MockAccessTokenService` share one stem, as do `PriceFetching` and `LivePriceFetcher`.
    /// `nil` when too little is left to compare.
    static func stem(of shortName: String) -> String? {
        var name = shortName.lowercased()
        if let genericStart = name.firstIndex(of: "<") { name = String(name[..<genericStart]) }
        if name.hasPrefix("any ") { name.removeFirst(4) }
        if let prefix = ["live", "default", "mock", "fake", "stub", "real"].first(where: name.hasPrefix) {
            name.removeFirst(prefix.count)
        }
        // Each list's first match only, the longer kind of ending before the shorter.
        for suffixes in [["protocol", "type", "interface", "impl", "implementation"], ["ing", "er", "or"]] {
            if let suffix = suffixes.first(where: name.hasSuffix) { name.removeLast(suffix.count) }
        }
        return name.count >= 3 ? name : nil
    }
}
