// The app's access token, whose one registration is reset.
final class AccessToken: Sendable {}
