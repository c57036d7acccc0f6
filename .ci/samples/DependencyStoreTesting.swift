// DependencyStoreTesting's landing page tests the Services module (the example app); the mock is
// the reader's own.
import DependencyStore
import Foundation
import Services

struct MockNetworking: Networking {
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { Data(SampleNetworking.response.utf8) }
}
