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

    init(_ type: any Assembly.Type, enclosing: [ObjectIdentifier] = []) {
        self.type = ObjectIdentifier(type)
        name = Diagnostics.shortName(of: type)
        self.enclosing = enclosing
    }

    /// Whether what carries this tag was made while an assembly of type `assembly` was applied.
    func isPart(of assembly: ObjectIdentifier) -> Bool {
        type == assembly || enclosing.contains(assembly)
    }

    /// The assembly being applied on this thread, innermost: an assembly may apply others.
    static var current: AssemblyTag? {
        ResolutionStack.currentIfCreated?.assemblies.last
    }

    /// The tag of `assembly`, applied now, inside those being applied on this thread.
    static func nested(_ assembly: any Assembly.Type) -> AssemblyTag {
        let outer = current.map { $0.enclosing + [$0.type] } ?? []
        return AssemblyTag(assembly, enclosing: outer)
    }

    /// Runs `body` with `tag` as the assembly that what it registers on this thread belongs to.
    static func applying(_ tag: AssemblyTag, _ body: () -> Void) {
        let stack = ResolutionStack.current
        stack.assemblies.append(tag)
        defer { stack.assemblies.removeLast() }
        body()
    }
}
