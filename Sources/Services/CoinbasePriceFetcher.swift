import DependencyStore
import Foundation

/// The live price fetcher: asks Coinbase's spot-price API through ``Networking`` and reads the
/// answer with ``SpotPriceDecoding``, both injected from the store.
public struct CoinbasePriceFetcher: PriceFetching {
    /// Coinbase's public API.
    public static let defaultBaseURL = URL(string: "https://api.coinbase.com")!

    @Injected private var networking: Networking
    @Injected private var decoder: SpotPriceDecoding
    private let baseURL: URL
    private let timeout: TimeInterval
    private let maxResponseBytes: Int

    /// Creates a fetcher whose networking and decoder come from the current store.
    ///
    /// - Parameters:
    ///   - baseURL: The API's base URL; another one for a mirror or a local test server.
    ///   - timeout: The deadline for the whole request, in seconds.
    ///   - maxResponseBytes: The largest response accepted.
    public init(baseURL: URL = Self.defaultBaseURL, timeout: TimeInterval = 10, maxResponseBytes: Int = 64 << 10) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// `GET {baseURL}/v2/prices/spot?currency=USD`.
    public func endpoint(for currency: String) -> Endpoint {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("v2/prices/spot"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "currency", value: currency.uppercased())]
        return Endpoint(url: components.url!, timeout: timeout, maxResponseBytes: maxResponseBytes)
    }

    public func spotPrice(in currency: String) async throws(PriceError) -> SpotPrice {
        let data: Data
        do {
            data = try await networking.data(for: endpoint(for: currency))
        } catch {
            throw .network(error)
        }
        return try decoder.decode(data, expecting: currency)
    }
}
