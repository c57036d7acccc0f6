struct MockTokens: AccessTokenServiceType {
    let token: String
    func accessToken() throws(AccessTokenError) -> AccessToken { AccessToken(token) }
}
struct MockNetworking: Networking {
    let body: Data
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { body }
}

let sample = Data(SampleNetworking.response.utf8)

extension DependencyStore {
    // The app's wiring, offline: what `fallbackStore`'s sample falls back on.
    static let fallbacks = DependencyStore()
}
