// The app types whose registrations carry alternatives for contexts, and the onboarding that an
// argument resets.
import Testing

protocol Networking {}
struct URLSessionNetworking: Networking {}
struct MockNetworking: Networking {}
struct StubNetworking: Networking {}
struct PreviewNetworking: Networking {}

final class Onboarding: Sendable { func reset() {} }
let onboarding = Onboarding()
