/// A type (and name) that some assembly must register, declared with `require`.
struct Requirement {
    let type: Any.Type
    let name: String?
    let location: SourceLocation
    let assembly: AssemblyTag?

    /// `SessionAssembly (at App/Session.swift:12)`, or the place alone.
    var declarer: String {
        assembly.map { "\($0.name) (at \(location))" } ?? "\(location)"
    }
}
