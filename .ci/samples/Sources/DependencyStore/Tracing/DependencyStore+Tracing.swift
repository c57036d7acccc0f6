extension DependencyStore { func registerAll() {} }
final class AppModel {}
final class Database: Sendable {}
