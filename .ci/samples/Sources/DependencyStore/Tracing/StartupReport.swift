extension DependencyStore { func registerAll() {} }
final class AppModel {}
