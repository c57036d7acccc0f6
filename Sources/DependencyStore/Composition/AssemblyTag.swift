/// Which assembly made a registration, a contribution, a decorator or a requirement: what
/// `unload(_:)` removes, and what overrides and requirements name in `verify()`'s report.
///
/// An assembly is known by its type: `unload(SessionAssembly.self)` removes what every
/// `SessionAssembly` applied to the store registered.
struct AssemblyTag: Hashable, Sendable {
    let type: ObjectIdentifier
    /// The assembly's type as a reader knows it: `SessionAssembly`.
    let name: String
    /// The assemblies that were applying this one (an assembly may apply others), outermost
    /// first: what this one registers is theirs too, and goes when one of them is unloaded.
    let enclosing: [ObjectIdentifier]
    /// Which application of the assembly this is, one number per `apply`: what tells a decorator
    /// added again by the same assembly applied again (it replaces its earlier self) from a
    /// second decorator added by one application (it adds). Not part of the tag's identity.
    let application: Int

    init(_ type: any Assembly.Type, enclosing: [ObjectIdentifier] = [], application: Int = 0) {
        self.type = ObjectIdentifier(type)
        name = Diagnostics.shortName(of: type)
        self.enclosing = enclosing
        self.application = application
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.enclosing == rhs.enclosing
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(enclosing)
    }

    /// The number of the last application, process-wide.
    private static let applications = Lock(0)

    /// Whether what carries this tag was made while an assembly of type `assembly` was applied.
    func isPart(of assembly: ObjectIdentifier) -> Bool {
        type == assembly || enclosing.contains(assembly)
    }

    /// Whether an assembly is being applied on this thread: `current != nil`, asked without
    /// copying the tag out.
    static var isBeingApplied: Bool {
        ResolutionStack.withCurrentIfCreated { !$0.assemblies.isEmpty } ?? false
    }

    /// The assembly being applied on this thread, innermost: an assembly may apply others.
    static var current: AssemblyTag? {
        ResolutionStack.withCurrentIfCreated { $0.assemblies.last }
    }

    /// The tag of `assembly`, applied now, inside those being applied on this thread.
    static func nested(_ assembly: any Assembly.Type) -> AssemblyTag {
        let outer = current.map { $0.enclosing + [$0.type] } ?? []
        let application = applications.withLock { last in
            last += 1
            return last
        }
        return AssemblyTag(assembly, enclosing: outer, application: application)
    }

    /// Runs `body` with `tag` as the assembly that what it registers on this thread belongs to.
    static func applying(_ tag: AssemblyTag, _ body: () -> Void) {
        let stack = ResolutionStack.current
        stack.assemblies.append(tag)
        defer { stack.assemblies.removeLast() }
        body()
    }
}
