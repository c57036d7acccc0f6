struct PriceAssembly: Assembly { func assemble(into store: DependencyStore) {} }
