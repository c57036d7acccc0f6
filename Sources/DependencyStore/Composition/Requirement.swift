/// A type (and name) that a store needs and does not build itself: one that some assembly must
/// register, declared with `require`, or one that each request's store registers, declared with
/// `providedPerRequest`.
struct Requirement {
    /// Who provides what is required.
    enum Provision: Equatable {
        /// A registration in the declaring store or a parent (`require`).
        case registration
        /// A registration in each store layered over the declaring one for a request, and never in
        /// the declaring store (`providedPerRequest`).
        case perRequest
    }

    let type: Any.Type
    let name: String?
    let location: SourceLocation
    let assembly: AssemblyTag?
    var provision = Provision.registration

    /// `SessionAssembly (at App/Session.swift:12)`, or the place alone.
    var declarer: String {
        assembly.map { "\($0.name) (at \(location))" } ?? "\(location)"
    }
}
