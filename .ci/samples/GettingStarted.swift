// The app types Docs/GettingStarted.md assumes, and what its earlier steps declare.
import DependencyStore
import Testing

enum Keychain {
    static func read(_ key: String) -> String? { nil }
}

// Step 1.
protocol AccessTokenServiceType {
    func accessToken() -> String?
}

final class AccessTokenService: AccessTokenServiceType, Sendable {
    static let shared = AccessTokenService()
    func accessToken() -> String? { Keychain.read("token") }
}

protocol PriceFormatting {}
struct PriceFormatter: PriceFormatting {}

protocol Networking {}
protocol SpotPriceDecoding {}
protocol PriceFetching {}
struct PriceFetcher: PriceFetching {
    init(networking: Networking, decoder: SpotPriceDecoding) {}
}

protocol Analytics {}

// Step 3.
final class SettingsViewModel {
    @Injected private var tokens: AccessTokenServiceType

    var isSignedIn: Bool { tokens.accessToken() != nil }
}

struct MockTokens: AccessTokenServiceType {
    let token: String?
    func accessToken() -> String? { token }
}
