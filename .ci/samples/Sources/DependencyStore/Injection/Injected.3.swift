// The view model's test double that the setter's sample assigns.
struct MockAccessTokenService: AccessTokenServiceType {
    func accessToken() -> String? { "mock" }
}
