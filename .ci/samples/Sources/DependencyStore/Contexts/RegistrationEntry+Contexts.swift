// The app types whose registration carries alternatives for contexts.
import Testing

protocol Networking {}
struct URLSessionNetworking: Networking {}
struct MockNetworking: Networking {}
struct StubNetworking: Networking {}
struct PreviewNetworking: Networking {}
