struct MockNetworking: Networking {
    enum Reply { case ok }
    let reply: Reply
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { Data(SampleNetworking.response.utf8) }
}

// `fallingBackOn:`'s sample: the app's mocks and view model, and a stand-in for the network.
struct MockTokens: AccessTokenServiceType {
    let token: String
    func accessToken() throws(AccessTokenError) -> AccessToken { AccessToken(token) }
}
final class TokenViewModel {
    @Injected private var tokens: AccessTokenServiceType
    var maskedToken: String { (try? tokens.accessToken().masked) ?? "" }
}
struct OfflineNetworking: Networking {
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { Data(SampleNetworking.response.utf8) }
}
