import DependencyStore

extension DependencyStore {
    /// Wires the live services into this store. Call it once at start-up, on the root store:
    ///
    /// ```swift
    /// DependencyStore.shared.registerAll()
    /// ```
    ///
    /// Tests do not call it: they register mocks in a store of their own and run the code under
    /// test inside `execute { }`.
    public func registerAll() {
        register(EnvironmentAccessTokenService(), for: AccessTokenServiceType.self)
    }
}
