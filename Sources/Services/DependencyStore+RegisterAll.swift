import DependencyStore
import Foundation

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
    /// The store owns the singletons it keeps, and closes those that say how: the live
    /// ``URLSessionNetworking`` is `AsyncClosable`, so `await store.shutdown()` lets the requests
    /// under way finish (and cancels them if its deadline passes), and the store's end or a
    /// `reset(.singleton)` closes it too.
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
