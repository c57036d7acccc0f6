import Foundation
import Services

// The mocks a test registers in its own store. Each is a small value: what it returns is decided
// when the test builds it.

struct MockAccessTokenService: AccessTokenServiceType {
    var result: Result<AccessToken, AccessTokenError>

    init(token: String) { result = .success(AccessToken(token)) }
    init(error: AccessTokenError) { result = .failure(error) }

    func accessToken() throws(AccessTokenError) -> AccessToken { try result.get() }
}

/// Answers every request with the same outcome, and records the requests it saw.
final class MockNetworking: Networking, @unchecked Sendable {
    private let result: Result<Data, NetworkError>
    private let lock = NSLock()
    private var seen: [Endpoint] = []

    init(body: String) { result = .success(Data(body.utf8)) }
    init(error: NetworkError) { result = .failure(error) }

    var requests: [Endpoint] { lock.withLock { seen } }

    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data {
        lock.withLock { seen.append(endpoint) }
        return try result.get()
    }
}

struct MockPriceFetcher: PriceFetching {
    var result: Result<SpotPrice, PriceError>

    func spotPrice(in currency: String) async throws(PriceError) -> SpotPrice { try result.get() }
}

struct MockPriceFormatter: PriceFormatting {
    func format(_ amount: Decimal, currency: String) -> String { "\(amount) \(currency)" }
}

let sampleResponse = #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#
