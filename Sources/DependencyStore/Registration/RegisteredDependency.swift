/// One registration as a store lists it: see ``DependencyStore/registrations``.
///
/// ```swift
/// for entry in store.registrations where entry.inheritedFrom == nil {
///     print(entry)   // PriceFetching, .singleton, registered at App/Wiring.swift:11, instance kept
/// }
/// ```
public struct RegisteredDependency: Hashable, Sendable, CustomStringConvertible {
    /// The type, as Swift prints it: `PriceFetching`.
    public let type: String
    /// The name it is registered under, if any.
    public let name: String?
    /// Its scope.
    public let scope: Scope
    /// The types of the arguments its factory takes, in order (`["String", "Int"]`); empty for a
    /// factory that takes none.
    public let argumentTypes: [String]
    /// Where it was registered: `App/Wiring.swift:11`.
    public let registeredAt: String
    /// Whether its factory runs on the main actor (`register(_:on: MainActor.self)`).
    public let runsOnMainActor: Bool
    /// Whether its factory is `async`, resolved with `resolveAsync` only.
    public let isAsync: Bool
    /// Whether the listed store itself keeps a built instance of it now (a `.singleton`, `.weak`
    /// or custom scope that it built, or its own copy of an ancestor's, and has not reset since).
    ///
    /// A store that shares an ancestor's instance (the sharing rule, see "Layered stores" in
    /// <doc:Lifetimes>) keeps nothing of it, so it answers `false` even once that instance is
    /// built: the store that keeps it answers `true`, and only that store's `reset` discards it
    /// and its end closes it.
    public let hasKeptInstance: Bool
    /// How many instances the listed store itself keeps of it: 0 or 1, or, for a registration
    /// cached per argument value (``RegistrationEntry/cachedPerArgument(limit:fileID:line:)``),
    /// one per value kept. An expired instance counts until the resolve that lets go of it.
    public let keptInstances: Int
    /// The store it is registered in, when that is an ancestor of the listed store (as
    /// diagnostics name it); `nil` for the listed store's own registrations.
    public let inheritedFrom: String?
    /// Whether it is an element contributed to the collection of ``type``
    /// (``DependencyStore/contribute(_:to:name:scope:fileID:line:)``) rather than a registration
    /// resolved by type and name.
    public let isContribution: Bool
    /// What it forwards to (`SessionStore`, or `Greeting (named "formal")`), for a
    /// ``DependencyStore/forward(_:name:to:named:fileID:line:)``; `nil` otherwise.
    public let forwardsTo: String?
    /// The assembly that registered it (`SessionAssembly`), if it was registered while
    /// `apply` ran one.
    public let assembly: String?
    /// Whether it is a value given with ``DependencyStore/provide(_:for:name:fileID:line:)``,
    /// handed out as is, rather than a factory's.
    public let isProvidedValue: Bool
    /// The contexts it has alternative factories for
    /// (``RegistrationEntry/on(_:fileID:line:_:)``), in the order they were given; empty for none.
    public let contexts: [DependencyContext]
    /// The context whose alternative a build would run now, in the contexts in force for the task
    /// that listed it; `nil` when its own factory would (or it has no alternatives).
    public let contextInForce: DependencyContext?

    init(_ registration: AnyRegistration, keptInstances: Int, inheritedFrom: String?) {
        type = Diagnostics.shortName(of: registration.type)
        name = registration.name
        scope = registration.scope
        argumentTypes = registration.argumentTypes?.map(Diagnostics.shortName(of:)) ?? []
        registeredAt = registration.location.description
        runsOnMainActor = registration.isolation == .mainActor
        isAsync = registration.isolation == .async
        hasKeptInstance = keptInstances > 0
        self.keptInstances = keptInstances
        self.inheritedFrom = inheritedFrom
        contexts = registration.role.contextChoices?.alternatives.map(\.context) ?? []
        contextInForce = registration.role.contextChoices?.contextInForce
        isContribution = registration.role.isContribution
        if case .forward(let target, let targetName) = registration.role {
            forwardsTo = Tracing.label(of: target, name: targetName)
        } else {
            forwardsTo = nil
        }
        assembly = registration.assembly?.name
        isProvidedValue = registration.isProvided
    }

    /// `Greeting (named "formal"), .unique, arguments (String, Int), registered at
    /// App/Wiring.swift:12, instance kept, from the root store` (and `on the main actor` or
    /// `async` after the scope), and for one with alternatives `alternatives on .test, .preview
    /// (.test in force)`: the parts that apply.
    public var description: String {
        var parts = [name.map { "\(type) (named \"\($0)\")" } ?? type]
        if isContribution { parts[0] = "element of [\(type)]" + (name.map { " named \"\($0)\"" } ?? "") }
        parts.append(forwardsTo.map { "forwards to \($0)" } ?? (isProvidedValue ? "provided value" : scope.description))
        if runsOnMainActor { parts.append("on the main actor") }
        if isAsync { parts.append("async") }
        if !argumentTypes.isEmpty { parts.append("arguments (\(argumentTypes.joined(separator: ", ")))") }
        let verb = isContribution ? "contributed" : isProvidedValue ? "provided" : "registered"
        parts.append("\(verb) at \(registeredAt)")
        if let assembly { parts.append("by \(assembly)") }
        if !contexts.isEmpty {
            let inForce = contextInForce.map { "\($0) in force" } ?? "the default in force"
            parts.append("alternatives on \(contexts.map(\.description).joined(separator: ", ")) (\(inForce))")
        }
        if hasKeptInstance { parts.append(keptInstances > 1 ? "\(keptInstances) instances kept" : "instance kept") }
        if let inheritedFrom { parts.append("from \(inheritedFrom)") }
        return parts.joined(separator: ", ")
    }
}
