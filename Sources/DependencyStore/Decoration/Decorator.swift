/// A decorator added with `decorate`: what it applies to, and the closure, with its type erased
/// so that decorators of every type share one dictionary.
struct Decorator {
    /// Which instances of its type it decorates.
    enum Target: Equatable {
        /// Those of the registration resolved by this name (`nil`: the unnamed one).
        case registration(name: String?)
        /// Those of every registration of the type, under any name, and of every contribution.
        case every
    }

    let target: Target
    /// The decorated type, for what `verify()` says of a decorator that matches nothing.
    let type: Any.Type
    /// Where `decorate` was called.
    let location: SourceLocation
    /// The assembly that was being applied when it was added, if any.
    let assembly: AssemblyTag?
    /// Takes and returns a value of the decorated type.
    let apply: (DependencyStore, Any) -> Any
    /// A completion step (`complete`), not a decorator: it returns what it was given, and runs
    /// once the resolve that built the instance has built everything (see `Completion.swift`).
    var completes = false

    /// Whether it is `earlier` added again: by the same call (place and target) of the same
    /// assembly, applied again. Decorators added outside an assembly, or by one application
    /// (from a loop, say), are each a decorator of their own.
    func replaces(_ earlier: Decorator) -> Bool {
        guard let assembly, let earlierAssembly = earlier.assembly else { return false }
        return location == earlier.location && target == earlier.target && completes == earlier.completes
            && assembly == earlierAssembly
            && assembly.application != earlierAssembly.application
    }

    /// Whether it decorates what `registration` builds. A forward builds nothing of its own (it
    /// hands out the instance of the registration it forwards to, which its decorators saw), so
    /// no decorator applies to it.
    func applies(to registration: AnyRegistration) -> Bool {
        switch (target, registration.role) {
        case (_, .forward): false
        case (.every, _): true
        case (.registration(let name), .registration), (.registration(let name), .contextual):
            registration.name == name
        case (.registration, .contribution): false
        }
    }
}
