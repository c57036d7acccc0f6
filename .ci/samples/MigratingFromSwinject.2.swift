// The "After" block declares the scope and the assembly; it assumes the app's API and repository.
import DependencyStore

protocol API {}

final class UserRepository {
    init(api: API) {}
}
