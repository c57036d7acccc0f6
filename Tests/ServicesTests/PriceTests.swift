import DependencyStore
import DependencyStoreTesting
import Foundation
import Services
import Testing

@Suite struct SpotPriceDecoderTests {
    private let decoder = CoinbaseSpotPriceDecoder()

    private func decode(_ json: String, currency: String = "USD") throws(PriceError) -> SpotPrice {
        try decoder.decode(Data(json.utf8), expecting: currency)
    }

    @Test func decodesTheAmountAsAnExactDecimal() throws {
        let price = try decode(sampleResponse)

        #expect(price == SpotPrice(base: "BTC", currency: "USD", amount: Decimal(string: "15840.01")!))
        #expect("\(price.amount)" == "15840.01")
        #expect(price.pair == "BTC-USD")
    }

    @Test(arguments: [
        ("not json", PriceError.malformedResponse("it is not JSON")),
        (#"{"data":{"base":"BTC","currency":"USD"}}"#, .missingField("data.amount")),
        (#"{"price":"1"}"#, .missingField("data")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":15840.01}}"#, .malformedResponse("'data.amount' has the wrong type")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"lots"}}"#, .invalidAmount("lots")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"12abc"}}"#, .invalidAmount("12abc")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"1.2.3"}}"#, .invalidAmount("1.2.3")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"-5.00"}}"#, .negativeAmount("-5.00")),
        (#"{"data":{"base":"BTC","currency":"EUR","amount":"1.00"}}"#, .unexpectedCurrency(expected: "USD", received: "EUR")),
    ])
    func badResponsesAreTypedErrors(json: String, expected: PriceError) {
        #expect(throws: expected) { try decode(json) }
    }
}

@Suite struct PriceFetcherTests {
    @Test func asksTheSpotPriceEndpointThroughTheInjectedNetworking() async throws {
        let networking = MockNetworking(body: sampleResponse)
        let store = DependencyStore()
        store.register(networking, for: Networking.self)
        store.register(CoinbaseSpotPriceDecoder(), for: SpotPriceDecoding.self)

        let fetcher = store.execute { CoinbasePriceFetcher(baseURL: URL(string: "https://mirror.example")!, timeout: 2.5) }
        let price = try await fetcher.spotPrice(in: "usd")

        #expect(price.amount == Decimal(string: "15840.01"))
        #expect(networking.requests.map(\.url.absoluteString) == ["https://mirror.example/v2/prices/spot?currency=USD"])
        #expect(networking.requests.first?.timeout == 2.5)
    }

    @Test func aNetworkFailureIsAPriceError() async {
        let store = DependencyStore()
        store.register(MockNetworking(error: .httpStatus(503, url: URL(string: "https://x.example")!)), for: Networking.self)
        store.register(CoinbaseSpotPriceDecoder(), for: SpotPriceDecoding.self)
        let fetcher = store.execute { CoinbasePriceFetcher() }

        await #expect(throws: PriceError.network(.httpStatus(503, url: URL(string: "https://x.example")!))) {
            try await fetcher.spotPrice(in: "USD")
        }
    }
}

@Suite struct PriceFormatterTests {
    @Test func formatsDollarsAndCentsWithGrouping() {
        let formatter = LivePriceFormatter()

        #expect(formatter.format(Decimal(string: "15840.01")!, currency: "USD") == "$15,840.01")
        #expect(formatter.format(Decimal(string: "1234567.5")!, currency: "USD") == "$1,234,567.50")
    }

    @Test func otherCurrenciesUseTheirSymbol() {
        #expect(LivePriceFormatter().format(Decimal(string: "15840.01")!, currency: "EUR") == "€15,840.01")
        #expect(LivePriceFormatter().format(Decimal(string: "15840.01")!, currency: "GBP") == "£15,840.01")
    }

    @Test func aCurrencyWithoutASymbolShowsItsCode() {
        let formatted = LivePriceFormatter().format(Decimal(string: "15840.01")!, currency: "CHF")

        // ICU puts a no-break space between the code and the amount.
        #expect(formatted == "CHF\u{00A0}15,840.01")
    }

    @Test func otherLocalesGroupTheirWay() {
        let german = LivePriceFormatter(locale: Locale(identifier: "de_DE"))

        #expect(german.format(Decimal(string: "15840.01")!, currency: "EUR").contains("15.840,01"))
    }
}

@Suite struct PriceReportTests {
    @Test func combinesTheTokenThePriceAndItsFormatFromTheStore() async throws {
        let store = DependencyStore()
        store.register(MockAccessTokenService(token: "sk-1234567890abf9c2"), for: AccessTokenServiceType.self)
        store.register(MockPriceFetcher(result: .success(SpotPrice(base: "BTC", currency: "USD", amount: 42))), for: PriceFetching.self)
        store.register(MockPriceFormatter(), for: PriceFormatting.self)

        let report = try await store.execute { PriceReport() }.make(currency: "USD")

        #expect(report.token.masked == "sk-1…f9c2")
        #expect(report.formattedPrice == "42 USD")
    }

    @Test func noTokenIsAReportErrorNamingIt() async {
        let store = DependencyStore()
        let missing = AccessTokenError.notFound(environmentVariable: "ACCESS_TOKEN", tokenFile: "/t")
        store.register(MockAccessTokenService(error: missing), for: AccessTokenServiceType.self)
        store.register(MockPriceFetcher(result: .failure(.invalidAmount("x"))), for: PriceFetching.self)
        store.register(MockPriceFormatter(), for: PriceFormatting.self)
        let report = store.execute { PriceReport() }

        await #expect(throws: ReportError.token(missing)) { try await report.make(currency: "USD") }
    }
}

@Suite struct RegisterAllTests {
    @Test func wiresEveryLiveServiceForItsProtocol() {
        let store = DependencyStore()
        store.registerAll()

        #expect(store.resolve(AccessTokenServiceType.self) is LiveAccessTokenService)
        #expect(store.resolve(Networking.self) is URLSessionNetworking)
        #expect(store.resolve(SpotPriceDecoding.self) is CoinbaseSpotPriceDecoder)
        #expect(store.resolve(PriceFetching.self) is CoinbasePriceFetcher)
        #expect(store.resolve(PriceFormatting.self) is LivePriceFormatter)
    }

    @Test func theLiveWiringVerifiesClean() {
        let store = DependencyStore()
        store.registerAll()

        let report = expectVerified(store)

        let edges = Set(report.graph.edges.map { "\($0.from) -> \($0.to)" })
        #expect(edges == [
            "PriceReport -> AccessTokenServiceType", "PriceReport -> PriceFetching", "PriceReport -> PriceFormatting",
            "PriceFetching -> Networking", "PriceFetching -> SpotPriceDecoding",
        ])
        #expect(report.graph.nodes.filter { $0.scope == .singleton }.count == 5)
    }

    @Test func aPriceFileSwapsOnlyTheNetworking() {
        let store = DependencyStore()
        store.registerAll(ServicesConfiguration(priceFile: "/tmp/price.json"))

        #expect(store.resolve(Networking.self) is FileNetworking)
        #expect(store.resolve(PriceFetching.self) is CoinbasePriceFetcher)
    }

    @Test func swappingOnePieceKeepsTheRestLive() async throws {
        let store = DependencyStore()
        store.registerAll(ServicesConfiguration(environment: ["ACCESS_TOKEN": "sk-1234567890abf9c2"]))
        store.register(MockNetworking(body: sampleResponse), for: Networking.self)   // replaces the live one

        let report = try await store.execute { PriceReport() }.make(currency: "USD")

        #expect(report.formattedPrice == "$15,840.01")
    }
}
