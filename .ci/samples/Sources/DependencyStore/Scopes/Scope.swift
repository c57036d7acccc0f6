protocol Networking {}
protocol PriceFetching {}
struct URLSessionNetworking: Networking {}
struct PriceFetcher: PriceFetching { let networking: Networking }
final class SessionRepository {}
