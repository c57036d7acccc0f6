protocol AccessTokenServiceType {}
protocol Networking {}
protocol PriceFetcherType {}
struct MockAccessTokenService: AccessTokenServiceType { let token: String }
final class AccessTokenService: AccessTokenServiceType, Sendable { static let shared = AccessTokenService() }
struct MockNetworking: Networking {}
struct PriceFetcher: PriceFetcherType { let networking: Networking }
final class PriceViewModel { @Injected var fetcher: PriceFetcherType }
