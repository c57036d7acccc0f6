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

extension DependencyStore {
    /// Wires the live services into this store. Call it once at start-up, on the root store:
    ///
    /// ```swift
    /// DependencyStore.shared.registerAll()
    /// ```
    ///
    /// Every piece is registered for its protocol, so any one can be swapped: a test registers a
    /// mock in a store of its own (or layered over this one), `--price-file` swaps the
    /// networking for ``FileNetworking`` without the fetcher knowing, and `--demo` swaps the token
    /// service for ``DemoAccessTokenService`` and the networking for ``SampleNetworking``.
    ///
    /// Every service is registered `.singleton`: each holds no state and is safe to share, so
    /// one instance serves the whole process (one `URLSessionNetworking`, one formatter). A
    /// ``PriceReport`` is `.unique`: each resolve makes one, bound to the store that made it.
    /// `verify()` on a store filled by this reports no problem (see `ServicesTests`).
    ///
    /// - Parameter configuration: Where the token and the price come from.
    public func registerAll(_ configuration: ServicesConfiguration = ServicesConfiguration()) {
        // Every service is stateless and safe to share, so one instance serves the process;
        // `verify()` confirms that no singleton holds anything shorter-lived.
        if configuration.demo {
            register(DemoAccessTokenService(), for: AccessTokenServiceType.self, scope: .singleton)
            register(SampleNetworking(), for: Networking.self, scope: .singleton)
        } else {
            register(
                LiveAccessTokenService(environment: configuration.environment, tokenFile: configuration.tokenFile),
                for: AccessTokenServiceType.self,
                scope: .singleton
            )
            if let priceFile = configuration.priceFile {
                register(FileNetworking(path: priceFile), for: Networking.self, scope: .singleton)
            } else {
                register(URLSessionNetworking(), for: Networking.self, scope: .singleton)
            }
        }
        register(CoinbaseSpotPriceDecoder(), for: SpotPriceDecoding.self, scope: .singleton)
        register(
            CoinbasePriceFetcher(
                baseURL: configuration.endpoint,
                timeout: configuration.timeout,
                maxResponseBytes: configuration.maxResponseBytes
            ),
            for: PriceFetching.self,
            scope: .singleton
        )
        register(LivePriceFormatter(locale: configuration.locale), for: PriceFormatting.self, scope: .singleton)
        // A report binds its @Injected services when it is made: a new one for each use.
        register(PriceReport(), for: PriceReport.self)
    }
}
