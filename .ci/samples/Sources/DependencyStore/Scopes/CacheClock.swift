// The app's access token, which an expiring cache keeps.
final class AccessToken: Sendable {
    static func fetch() -> AccessToken { AccessToken() }
}
