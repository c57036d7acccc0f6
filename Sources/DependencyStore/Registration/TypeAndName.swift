/// A type and an optional name: what a resolve asks for.
struct TypeAndName: Hashable {
    let type: ObjectIdentifier
    let name: String?
}
