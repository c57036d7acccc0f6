/// Which assembly made a registration, a contribution, a decorator or a requirement: what
/// `unload(_:)` removes, and what overrides and requirements name in `verify()`'s report.
///
/// An assembly is known by its type: `unload(SessionAssembly.self)` removes what every
/// `SessionAssembly` applied to the store registered.
struct AssemblyTag: Hashable, Sendable {
    let type: ObjectIdentifier
    /// The assembly's type as a reader knows it: `SessionAssembly`.
    let name: String

    init(_ type: any Assembly.Type) {
        self.type = ObjectIdentifier(type)
        name = Diagnostics.shortName(of: type)
    }

    /// The assembly being applied on this thread, innermost first: an assembly may apply others.
    static var current: AssemblyTag? {
        ResolutionStack.currentIfCreated?.assemblies.last
    }

    /// Runs `body` with `tag` as the assembly that what it registers on this thread belongs to.
    static func applying(_ tag: AssemblyTag, _ body: () -> Void) {
        let stack = ResolutionStack.current
        stack.assemblies.append(tag)
        defer { stack.assemblies.removeLast() }
        body()
    }
}
