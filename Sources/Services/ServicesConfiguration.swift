import DependencyStore
import Foundation

/// What the live services need to know about their environment: where the token file is, which
/// API to call (or which saved response to read), how long to wait.
public struct ServicesConfiguration: Sendable {
    /// Use the demo token and the sample price built into the app: no token, no network, no
    /// file. When set, `tokenFile`, `endpoint` and `priceFile` are not used.
    public var demo: Bool
    /// The token file; `nil` for the default in the user's config directory.
    public var tokenFile: String?
    /// The price API's base URL.
    public var endpoint: URL
    /// A saved spot-price response to read instead of the network.
    public var priceFile: String?
    /// The deadline for the whole price request, in seconds.
    public var timeout: TimeInterval
    /// The largest price response accepted, in bytes.
    public var maxResponseBytes: Int
    /// How prices are formatted.
    public var locale: Locale
    /// The environment the token is read from.
    public var environment: [String: String]

    public init(
        demo: Bool = false,
        tokenFile: String? = nil,
        endpoint: URL = CoinbasePriceFetcher.defaultBaseURL,
        priceFile: String? = nil,
        timeout: TimeInterval = 10,
        maxResponseBytes: Int = 64 << 10,
        locale: Locale = Locale(identifier: "en_US"),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.demo = demo
        self.tokenFile = tokenFile
        self.endpoint = endpoint
        self.priceFile = priceFile
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.locale = locale
        self.environment = environment
    }
}
