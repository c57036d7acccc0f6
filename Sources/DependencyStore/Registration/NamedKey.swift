/// What the registrations dictionary of a named registration is keyed by.
struct NamedKey: Hashable {
    let type: ObjectIdentifier
    let name: String
}
