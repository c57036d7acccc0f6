/// A module's registrations, kept together and applied to a store in one call.
///
/// Each feature declares what it provides in an assembly of its own, and the app applies them at
/// start-up; features that become available later (after login, say) are applied then:
///
/// ```swift
/// struct PriceAssembly: Assembly {
///     func assemble(into store: DependencyStore) {
///         store.register(Networking.self, scope: .singleton) { _ in URLSessionNetworking() }
///         store.register(PriceFetching.self) { store in PriceFetcher(networking: store.resolve()) }
///     }
/// }
///
/// DependencyStore.shared.apply(PriceAssembly(), FormattingAssembly())
/// // ... after login:
/// DependencyStore.shared.apply(SessionAssembly(user: user))
/// ```
///
/// Assemblies are applied in order, and a registration replaces any earlier one for the same type
/// and name, so an assembly applied later overrides what earlier ones registered.
///
/// An assembly need not be `Sendable`: `apply` runs it at once, on the calling thread.
public protocol Assembly {
    /// Registers this module's dependencies in `store`.
    ///
    /// - Parameter store: The store being assembled; register into it, do not resolve from it
    ///   (other assemblies may not have been applied yet).
    func assemble(into store: DependencyStore)
}

extension DependencyStore {
    /// Applies `assemblies` to this store, in order.
    ///
    /// ```swift
    /// DependencyStore.shared.apply(NetworkAssembly(), PriceAssembly())
    /// ```
    ///
    /// Call it at start-up, and again whenever more of the app becomes available; a later
    /// registration for the same type and name replaces the earlier one, including its cached
    /// instance.
    ///
    /// - Parameter assemblies: The modules to register, earliest first.
    public func apply(_ assemblies: any Assembly...) {
        apply(assemblies)
    }

    /// Applies `assemblies` to this store, in order.
    ///
    /// ```swift
    /// DependencyStore.shared.apply(features.map(\.assembly))
    /// ```
    ///
    /// - Parameter assemblies: The modules to register, earliest first.
    public func apply(_ assemblies: [any Assembly]) {
        for assembly in assemblies {
            let tag = AssemblyTag.nested(type(of: assembly))
            registry.withLock { registry in
                registry.appliedAssemblies[tag.type, default: []] += tag.enclosing
                registry.unloadedAssemblies.remove(tag.type)
            }
            AssemblyTag.applying(tag) {
                assembly.assemble(into: self)
            }
        }
    }
}
