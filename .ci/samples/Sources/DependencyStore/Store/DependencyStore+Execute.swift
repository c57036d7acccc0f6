import Testing

protocol AccessTokenServiceType { var token: String { get } }
struct MockAccessTokenService: AccessTokenServiceType { let token: String }
final class SomeViewModel {
    @Injected private var tokens: AccessTokenServiceType
    var title: String { tokens.token }
}

protocol PriceFetching: Sendable { func price() async -> Decimal }
struct MockPriceFetcher: PriceFetching {
    let amount: Decimal
    func price() async -> Decimal { amount }
}
@MainActor final class PriceModel {
    @Injected private var fetcher: PriceFetching
    private(set) var text = ""
    func refresh() async { text = "$\(await fetcher.price()).00" }
}

final class Uploader { func start() {} }

final class PriceReport {
    @Injected private var fetcher: PriceFetching
    func render() async -> String { "\(await fetcher.price())" }
}
