// "Custom scopes" declares the session scope itself.
import DependencyStore

struct User: Sendable {}

final class SessionRepository {
    init(user: User = User()) {}
}

let store = DependencyStore()
