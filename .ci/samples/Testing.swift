// The test doubles and app types Docs/Testing.md assumes. The guide tests the Services module's
// PriceReport; the view models, mocks and the worker are the reader's own.
import DependencyStore
import DependencyStoreTesting
import Foundation
import Services
import Testing
import XCTest

struct MockTokens: AccessTokenServiceType {
    let token: String
    func accessToken() throws(AccessTokenError) -> AccessToken { AccessToken(token) }
}

final class TokenViewModel {
    @Injected private var tokens: AccessTokenServiceType
    var maskedToken: String { (try? tokens.accessToken().masked) ?? "" }
}

struct MockNetworking: Networking {
    let body: Data
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { body }
}

let sample = Data(SampleNetworking.response.utf8)

struct MockPriceFetcher: PriceFetching {
    let amount: Decimal
    func spotPrice(in currency: String) async throws(PriceError) -> SpotPrice {
        SpotPrice(base: "BTC", currency: currency, amount: amount)
    }
}

@MainActor final class PriceModel {
    @Injected private var fetcher: PriceFetching
    private(set) var text = ""

    func refresh() async {
        guard let price = try? await fetcher.spotPrice(in: "USD") else { return }
        text = LivePriceFormatter().format(price.amount, currency: price.currency)
    }
}

final class PriceViewModel {
    @Injected private var fetcher: PriceFetching
    @Injected private var formatter: PriceFormatting
    var text = ""
}

// "A run loop spun inside a synchronous execute": the guide declares Label in its prose.
final class Label { @Injected var text: String }
let testStore = DependencyStore()

protocol Uploads {}
struct MockUploads: Uploads {}

final class Worker {
    @Injected private var uploads: Uploads
    func run() -> Int { 1 }
    func runAsync() async {}
}

/// A spy: counts what the code under test asks of it.
final class SpyTokens: AccessTokenServiceType, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var asked: Int { lock.withLock { count } }
    func accessToken() throws(AccessTokenError) -> AccessToken {
        lock.withLock { count += 1 }
        return AccessToken("sk-5678")
    }
}
