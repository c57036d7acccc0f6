extension DependencyStore {
    /// What this store resolves: its own registrations and those of its parents that it does not
    /// override, in a stable order (by type, then name), each with its scope, argument types,
    /// where it was registered, whether an instance is kept, and which store it comes from.
    ///
    /// The text form is ``debugDescription``, which `debugPrint(store)` and the debugger show:
    ///
    /// ```swift
    /// debugPrint(store)
    /// // the store created at App/Main.swift:3 (over the root store): 2 registrations
    /// // - Networking, .singleton, registered at App/Main.swift:4, instance kept
    /// // - PriceFetching, .singleton, registered at App/Wiring.swift:11, from the root store
    /// ```
    ///
    /// Where "why is the mock not used?" starts: a mock registered for the wrong type, or under
    /// a name, shows up here beside the live registration it was meant to replace.
    public var registrations: [RegisteredDependency] {
        // An inherited registration's instance is kept in this store's own slot for it.
        let keptInherited: [ObjectIdentifier: Int] = registry.withLock { registry in
            registry.inheritedSlots.mapValues { $0.slot.keptCount }
        }
        var listed: [RegisteredDependency] = []
        var seen: Set<TypeAndName> = []
        var seenElements: Set<TypeAndName> = []
        for store in sequence(first: self, next: \.parent) {
            let inheritedFrom = store === self ? nil : store.description
            listed += store.registry.withLock { registry in
                (registry.all + registry.allContributions).compactMap { registration in
                    // A nearer store's registration of the same type and name hides this one, and
                    // so does a nearer element of the same name; unnamed elements add up.
                    let key = TypeAndName(type: ObjectIdentifier(registration.type), name: registration.name)
                    if case .contribution = registration.role {
                        guard registration.name == nil || seenElements.insert(key).inserted else { return nil }
                    } else {
                        guard seen.insert(key).inserted else { return nil }
                    }
                    let kept =
                        inheritedFrom == nil
                        ? registration.slot?.keptCount ?? 0
                        : keptInherited[ObjectIdentifier(registration)] ?? 0
                    return RegisteredDependency(registration, keptInstances: kept, inheritedFrom: inheritedFrom)
                }
            }
        }
        return listed.sorted { ($0.type, $0.name ?? "", $0.registeredAt) < ($1.type, $1.name ?? "", $1.registeredAt) }
    }
}

extension DependencyStore: CustomDebugStringConvertible {
    /// The store's name and its ``registrations``, one a line.
    public var debugDescription: String {
        let entries = registrations
        let count = entries.count == 1 ? "1 registration" : "\(entries.count) registrations"
        return (["\(self): \(count)"] + entries.map { "- \($0)" }).joined(separator: "\n")
    }
}
