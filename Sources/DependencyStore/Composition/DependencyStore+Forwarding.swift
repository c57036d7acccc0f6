extension DependencyStore {
    /// Makes `type` resolve to the instance of the registration of `target`: one registration,
    /// reachable as several types, sharing its scope and its kept instance.
    ///
    /// ```swift
    /// store.register(SessionStore.self, scope: .singleton) { _ in SessionStore() }
    /// store.forward(TokenProviding.self, to: SessionStore.self)
    /// store.forward(UserProviding.self, to: SessionStore.self)
    ///
    /// store.resolve(TokenProviding.self) === store.resolve(UserProviding.self)   // true
    /// ```
    ///
    /// A resolve of `type` resolves `target` (under `targetName`) from the same store and hands
    /// out what it gets, so the target's scope decides: a `.singleton` target gives every
    /// forwarded type the same instance, a `.unique` one a new instance each time. The target's
    /// registration is looked up at each resolve, so it may be registered (or replaced) after the
    /// forward. `forward` is a registration of `type` like any other: registering `type` again
    /// replaces it, and ``unregister(_:name:fileID:line:)`` removes it.
    ///
    /// > Important: Swift cannot check, when you write it, that what `target` builds is a
    /// > `type`. When it is not, the resolve traps, naming both registrations and the fix;
    /// > `verify()` builds every forward, so it reports this before the app meets it.
    ///
    /// - Parameters:
    ///   - type: The type callers ask for, usually a protocol the target's instance conforms to.
    ///   - name: The name `type` is resolved by; `nil`, the default, for the unnamed one.
    ///   - target: The registered type whose instance to hand out.
    ///   - targetName: The name `target` is registered under; `nil`, the default, for the
    ///     unnamed one.
    ///   - fileID: Where the forward is made, for diagnostics. Leave the default.
    ///   - line: The line of the forward. Leave the default.
    public func forward<T, Target>(
        _ type: T.Type,
        name: String? = nil,
        to target: Target.Type,
        named targetName: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        let location = SourceLocation(fileID: fileID, line: line)
        add(
            Registration(
                name: name,
                scope: .unique,
                location: location,
                role: .forward(to: target, name: targetName),
                build: { store, _ in
                    let instance = store.resolve(
                        target, name: targetName, arguments: .none, requester: .forward(location))
                    guard let forwarded = instance as? T else {
                        DependencyStore.fail(
                            store.forwardMismatch(
                                of: T.self, name: name, to: Target.self, named: targetName, built: instance,
                                at: location),
                            resolving: T.self, name: name, at: .forward(location))
                    }
                    return forwarded
                }))
    }
}
