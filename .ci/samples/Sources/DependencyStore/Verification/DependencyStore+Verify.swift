import Testing

extension DependencyStore { func registerAll() {} }
