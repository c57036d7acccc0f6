// The app types Docs/MigratingFromSwinject.md assumes, and what its "After" block declares.
import DependencyStore
import Testing

protocol API {}
struct MockAPI: API {}

final class UserRepository {
    init(api: API) {}
}

// The "After" block.
extension Scope {
    static let session = Scope("session")
}

struct SessionAssembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.register(UserRepository.self, scope: .session) { store in
            UserRepository(api: store.resolve())
        }
    }
}
