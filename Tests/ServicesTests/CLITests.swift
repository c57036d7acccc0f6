// The CLI is run as a child process, which iOS, tvOS and watchOS do not allow.
#if os(macOS) || os(Linux)
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `access-token-cli`, run as a subprocess the way a user runs it.
@Suite struct CLITests {
    /// The shipped sample: `Samples/spot-price-usd.json` at the repository root.
    static let sample = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/spot-price-usd.json").path

    static let token = "sk-1234567890abf9c2"

    /// Runs the CLI with `arguments` in an environment of only `environment` (plus a HOME with no
    /// token file), stdout and stderr captured unless sent elsewhere, and waits for it.
    func run(
        _ arguments: [String],
        environment: [String: String] = ["ACCESS_TOKEN": token],
        stdout: ChildProcess.Output = .captured,
        stderr: ChildProcess.Output = .captured
    ) async throws -> ChildProcess.Result {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        // A CLI built with a sanitizer, as the suite is in CI's sanitizer steps, gets the same
        // options as the suite: AddressSanitizer's leak report would otherwise end every run.
        let sanitizerOptions = ProcessInfo.processInfo.environment.filter {
            ["ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
        }
        return try await ChildProcess.run(
            ChildProcess.binary(named: "access-token-cli"),
            arguments,
            // No backtracer: its report of a crash would mix into the stderr under test, and under
            // the thread sanitizer its helper can hang.
            environment: ["HOME": home, "SWIFT_BACKTRACE": "enable=no"].merging(sanitizerOptions) { $1 }
                .merging(environment) { $1 },
            stdout: stdout,
            stderr: stderr
        )
    }

    /// A file in a fresh temporary directory.
    func file(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: - The first run

    @Test func theDemoRunsWithNoTokenNoNetworkAndSaysItsPriceIsASample() async throws {
        let result = try await run(["--demo"], environment: [:])

        #expect(result.status == 0)
        #expect(result.stdout == "Access token: sk-d…f9c2 (demo token)\nBTC-USD $15,840.01 (sample price, not live)\n")
        #expect(result.stderr == "")
    }

    @Test func theDemoInJSONSaysItsSourceIsTheSample() async throws {
        let result = try await run(["--demo", "--json"], environment: [:])

        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])
        #expect(object["source"] == "sample")
        #expect(object["token"] == "sk-d…f9c2")
    }

    @Test func aPriceFromAFileSaysItIsNotLive() async throws {
        let result = try await run(["--price-file", Self.sample])

        #expect(result.status == 0)
        #expect(result.stdout == "Access token: sk-1…f9c2\nBTC-USD $15,840.01 (from \(Self.sample), not live)\n")
        #expect(result.stderr == "")
    }

    @Test func revealsTheWholeTokenWhenAsked() async throws {
        let result = try await run(["--price-file", Self.sample, "--reveal-token"])

        #expect(result.stdout.hasPrefix("Access token: \(Self.token)\n"))
    }

    @Test func printsOneJSONObjectWithTheServersAmountDigitForDigit() async throws {
        let prices = try file(#"{"data":{"base":"BTC","currency":"USD","amount":"9007199254740993.10"}}"#)

        let result = try await run(["--price-file", prices, "--json"])

        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])
        #expect(
            object == [
                "token": "sk-1…f9c2", "pair": "BTC-USD", "base": "BTC", "currency": "USD", "source": "file",
                "amount": "9007199254740993.10", "formatted": "$9,007,199,254,740,993.10",
            ])
    }

    @Test func fetchesOverHTTPFromAnotherEndpointAsALivePrice() async throws {
        let server = try TestHTTPServer { path in
            path == "/v2/prices/spot?currency=USD" ? .json(sampleResponse) : .json("{}", status: 404)
        }
        defer { server.stop() }

        // A timeout given, and long: it only turns a hang into a failure on a loaded machine.
        let result = try await run(["--endpoint", server.url().absoluteString, "--timeout", "30"])

        #expect(result.status == 0)
        #expect(result.stdout == "Access token: sk-1…f9c2\nBTC-USD $15,840.01\n")
    }

    // MARK: - What the server sends

    @Test func nothingTheServerSendsReachesTheTerminalRaw() async throws {
        let hostile = #"\u001b[2J\u001b[31mBTC\nAccess token: sk-FAKE"#
        let server = try TestHTTPServer { path in
            switch path {
            case let path where path.hasPrefix("/base/"):
                .json(#"{"data":{"base":"\#(hostile)","currency":"USD","amount":"1"}}"#)
            case let path where path.hasPrefix("/currency/"):
                .json(#"{"data":{"base":"BTC","currency":"\#(hostile)","amount":"1"}}"#)
            default: .json(#"{"data":{"base":"BTC","currency":"USD","amount":"\#(hostile)"}}"#)
            }
        }
        defer { server.stop() }

        for path in ["/base", "/currency", "/amount"] {
            let result = try await run(["--endpoint", server.url(path).absoluteString])

            #expect(result.status == 1)
            #expect(result.stdout == "")
            #expect(!result.stderr.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    /// Peak memory of the child, which gets each of these bodies; the cap is 64 KiB.
    @Test(arguments: [
        ("/gzip-bomb/", TestHTTPServer.Reply.gzipBomb(inflatedBytes: 200 << 20)),
        ("/long-chunked/", .chunked(bytes: 100 << 20)),
    ])
    func memoryStaysBoundedWhateverArrives(path: String, reply: TestHTTPServer.Reply) async throws {
        let server = try TestHTTPServer { _ in reply }
        defer { server.stop() }
        let baseline = try await run(["--demo"])

        let result = try await run(["--endpoint", server.url(path).absoluteString])

        #expect(result.status == 1)
        #expect(result.stderr.contains("is larger than 65536 bytes, so it was refused"))
        // Before back-pressure these reached 251 MB and 145 MB. A sanitizer's runtime raises the
        // baseline itself, so the bound is 64 MB or 32 MB over the baseline, whichever is more.
        // Under the thread sanitizer (the CLI is built with it too), its shadow memory and
        // allocator add more for a body than for `--demo`: here 99 to 108 MB against a baseline
        // of 63 MB, so the margin is 64 MB there; without back-pressure the peak is over twice that.
        let margin = Self.underThreadSanitizer ? 64 << 20 : 32 << 20
        let bound = max(64 << 20, baseline.peakMemory + margin)
        #expect(
            result.peakMemory < bound, "peak \(result.peakMemory >> 20) MB; baseline \(baseline.peakMemory >> 20) MB")
    }

    /// Whether this process, and so the CLI built with it, runs under the thread sanitizer: its
    /// runtime's entry point is among the process's symbols.
    static let underThreadSanitizer: Bool = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        return dlsym(everywhere, "__tsan_init") != nil
    }()

    // MARK: - Failures at run time

    @Test func noTokenExitsWith1AndSaysWhereItLooked() async throws {
        let result = try await run(["--price-file", Self.sample], environment: [:])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("access-token-cli: error: no access token: ACCESS_TOKEN is not set and "))
        #expect(result.stderr.contains("/.config/access-token-cli/token does not exist"))
    }

    @Test func anHTTPErrorExitsWith1AndPrintsNoPrice() async throws {
        let server = try TestHTTPServer { _ in .json(#"{"errors":[]}"#, status: 500) }
        defer { server.stop() }

        let result = try await run(["--endpoint", server.url().absoluteString])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == "access-token-cli: error: the server answered HTTP 500 for "
                + "\(server.url().absoluteString)/v2/prices/spot?currency=USD\n")
    }

    @Test func aTimeoutExitsWith1() async throws {
        let server = try TestHTTPServer { _ in .delayed(seconds: 2, .json(sampleResponse)) }
        defer { server.stop() }

        let result = try await run(["--endpoint", server.url().absoluteString, "--timeout", "0.3"])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("within 0.3 seconds"))
    }

    @Test func badDataExitsWith1() async throws {
        let prices = try file(#"{"data":{"base":"BTC","currency":"USD","amount":"-1"}}"#)

        let result = try await run(["--price-file", prices])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "access-token-cli: error: the spot-price response's amount -1 is negative\n")
    }

    @Test func aPriceFileThatIsNotAFileIsNamedForWhatItIs() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        try #require(mkfifo(fifo, 0o600) == 0)
        let directory = FileManager.default.temporaryDirectory.path

        let cases = [
            (directory, "it is a directory, not a file"),
            (fifo, "it is a FIFO (named pipe), not a file"),
            ("/dev/zero", "it is a character device, not a file"),
            ("/nonexistent/prices.json", "no such file"),
        ]
        for (path, reason) in cases {
            let result = try await run(["--price-file", path])

            #expect(result.status == 1)
            #expect(result.stderr == "access-token-cli: error: cannot read \(path): \(reason)\n")
        }
    }

    @Test func aTokenFileThatIsADirectoryIsNamedForWhatItIs() async throws {
        let directory = FileManager.default.temporaryDirectory.path

        let result = try await run(["--price-file", Self.sample, "--token-file", directory], environment: [:])

        #expect(result.status == 1)
        #expect(
            result.stderr
                == "access-token-cli: error: cannot read the token file \(directory): it is a directory, not a file\n")
    }

    // MARK: - Output that cannot be written

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullStdoutIsAnErrorOnStderr() async throws {
        let result = try await run(["--demo"], stdout: .path("/dev/full"))

        #expect(result.status == 1)
        #expect(result.stderr == "access-token-cli: error: cannot write to standard output: No space left on device\n")
    }

    @Test func aClosedPipeOnStdoutEndsQuietlyBySIGPIPE() async throws {
        let result = try await run(["--demo"], stdout: .closedPipe)

        #expect(result.signal == SIGPIPE)
        #expect(result.stderr == "")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullStderrNeverCrashes() async throws {
        let usage = try await run(["--bogus"], stderr: .path("/dev/full"))
        let runtime = try await run(["--price-file", "/nonexistent"], stderr: .path("/dev/full"))

        #expect(usage.status == 64)
        #expect(runtime.status == 1)
    }

    // MARK: - The command line

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["stray"], "unexpected argument 'stray'"),
        (["--currency=EUR"], "unknown option '--currency=EUR' (write the value after a space: --currency VALUE)"),
        (["--currency"], "--currency needs a value"),
        (["--currency", "DOLLARS"], "--currency must be a three-letter ISO 4217 code"),
        (["--token-file", "--json"], "--token-file needs a value"),
        (["--price-file", ""], "--price-file needs a path, not an empty string"),
        (["--token-file", ""], "--token-file needs a path, not an empty string"),
        (["--timeout", "soon"], "--timeout must be a decimal number of seconds from 0.1 to 3600"),
        (["--timeout", "-1"], "--timeout must be a decimal number of seconds from 0.1 to 3600"),
        (["--timeout", "0x10"], "--timeout must be a decimal number of seconds from 0.1 to 3600"),
        (["--timeout", "1e-300"], "--timeout must be a decimal number of seconds from 0.1 to 3600"),
        (["--timeout", "0"], "--timeout must be a decimal number of seconds from 0.1 to 3600"),
        (["--timeout", "3600.5"], "--timeout must be a decimal number of seconds from 0.1 to 3600"),
        (["--endpoint", "ftp://x"], "--endpoint must be an http or https URL with a host"),
        (["--endpoint", "http://127.0.0.1:99999"], "--endpoint has port 99999, but a port is from 1 to 65535"),
        (["--endpoint", "http://127.0.0.1:0"], "--endpoint has port 0, but a port is from 1 to 65535"),
        (["--endpoint", "http://x/?currency=EUR"], "--endpoint must be a base URL without a query or fragment"),
        (["--endpoint", "http://x", "--price-file", "p"], "--endpoint and --price-file cannot be used together"),
        (["--timeout", "5", "--price-file", "p"], "--timeout and --price-file cannot be used together"),
        (["--demo", "--token-file", "t"], "--demo and --token-file cannot be used together"),
        (["--demo", "--currency", "EUR"], "--demo has a sample price in USD only, not in EUR"),
        (["--dependency-graph", "--json"], "--dependency-graph and --json cannot be used together"),
        (["--json", "--json"], "--json is given more than once"),
        (["--currency", "EUR", "--currency", "GBP"], "--currency is given more than once"),
        (["--dependency-graph", "svg"], "--dependency-graph takes mermaid or dot, not 'svg'"),
    ])
    func aBadCommandLinePrintsTheUsageAndExitsWith64(arguments: [String], message: String) async throws {
        let result = try await run(arguments)

        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("access-token-cli: \(message)"))
        #expect(result.stderr.contains("USAGE: access-token-cli [options]"))
    }

    @Test func printsTheVerifiedDependencyGraphWithoutTokenOrNetwork() async throws {
        let mermaid = try await run(["--dependency-graph"], environment: [:])
        let dot = try await run(["--dependency-graph", "dot", "--endpoint", "http://127.0.0.1:9"], environment: [:])

        #expect(mermaid.status == 0)
        #expect(mermaid.stderr == "")
        let lines = mermaid.stdout.split(separator: "\n")
        #expect(lines.first == "flowchart LR")
        #expect(lines.contains(#"    n5["PriceReport<br/>.unique"]"#))
        #expect(lines.filter { $0.contains(" -. @Injected .-> ") }.count == 5)
        #expect(dot.status == 0)
        #expect(dot.stdout.hasPrefix("digraph dependencies {\n"))
        #expect(dot.stdout.contains(#"n2 -> n1 [style=dashed, label="@Injected"];"#))
    }

    @Test func helpAndVersionExitWith0() async throws {
        let help = try await run(["--help"])
        let version = try await run(["--version"])

        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("USAGE: access-token-cli [options]"))
        #expect(version.status == 0)
        #expect(version.stdout == "access-token-cli 0.1.0\n")
    }
}
#endif
