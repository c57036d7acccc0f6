// Step 1 declares the token service itself; it assumes only the app's keychain wrapper.
enum Keychain {
    static func read(_ key: String) -> String? { nil }
}
