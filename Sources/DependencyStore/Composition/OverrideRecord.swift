/// A registration (or named contribution) of a store replaced by a later one of the same store:
/// what `verify()` lists, so that an accidental override is seen.
struct OverrideRecord {
    let type: Any.Type
    let name: String?
    let isContribution: Bool
    let replacedAt: SourceLocation
    let replacedAssembly: AssemblyTag?
    let replacementAt: SourceLocation
    let replacementAssembly: AssemblyTag?
    /// How many times the same place replaced the same place (a loop, an assembly applied twice).
    var count = 1

    init(of old: AnyRegistration, by new: AnyRegistration) {
        type = new.type
        name = new.name
        isContribution = new.role.isContribution
        replacedAt = old.location
        replacedAssembly = old.assembly
        replacementAt = new.location
        replacementAssembly = new.assembly
    }

    func isSame(as other: OverrideRecord) -> Bool {
        type == other.type && name == other.name && isContribution == other.isContribution
            && replacedAt == other.replacedAt && replacementAt == other.replacementAt
            && replacedAssembly == other.replacedAssembly && replacementAssembly == other.replacementAssembly
    }
}

extension StoreCore.Registry {
    /// Records that `new` replaced `old` in this store.
    mutating func recordOverride(of old: AnyRegistration, by new: AnyRegistration) {
        let entry = OverrideRecord(of: old, by: new)
        if let index = self.overrides.firstIndex(where: { $0.isSame(as: entry) }) {
            self.overrides[index].count += 1
        } else {
            self.overrides.append(entry)
        }
    }
}
