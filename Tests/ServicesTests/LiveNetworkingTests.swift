import DependencyStore
import Foundation
import Services
import Testing

/// The live networking and price fetcher against a real HTTP server on 127.0.0.1, one path per
/// server behaviour, hostile ones included.
@Suite struct LiveNetworkingTests {
    private static let total64MiB = 64 << 20

    /// `closedPort` is where the redirect to a closed port points.
    private func server(closedPort: URL? = nil) throws -> TestHTTPServer {
        try TestHTTPServer { path in
            switch path {
            case let path where path.hasPrefix("/gzip-bomb/"): .gzipBomb(inflatedBytes: 200 << 20)
            case let path where path.hasPrefix("/long-chunked/"): .chunked(bytes: 100 << 20)
            case let path where path.hasPrefix("/redirect-to-file/"): .redirect(to: "file:///etc/passwd")
            case let path where path.hasPrefix("/redirect-to-closed-port/"):
                .redirect(to: closedPort?.absoluteString ?? "")
            case let path where path.hasPrefix("/redirect-to-ok/"): .redirect(to: "/ok/")
            case let path where path.hasPrefix("/control-characters/"):
                .json(
                    #"{"data":{"base":"\u001b[2J\u001b[31mBTC\nAccess token: sk-FAKE","currency":"USD","amount":"1"}}"#)
            case let path where path.hasPrefix("/wrong-base/"):
                .json(#"{"data":{"base":"ETH","currency":"USD","amount":"1"}}"#)
            case let path where path.hasPrefix("/lower-case-currency/"):
                .json(#"{"data":{"base":"BTC","currency":"usd","amount":"15840.01"}}"#)
            case let path where path.hasPrefix("/large-amount/"):
                .json(#"{"data":{"base":"BTC","currency":"USD","amount":"9007199254740993.10"}}"#)
            case let path where path.hasPrefix("/over-long-amount/"):
                .json(#"{"data":{"base":"BTC","currency":"USD","amount":"1234567890123456789012345678901234567891"}}"#)
            case let path where path.hasPrefix("/ok/"): .json(sampleResponse)
            case let path where path.hasPrefix("/no-length/"):
                .body(status: 200, Data(sampleResponse.utf8), contentLength: false)
            case let path where path.hasPrefix("/error/"): .json(#"{"errors":[{"message":"boom"}]}"#, status: 500)
            case let path where path.hasPrefix("/slow/"): .delayed(seconds: 2, .json(sampleResponse))
            // A byte every 0.2 s: URLSession on Linux restarts its timeout on every chunk, so
            // only a deadline of our own ends this before the 12 s it takes.
            case let path where path.hasPrefix("/trickle/"): .trickle(Data(sampleResponse.utf8), interval: 0.2)
            case let path where path.hasPrefix("/garbage/"): .json("<html>not a price</html>")
            // 64 MiB of body, of which the server sends 1 MiB and then waits for the client.
            case let path where path.hasPrefix("/huge-with-length/"):
                .stalledStream(bytes: Self.total64MiB, sending: 1 << 20, contentLength: true)
            case let path where path.hasPrefix("/huge-without-length/"):
                .stalledStream(bytes: Self.total64MiB, sending: 1 << 20, contentLength: false)
            default: .json("{}", status: 404)
            }
        }
    }

    /// A request that should get its answer: its timeout only turns a hang into a failure, so it
    /// is long. Beside a busy loop on each core, a redirect took more than 5 s to be followed here.
    private func endpoint(_ server: TestHTTPServer, _ path: String, timeout: TimeInterval = 30) -> Endpoint {
        Endpoint(url: server.url(path), timeout: timeout, maxResponseBytes: 64 << 10)
    }

    @Test func returnsTheBodyOfA200WithOrWithoutContentLength() async throws {
        let server = try server()
        defer { server.stop() }

        #expect(try await URLSessionNetworking().data(for: endpoint(server, "/ok/")) == Data(sampleResponse.utf8))
        #expect(
            try await URLSessionNetworking().data(for: endpoint(server, "/no-length/")) == Data(sampleResponse.utf8))
    }

    @Test func aNon2xxStatusIsAnErrorCarryingIt() async throws {
        let server = try server()
        defer { server.stop() }

        await #expect(throws: NetworkError.httpStatus(500, url: server.url("/error/"))) {
            try await URLSessionNetworking().data(for: endpoint(server, "/error/"))
        }
    }

    @Test func aSlowServerTimesOutAtTheDeadline() async throws {
        let server = try server()
        defer { server.stop() }

        await #expect(throws: NetworkError.timedOut(url: server.url("/slow/"), after: 0.5)) {
            try await URLSessionNetworking().data(for: endpoint(server, "/slow/", timeout: 0.5))
        }
    }

    @Test func aTricklingServerTimesOutAtTheDeadlineThoughBytesKeepArriving() async throws {
        let server = try server()
        defer { server.stop() }

        await #expect(throws: NetworkError.timedOut(url: server.url("/trickle/"), after: 1)) {
            try await URLSessionNetworking().data(for: endpoint(server, "/trickle/", timeout: 1))
        }
    }

    @Test(arguments: ["/huge-with-length/", "/huge-without-length/"])
    func anOversizedBodyIsRefusedWhileItStreams(path: String) async throws {
        let server = try server()
        defer { server.stop() }

        // The server sends 1 MiB, sixteen times the limit, then nothing until the client goes:
        // a client that checks the size as bytes arrive refuses the body there, and one that took
        // the whole body before checking would wait for the rest until its timeout, and fail with
        // `timedOut`. The verdict does not depend on how fast either side runs.
        await #expect(throws: NetworkError.responseTooLarge(url: server.url(path), limit: 64 << 10)) {
            try await URLSessionNetworking().data(for: endpoint(server, path))
        }
    }

    @Test func anUnreachableHostIsSaidToBeUnreachable() async throws {
        let closed = try ClosedPort()

        await #expect(
            throws: NetworkError.unreachable(
                url: closed.url("/ok/"), reason: "nothing answered there (connection refused)")
        ) {
            // A refusal comes at once; the timeout only bounds a machine so loaded (the whole
            // suite under the thread sanitizer on two cores) that it comes late.
            try await URLSessionNetworking().data(for: Endpoint(url: closed.url("/ok/"), timeout: 30))
        }
    }

    @Test(arguments: ["/gzip-bomb/", "/long-chunked/"])
    func aBodyThatGrowsPastTheCapAsItArrivesIsRefused(path: String) async throws {
        let server = try server()
        defer { server.stop() }

        // 200 MB inflated from 1.3 MB of gzip, or 100 MB in chunks: refused at the 64 KiB cap,
        // counted after decompression. CLITests measures the memory this takes.
        await #expect(throws: NetworkError.responseTooLarge(url: server.url(path), limit: 64 << 10)) {
            try await URLSessionNetworking().data(for: endpoint(server, path))
        }
    }

    @Test func aRedirectToAFileURLIsRefusedByName() async throws {
        let server = try server()
        defer { server.stop() }
        let url = server.url("/redirect-to-file/")

        let error = try #require(
            await thrownError(NetworkError.self) {
                try await URLSessionNetworking().data(for: endpoint(server, "/redirect-to-file/"))
            })

        #expect(error == .redirectRefused(from: url, to: "file:///etc/passwd", reason: .notHTTP))
        #expect(
            error.description == "\(url.absoluteString) redirected to file:///etc/passwd, which is not an http or "
                + "https URL, so the redirect was not followed")
    }

    @Test func aRedirectToAClosedPortNamesWhereItLed() async throws {
        let closed = try ClosedPort()
        let closedURL = closed.url("/elsewhere")
        let server = try server(closedPort: closedURL)
        defer { server.stop() }
        let url = server.url("/redirect-to-closed-port/")

        let error = try #require(
            await thrownError(NetworkError.self) {
                try await URLSessionNetworking().data(for: endpoint(server, "/redirect-to-closed-port/"))
            })

        #expect(
            error
                == .unreachable(
                    url: closedURL, reason: "nothing answered there (connection refused)", redirectedFrom: url))
        #expect(
            error.description.hasPrefix(
                "cannot reach 127.0.0.1:\(closed.port) (where \(url.absoluteString) redirected)"))
    }

    @Test func aRedirectWithinHTTPIsFollowed() async throws {
        let server = try server()
        defer { server.stop() }

        #expect(
            try await URLSessionNetworking().data(for: endpoint(server, "/redirect-to-ok/"))
                == Data(sampleResponse.utf8))
    }

    /// The price the live fetcher reads from `path` on a fresh server, in USD.
    private func livePrice(_ path: String) async throws -> SpotPrice {
        let server = try server()
        defer { server.stop() }
        let store = DependencyStore()
        store.registerAll(ServicesConfiguration(endpoint: server.url(path)))
        return try await store.resolve(PriceFetching.self).spotPrice(in: "USD")
    }

    @Test(arguments: [
        (
            "/control-characters",
            PriceError.unexpectedBase(expected: "BTC", received: "\u{1B}[2J\u{1B}[31mBTC\nAccess token: sk-FAKE")
        ),
        ("/wrong-base", .unexpectedBase(expected: "BTC", received: "ETH")),
        ("/over-long-amount", .inexactAmount("1234567890123456789012345678901234567891")),
    ])
    func hostileFieldsAreErrorsWhoseMessagesCarryNoControlCharacter(path: String, expected: PriceError) async throws {
        let error = try #require(await thrownError(PriceError.self) { try await livePrice(path) })

        #expect(error == expected)
        #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func aLowerCaseCurrencyIsTheOneAskedForAndALargeAmountStaysExact() async throws {
        let lowerCase = try await livePrice("/lower-case-currency")
        let large = try await livePrice("/large-amount")

        #expect(lowerCase.pair == "BTC-USD")
        #expect(large.amountText == "9007199254740993.10")
        #expect(LivePriceFormatter().format(large.amount, currency: large.currency) == "$9,007,199,254,740,993.10")
    }

    @Test func theLivePriceFetcherReadsARealResponse() async throws {
        let server = try server()
        defer { server.stop() }
        let store = DependencyStore()
        store.registerAll(ServicesConfiguration(endpoint: server.url("/ok")))

        let price = try await store.resolve(PriceFetching.self).spotPrice(in: "USD")

        #expect(price == SpotPrice(base: "BTC", currency: "USD", amount: Decimal(string: "15840.01")!))
    }

    // MARK: - Closed by the store that keeps it

    /// A server whose every reply waits `seconds`, and that says when a request has arrived.
    private func slowServer(replyingAfter seconds: TimeInterval, arrived: Flag) throws -> TestHTTPServer {
        try TestHTTPServer { _ in
            arrived.raise()
            return .delayed(seconds: seconds, .json(sampleResponse))
        }
    }

    @Test func aShutdownLetsTheRequestUnderWayFinishThenRefusesNewOnes() async throws {
        let arrived = Flag()
        let server = try slowServer(replyingAfter: 0.5, arrived: arrived)
        defer { server.stop() }
        let store = DependencyStore()
        store.register(URLSessionNetworking(), for: Networking.self, scope: .singleton)
        let networking = store.resolve(Networking.self)
        let underWay = Task { try await networking.data(for: endpoint(server, "/ok/")) }
        try await waitUntil("the request reached the server") { arrived.isRaised }

        // The deadline only turns a close that never ends into a failure: a slow machine must not
        // reach it while the request takes its 0.5 s.
        let report = await store.shutdown(timeout: 60)

        #expect(report.closed == 1)
        #expect(report.failures.isEmpty)
        #expect(try await underWay.value == Data(sampleResponse.utf8), "the close waited for it to finish")
        let refused = try #require(
            await thrownError(NetworkError.self) {
                try await networking.data(for: endpoint(server, "/ok/"))
            })
        #expect(refused.description.contains("the networking was closed: the store that owned it let go of it"))
    }

    @Test func aShutdownWhoseDeadlinePassesCancelsTheRequestUnderWay() async throws {
        let arrived = Flag()
        // Neither the reply (it comes when the server stops) nor the request's own deadline can end
        // the request first, however slow the machine: only the shutdown's cancel. The request's
        // deadline, which would end it as timed out, only turns a cancel that never comes into a
        // failure. (Beside busy loops, 20 s of it passed before the cancel did.)
        let server = try slowServer(replyingAfter: 3_600, arrived: arrived)
        defer { server.stop() }
        let store = DependencyStore()
        store.register(URLSessionNetworking(), for: Networking.self, scope: .singleton)
        let networking = store.resolve(Networking.self)
        let underWay = Task { try await networking.data(for: endpoint(server, "/ok/", timeout: 120)) }
        try await waitUntil("the request reached the server") { arrived.isRaised }

        let report = await store.shutdown(timeout: 0.5)

        #expect(report.missedDeadline == ["Networking"])
        await #expect(throws: NetworkError.transport(url: server.url("/ok/"), reason: "cancelled")) {
            try await underWay.value
        }
    }

    @Test func theNetworkingRegisterAllWiresIsClosedWhenItsStoreGoes() async throws {
        let server = try server()
        defer { server.stop() }
        var store: DependencyStore? = DependencyStore()
        store!.registerAll(ServicesConfiguration(endpoint: server.url("/ok")))
        let networking = store!.resolve(Networking.self)
        #expect(try await networking.data(for: endpoint(server, "/ok/")) == Data(sampleResponse.utf8))

        store = nil

        // The close is async, so the store's end starts it in a task: new requests are refused
        // once it has run.
        try await waitUntil("the networking to be closed") {
            await (try? networking.data(for: endpoint(server, "/ok/"))) == nil
        }
    }

    @Test func theLivePriceFetcherTurnsGarbageIntoATypedError() async throws {
        let server = try server()
        defer { server.stop() }
        let store = DependencyStore()
        store.registerAll(ServicesConfiguration(endpoint: server.url("/garbage")))

        await #expect(throws: PriceError.malformedResponse("it is not JSON")) {
            try await store.resolve(PriceFetching.self).spotPrice(in: "USD")
        }
    }
}

/// Waits, polling, until `condition` holds; after `seconds` of polling it throws, so a test that
/// waits for something that never comes fails instead of hanging.
///
/// The bound is a count of polls, each at least 5 ms apart, not a time of day: when the whole
/// suite runs under the thread sanitizer, the concurrency pool's threads can all be held by other
/// tests for longer than the bound, and neither this loop nor the work it waits for runs
/// meanwhile. A clock read on resuming would then find the time up before the work had a chance.
func waitUntil(
    _ what: String, within seconds: Double = 20, _ condition: () async -> Bool
) async throws {
    let polls = Int(seconds / 0.005)
    var polled = 0
    while await !condition() {
        polled += 1
        guard polled < polls else { throw WaitedTooLong(what: what, seconds: seconds) }
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}

struct WaitedTooLong: Error, CustomStringConvertible {
    let what: String
    let seconds: Double
    var description: String { "polled \(seconds) s for \(what)" }
}

/// Set once from any thread, read from another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func raise() { lock.withLock { raised = true } }

    var isRaised: Bool { lock.withLock { raised } }
}
