import DependencyStore
import Services
import Testing

@Suite struct AccessTokenServiceTests {
    @Test func readsTheTokenFromTheEnvironment() {
        let service = EnvironmentAccessTokenService(environment: ["ACCESS_TOKEN": "sk-123"])
        #expect(service.accessToken() == "sk-123")
    }

    @Test func anEmptyOrMissingVariableIsNoToken() {
        #expect(EnvironmentAccessTokenService(environment: [:]).accessToken() == nil)
        #expect(EnvironmentAccessTokenService(environment: ["ACCESS_TOKEN": ""]).accessToken() == nil)
    }

    @Test func registerAllWiresTheLiveServiceForItsProtocol() {
        let store = DependencyStore()
        store.registerAll()
        #expect(store.resolve(AccessTokenServiceType.self) is EnvironmentAccessTokenService)
    }

    @Test func codeUnderTestSeesAMockInjectedThroughExecute() {
        let store = DependencyStore()
        store.register(MockAccessTokenService(token: "mock-token"), for: AccessTokenServiceType.self)

        let client = store.execute { TokenClient() }

        #expect(client.authorizationHeader() == "Bearer mock-token")
    }
}

/// What app code looks like: it declares its dependency and never builds it.
final class TokenClient {
    @Injected private var tokens: AccessTokenServiceType

    func authorizationHeader() -> String? {
        tokens.accessToken().map { "Bearer \($0)" }
    }
}

struct MockAccessTokenService: AccessTokenServiceType {
    let token: String?
    func accessToken() -> String? { token }
}
