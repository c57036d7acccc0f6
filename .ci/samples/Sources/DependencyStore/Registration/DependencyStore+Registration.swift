protocol AccessTokenServiceType {}
protocol PriceFormatting {}
protocol Networking {}
protocol PriceFetching {}
protocol PriceParsing {}
protocol Greeting {}
final class AccessTokenService: AccessTokenServiceType, Sendable { static let shared = AccessTokenService() }
struct PriceFormatter: PriceFormatting {}
struct URLSessionNetworking: Networking {}
struct PriceFetcher: PriceFetching {
    let networking: Networking
    let parser: PriceParsing
}
struct FormalGreeting: Greeting {}
struct RequestID: Sendable {
    let value: String
    init(_ value: String) { self.value = value }
}
final class User: Sendable {}
let app = DependencyStore()
let user = User()
