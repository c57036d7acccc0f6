final class Database: Sendable {}
@MainActor final class ProfileModel {}
