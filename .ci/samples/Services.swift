// Docs/Services.md's samples use the Services module; a test adds its own mock networking and
// fixture, and the app its own networking.
import DependencyStore
import Foundation
import Services
import Testing

struct CachingNetworking: Networking {
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { Data() }
}

struct MockNetworking: Networking {
    let body: Data
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { body }
}

let sampleResponse = Data(#"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#.utf8)
