import DependencyStore
import Foundation
import Services
import Testing

@testable import PriceServer

/// The handlers as the routes call them, without a server: what a request's store gives them,
/// and what each failure answers.
@Suite struct HandlerTests {
    let demo = ServicesConfiguration(demo: true)

    /// A request's store over `app`, with the values the middleware and the route register.
    func requestStore(over app: DependencyStore, id: String, currency: Currency = .default) -> DependencyStore {
        let store = DependencyStore(parent: app)
        store.register(RequestIdentifier(id), for: RequestIdentifier.self)
        store.register(currency, for: Currency.self)
        return store
    }

    @Test func answersTheSamplePriceInDemoMode() async throws {
        let store = requestStore(over: StoreWiredServer.appStore(demo), id: "r-1")
        let body = try await store.execute { try await InjectedPriceHandler().respond() }
        #expect(
            body
                == PriceBody(
                    pair: "BTC-USD", base: "BTC", currency: "USD", amount: "15840.01", formatted: "$15,840.01",
                    source: "sample", requestID: "r-1"))
    }

    @Test func answersTheDemoTokenMasked() throws {
        let store = requestStore(over: StoreWiredServer.appStore(demo), id: "r-2")
        let body = try store.execute { try InjectedTokenHandler().respond() }
        #expect(body == TokenBody(token: "sk-d…f9c2", source: "demo", requestID: "r-2"))
        #expect(!body.token.contains(DemoAccessTokenService.token.value))
    }

    @Test func bothWiringsAnswerAlike() async throws {
        let store = requestStore(over: StoreWiredServer.appStore(demo), id: "r-3")
        let wiredThroughTheStore = try await store.execute { try await InjectedPriceHandler().respond() }
        let handWired = try await PriceHandler(
            prices: HandWiredPriceFetcher(
                networking: SampleNetworking(), decoder: CoinbaseSpotPriceDecoder(), endpoints: CoinbasePriceFetcher()),
            formatter: LivePriceFormatter(), mode: .demo, currency: .default, requestID: RequestIdentifier("r-3")
        ).respond()
        #expect(wiredThroughTheStore == handWired)
    }

    @Test func eachRequestSeesOnlyItsOwnValues() async throws {
        let app = StoreWiredServer.appStore(demo)
        let ids = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<200 {
                group.addTask {
                    let id = "r-\(index)"
                    let store = requestStore(over: app, id: id)
                    let body = try await store.execute { try await InjectedPriceHandler().respond() }
                    return (id, body.requestID)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(ids.count == 200)
        #expect(ids.allSatisfy { $0.0 == $0.1 })
        // Request values were registered in the request stores only.
        #expect(!app.isRegistered(RequestIdentifier.self))
        #expect(!app.isRegistered(Currency.self))
    }

    @Test func aMissingRegistrationIsA500ThatCarriesTheStoresDiagnostic() async throws {
        // The app's store as a server would fill it if it forgot its own mode.
        let app = DependencyStore()
        app.registerAll(demo)
        let store = requestStore(over: app, id: "r-4")
        let error = await #expect(throws: APIError.self) {
            try await store.execute { try await InjectedPriceHandler().respond() }
        }
        #expect(error?.status == .internalServerError)
        #expect(error?.message.contains("ServerMode") == true)
        let diagnostic = try #require(error?.diagnostic)
        #expect(diagnostic.contains("ServerMode"))
        #expect(diagnostic.contains("To fix"))
    }

    @Test func theDemoRefusesACurrencyItsSampleIsNotIn() async throws {
        let store = requestStore(
            over: StoreWiredServer.appStore(demo), id: "r-5", currency: try Currency(parsing: "eur"))
        let error = await #expect(throws: APIError.self) {
            try await store.execute { try await InjectedPriceHandler().respond() }
        }
        #expect(error?.status == .badRequest)
        #expect(error?.message.contains("in USD only, not EUR") == true)
    }

    @Test func aCurrencyIsThreeLetters() throws {
        #expect(try Currency(parsing: "eur").code == "EUR")
        for bad in ["12", "", "EURO", "U$D", "ÉUR"] {
            let error = #expect(throws: APIError.self) { try Currency(parsing: bad) }
            #expect(error?.status == .badRequest)
            #expect(error?.message.contains("three-letter ISO 4217 code") == true)
            #expect(error?.message.contains("not '\(bad)'") == true)
        }
    }

    @Test func aLiveServerWithoutATokenAnswers503WithTheReason() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        let app = StoreWiredServer.appStore(ServicesConfiguration(tokenFile: missing, environment: [:]))
        let store = requestStore(over: app, id: "r-6")
        let error = #expect(throws: APIError.self) { try store.execute { try InjectedTokenHandler().respond() } }
        #expect(error?.status == .serviceUnavailable)
        #expect(error?.message.contains("ACCESS_TOKEN is not set") == true)
    }
}
