/// A token service that hands out a made-up token, for demonstrations (`access-token-cli --demo`):
/// it reads no environment variable and no file, so it works on any machine.
public struct DemoAccessTokenService: AccessTokenServiceType {
    /// `sk-demo-0000-f9c2`: plainly not a real token.
    public static let token = AccessToken("sk-demo-0000-f9c2")

    public init() {}

    public func accessToken() throws(AccessTokenError) -> AccessToken {
        Self.token
    }
}
