// Servers.md's "`.graph` instances across stores" compares a resolve from the app's store with one
// through a request's store; it assumes the screen's types.
import DependencyStore

final class FormState {}

final class Repository {
    let form: FormState
    init(form: FormState) { self.form = form }
}

final class Screen {
    let repository: Repository
    let form: FormState
    init(repository: Repository, form: FormState) {
        self.repository = repository
        self.form = form
    }
}

let app = DependencyStore()
