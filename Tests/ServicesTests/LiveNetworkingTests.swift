import DependencyStore
import Foundation
import Services
import Testing

/// The live networking and price fetcher against a real HTTP server on 127.0.0.1, one path per
/// server behaviour.
@Suite struct LiveNetworkingTests {
    private static let total64MiB = 64 << 20

    private func server() throws -> TestHTTPServer {
        try TestHTTPServer { path in
            switch path {
            case let path where path.hasPrefix("/ok/"): .json(sampleResponse)
            case let path where path.hasPrefix("/no-length/"): .body(status: 200, Data(sampleResponse.utf8), contentLength: false)
            case let path where path.hasPrefix("/error/"): .json(#"{"errors":[{"message":"boom"}]}"#, status: 500)
            case let path where path.hasPrefix("/slow/"): .delayed(seconds: 2, .json(sampleResponse))
            // A byte every 0.2 s: URLSession on Linux restarts its timeout on every chunk, so
            // only a deadline of our own ends this before the 12 s it takes.
            case let path where path.hasPrefix("/trickle/"): .trickle(Data(sampleResponse.utf8), interval: 0.2)
            case let path where path.hasPrefix("/garbage/"): .json("<html>not a price</html>")
            case let path where path.hasPrefix("/huge-with-length/"): .stream(bytes: Self.total64MiB, contentLength: true)
            case let path where path.hasPrefix("/huge-without-length/"): .stream(bytes: Self.total64MiB, contentLength: false)
            default: .json("{}", status: 404)
            }
        }
    }

    private func endpoint(_ server: TestHTTPServer, _ path: String, timeout: TimeInterval = 5) -> Endpoint {
        Endpoint(url: server.url(path), timeout: timeout, maxResponseBytes: 64 << 10)
    }

    @Test func returnsTheBodyOfA200WithOrWithoutContentLength() async throws {
        let server = try server()
        defer { server.stop() }

        #expect(try await URLSessionNetworking().data(for: endpoint(server, "/ok/")) == Data(sampleResponse.utf8))
        #expect(try await URLSessionNetworking().data(for: endpoint(server, "/no-length/")) == Data(sampleResponse.utf8))
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

        await #expect(throws: NetworkError.responseTooLarge(url: server.url(path), limit: 64 << 10)) {
            try await URLSessionNetworking().data(for: endpoint(server, path))
        }

        // Counted the moment the error arrives. The server paces its 64 MiB over two seconds or
        // more, so a client that took the whole body before checking its size would have let it
        // all through by now; one that checks as bytes arrive stops after the first chunks.
        let sent = server.bodyBytesSent(toPathsStartingWith: path)
        #expect(sent < Self.total64MiB / 2, "the client must refuse the body early; the server had sent \(sent) bytes")
    }

    @Test func anUnreachableHostIsSaidToBeUnreachable() async throws {
        let server = try server()
        let closedPort = server.url("/ok/")
        server.stop()

        await #expect {
            try await URLSessionNetworking().data(for: Endpoint(url: closedPort, timeout: 5))
        } throws: { error in
            if case .unreachable = error as? NetworkError { return true }
            return false
        }
    }

    @Test func theLivePriceFetcherReadsARealResponse() async throws {
        let server = try server()
        defer { server.stop() }
        let store = DependencyStore()
        store.registerAll(ServicesConfiguration(endpoint: server.url("/ok")))

        let price = try await store.resolve(PriceFetching.self).spotPrice(in: "USD")

        #expect(price == SpotPrice(base: "BTC", currency: "USD", amount: Decimal(string: "15840.01")!))
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
