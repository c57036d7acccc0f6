// The app types Docs/Concurrency.md assumes: a main-actor view model and its repository, and the
// user its API client fetches.
import DependencyStore
import Foundation

protocol ProfileRepository {}

@MainActor final class ProfileModel {
    init(repository: any ProfileRepository) {}
}

struct User: Sendable {}
