protocol Repository: Sendable {}
@MainActor final class ProfileModel { init(repository: Repository) {} }
struct Configuration { let databaseURL: URL }
final class Database: Sendable {
    static func open(at url: URL) async throws -> Database { Database() }
}
