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
        (
            #"{"data":{"base":"BTC","currency":"USD","amount":15840.01}}"#,
            .malformedResponse("'data.amount' has the wrong type")
        ),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"lots"}}"#, .invalidAmount("lots")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"12abc"}}"#, .invalidAmount("12abc")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"1.2.3"}}"#, .invalidAmount("1.2.3")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"-5.00"}}"#, .negativeAmount("-5.00")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"1e5"}}"#, .invalidAmount("1e5")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"0x10"}}"#, .invalidAmount("0x10")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":" 1"}}"#, .invalidAmount(" 1")),
        (#"{"data":{"base":"BTC","currency":"USD","amount":"\u0661"}}"#, .invalidAmount("\u{661}")),
        (
            #"{"data":{"base":"BTC","currency":"EUR","amount":"1.00"}}"#,
            .unexpectedCurrency(expected: "USD", received: "EUR")
        ),
        (
            #"{"data":{"base":"ETH","currency":"USD","amount":"1.00"}}"#,
            .unexpectedBase(expected: "BTC", received: "ETH")
        ),
    ])
    func badResponsesAreTypedErrors(json: String, expected: PriceError) {
        #expect(throws: expected) { try decode(json) }
    }

    @Test func theCodesPrintedAreTheOnesAskedForNotTheServersSpelling() throws {
        let price = try decode(#"{"data":{"base":"btc","currency":"usd","amount":"1.00"}}"#)

        #expect(price.pair == "BTC-USD")
    }

    @Test func aCurrencyThatOnlyUppercasesToTheOneAskedForIsRefused() {
        // Swift upper-cases "ſ" (long s) to "S".
        #expect(throws: PriceError.unexpectedCurrency(expected: "USD", received: "u\u{17F}d")) {
            try decode(#"{"data":{"base":"BTC","currency":"u\u017fd","amount":"1.00"}}"#)
        }
    }

    @Test func whatTheServerSendsNeverPutsAControlCharacterInAMessage() throws {
        let hostile = #"\u001b[2J\u001b[31mBTC\nAccess token: sk-FAKE"#
        let responses = [
            #"{"data":{"base":"\#(hostile)","currency":"USD","amount":"1"}}"#,
            #"{"data":{"base":"BTC","currency":"\#(hostile)","amount":"1"}}"#,
            #"{"data":{"base":"BTC","currency":"USD","amount":"\#(hostile)"}}"#,
            #"{"data":{"base":"BTC","currency":"USD","amount":"-1\#(hostile)"}}"#,
            #"{"data":{"base":"BTC","currency":"USD","amount":"\#(String(repeating: "9", count: 5000))"}}"#,
        ]

        for response in responses {
            let error = try #require(thrownError(PriceError.self) { try decode(response) })
            let scalars = error.description.unicodeScalars

            #expect(!scalars.contains { $0.properties.generalCategory == .control }, "\(error)")
            #expect(scalars.count < 300, "a message stays one readable line: \(error)")
        }
        let base = try #require(thrownError(PriceError.self) { try decode(responses[0]) })
        #expect(
            base.description
                == #"asked for the price of BTC but the response is for '\u{1B}[2J\u{1B}[31mBTC\u{A}Access token: sk-FAKE'"#
        )
    }

    @Test(arguments: [
        "9007199254740993",  // 2^53 + 1: the first integer a Double cannot hold
        "12345678901234567.89",
        "15840.10",  // a trailing zero the JSON keeps
        "000123.4500",
        "99999999999999999999999999999999999999",  // 38 digits
        "0.00000000000000000000000000000000000001",
    ])
    func anAmountADecimalHoldsIsKeptExactlyAndDigitForDigit(amount: String) throws {
        let price = try decode(#"{"data":{"base":"BTC","currency":"USD","amount":"\#(amount)"}}"#)

        #expect(price.amountText == amount)
        #expect(price.amount == Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")))
    }

    @Test(arguments: [
        "1234567890123456789012345678901234567891",  // 40 significant digits
        "1.234567890123456789012345678901234567891",
        "0." + String(repeating: "0", count: 140) + "1",  // below the smallest Decimal
    ])
    func anAmountADecimalCannotHoldExactlyIsRefused(amount: String) {
        #expect(throws: PriceError.inexactAmount(amount)) {
            try decode(#"{"data":{"base":"BTC","currency":"USD","amount":"\#(amount)"}}"#)
        }
    }

    @Test func theSampleResponseBuiltIntoTheAppIsTheShippedSampleFile() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/spot-price-usd.json")
        let shipped = try String(contentsOf: file, encoding: .utf8)

        #expect(shipped.trimmingCharacters(in: .newlines) == SampleNetworking.response)
    }
}

@Suite struct PriceFetcherTests {
    @Test func asksTheSpotPriceEndpointThroughTheInjectedNetworking() async throws {
        let networking = MockNetworking(body: sampleResponse)
        let store = DependencyStore()
        store.register(networking, for: Networking.self)
        store.register(CoinbaseSpotPriceDecoder(), for: SpotPriceDecoding.self)

        let fetcher = await store.execute {
            CoinbasePriceFetcher(baseURL: URL(string: "https://mirror.example")!, timeout: 2.5)
        }
        let price = try await fetcher.spotPrice(in: "usd")

        #expect(price.amount == Decimal(string: "15840.01"))
        #expect(networking.requests.map(\.url.absoluteString) == ["https://mirror.example/v2/prices/spot?currency=USD"])
        #expect(networking.requests.first?.timeout == 2.5)
    }

    @Test func aNetworkFailureIsAPriceError() async {
        let store = DependencyStore()
        store.register(
            MockNetworking(error: .httpStatus(503, url: URL(string: "https://x.example")!)), for: Networking.self)
        store.register(CoinbaseSpotPriceDecoder(), for: SpotPriceDecoding.self)
        let fetcher = await store.execute { CoinbasePriceFetcher() }

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
        #expect(
            german.format(Decimal(string: "12345678901234567.89")!, currency: "EUR")
                .contains("12.345.678.901.234.567,89"))
    }

    @Test(arguments: [
        ("9007199254740993", "$9,007,199,254,740,993.00"),
        ("12345678901234567.89", "$12,345,678,901,234,567.89"),
        ("99999999999999999999999999999999999999", "$99,999,999,999,999,999,999,999,999,999,999,999,999.00"),
        ("0", "$0.00"),
        ("0.5", "$0.50"),
        ("999", "$999.00"),
        ("1000", "$1,000.00"),
    ])
    func formatsEveryDigitOfTheAmountExactly(amount: String, formatted: String) {
        #expect(LivePriceFormatter().format(Decimal(string: amount)!, currency: "USD") == formatted)
    }

    @Test(arguments: [
        ("0.125", "$0.12"),  // a tie goes to the even digit
        ("0.135", "$0.14"),
        ("0.1251", "$0.13"),  // past the tie: up
        ("0.124999", "$0.12"),
        ("999.995", "$1,000.00"),
        ("9007199254740992.995", "$9,007,199,254,740,993.00"),
    ])
    func roundsToCentsHalfToEven(amount: String, formatted: String) {
        #expect(LivePriceFormatter().format(Decimal(string: amount)!, currency: "USD") == formatted)
    }
}

@Suite struct PriceReportTests {
    @Test func combinesTheTokenThePriceAndItsFormatFromTheStore() async throws {
        let store = DependencyStore()
        store.register(MockAccessTokenService(token: "sk-1234567890abf9c2"), for: AccessTokenServiceType.self)
        store.register(
            MockPriceFetcher(result: .success(SpotPrice(base: "BTC", currency: "USD", amount: 42))),
            for: PriceFetching.self)
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
        let report = await store.execute { PriceReport() }

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
        #expect(
            edges == [
                "PriceReport -> AccessTokenServiceType", "PriceReport -> PriceFetching",
                "PriceReport -> PriceFormatting",
                "PriceFetching -> Networking", "PriceFetching -> SpotPriceDecoding",
            ])
        #expect(report.graph.nodes.filter { $0.scope == .singleton }.count == 5)
    }

    @Test func theDemoSwapsTheTokenAndTheNetworkingForBuiltInSamples() async throws {
        let store = DependencyStore()
        store.registerAll(ServicesConfiguration(demo: true, tokenFile: "/nonexistent", environment: [:]))

        let report = try await store.execute { PriceReport() }.make(currency: "USD")

        #expect(store.resolve(Networking.self) is SampleNetworking)
        #expect(store.resolve(AccessTokenServiceType.self) is DemoAccessTokenService)
        #expect(report.token == DemoAccessTokenService.token)
        #expect(report.formattedPrice == "$15,840.01")
        expectVerified(store)
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
        store.register(MockNetworking(body: sampleResponse), for: Networking.self)  // replaces the live one

        let report = try await store.execute { PriceReport() }.make(currency: "USD")

        #expect(report.formattedPrice == "$15,840.01")
    }
}
