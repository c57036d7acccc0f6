// Factory's property-wrapper spellings, unavailable, each with what to write instead: a user moving
// from Factory writes them from habit, and gets the fix in the compiler's error rather than
// "missing argument label 'name:' in call" or "unknown attribute". Checked by
// `.ci/check-diagnostics`, which compiles each spelling and reads the message.

/// What a Factory key path such as `\.weather` type-checks against in `@Injected(\.weather)`, so
/// that the compiler can say what to write instead. Not for use: this library resolves by type,
/// and has no container with a property per dependency.
@dynamicMemberLookup
public struct FactoryContainerKeyPath: Sendable {
    /// Any member, so that any Factory key path type-checks and the unavailable initialiser it
    /// reaches gives its message.
    public subscript(dynamicMember member: String) -> FactoryContainerKeyPath { self }
}

extension Injected {
    /// Factory's `@Injected(\.service)`: unavailable, with what to write instead.
    @available(
        *, unavailable,
        message:
            "DependencyStore resolves by type, not through a container's key path: write `@Injected var service: Service`, and register Service in your registerAll() with `store.register(Service.self) { _ in LiveService() }` (MigratingFromFactory.md)"
    )
    public init(_ keyPath: KeyPath<FactoryContainerKeyPath, FactoryContainerKeyPath>) {
        fatalError("unavailable")
    }
}

extension OptionalInjected {
    /// Factory's `@Injected(\.service)` for a `Factory<Service?>`: unavailable, with what to write
    /// instead.
    @available(
        *, unavailable,
        message:
            "DependencyStore resolves by type, not through a container's key path: write `@OptionalInjected var service: Service?`, nil while nothing registers Service (MigratingFromFactory.md)"
    )
    public init(_ keyPath: KeyPath<FactoryContainerKeyPath, FactoryContainerKeyPath>) {
        fatalError("unavailable")
    }
}

extension WeakInjected {
    /// Factory's `@WeakLazyInjected(\.parent)`: unavailable, with what to write instead.
    @available(
        *, unavailable,
        message:
            "DependencyStore resolves by type, not through a container's key path: write `@WeakInjected var parent: Parent?`, and register Parent with a scope that keeps it (.singleton, a custom scope, .weak) (MigratingFromFactory.md)"
    )
    public convenience init(_ keyPath: KeyPath<FactoryContainerKeyPath, FactoryContainerKeyPath>) {
        fatalError("unavailable")
    }
}

/// Factory's `@LazyInjected`: unavailable, with what to write instead.
@available(
    *, unavailable,
    message:
        "every @Injected property is lazy here: write `@Injected var service: Service`, which resolves on its first read, exactly once (MigratingFromFactory.md)"
)
public typealias LazyInjected<T> = Injected<T>

/// Factory's `@WeakLazyInjected`: unavailable, with what to write instead.
@available(
    *, unavailable,
    message:
        "write `@WeakInjected var parent: Parent?`, and register Parent with a scope that keeps it (.singleton, a custom scope, .weak) (MigratingFromFactory.md)"
)
public typealias WeakLazyInjected<T: AnyObject> = WeakInjected<T>

/// Factory's `@DynamicInjected`: unavailable, with what to write instead.
@available(
    *, unavailable,
    message:
        "for a value resolved at every use, write `@Injected var service: Provider<Service>` and call `service()` (MigratingFromFactory.md)"
)
public typealias DynamicInjected<T> = Injected<T>
