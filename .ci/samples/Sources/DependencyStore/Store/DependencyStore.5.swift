extension DependencyStore { func registerAll() {} }
