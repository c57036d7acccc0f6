import Foundation
import Testing

/// The built `access-token-cli`, run as a subprocess the way a user runs it.
@Suite struct CLITests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The shipped sample: `Samples/spot-price-usd.json` at the repository root.
    static let sample = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/spot-price-usd.json").path

    static let token = "sk-1234567890abf9c2"

    /// The binary, found in the build directory that holds the test bundle: on Linux the test
    /// runner is the bundle itself; on macOS `xctest` loads it, so look at the loaded bundles too.
    static func binary() throws -> URL {
        let starts = [URL(fileURLWithPath: CommandLine.arguments[0])] + Bundle.allBundles.map(\.bundleURL)
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("access-token-cli")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "access-token-cli near \(starts.map(\.path))"])
    }

    /// Runs the CLI with `arguments`, in an environment of only `environment` (plus a HOME with
    /// no token file), and waits for it.
    func run(_ arguments: [String], environment: [String: String] = ["ACCESS_TOKEN": token]) throws -> Run {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        // No backtracer: under the thread sanitizer its helper can hang a pipe reader.
        process.environment = ["HOME": home, "SWIFT_BACKTRACE": "enable=no"].merging(environment) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: errors, as: UTF8.self)
        )
    }

    @Test func printsTheMaskedTokenAndThePrice() throws {
        let result = try run(["--price-file", Self.sample])

        #expect(result.status == 0)
        #expect(result.stdout == "Access token: sk-1…f9c2\nBTC-USD $15,840.01\n")
        #expect(result.stderr == "")
    }

    @Test func revealsTheWholeTokenWhenAsked() throws {
        let result = try run(["--price-file", Self.sample, "--reveal-token"])

        #expect(result.stdout.hasPrefix("Access token: \(Self.token)\n"))
    }

    @Test func printsOneJSONObject() throws {
        let result = try run(["--price-file", Self.sample, "--json"])

        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String]
        )
        #expect(object == [
            "token": "sk-1…f9c2", "pair": "BTC-USD", "base": "BTC", "currency": "USD",
            "amount": "15840.01", "formatted": "$15,840.01",
        ])
    }

    @Test func fetchesOverHTTPFromAnotherEndpoint() throws {
        let server = try TestHTTPServer { path in
            path == "/v2/prices/spot?currency=USD" ? .json(sampleResponse) : .json("{}", status: 404)
        }
        defer { server.stop() }

        let result = try run(["--endpoint", server.url().absoluteString, "--timeout", "2.5"])

        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("BTC-USD $15,840.01\n"))
    }

    @Test func noTokenExitsWith1AndSaysWhereItLooked() throws {
        let result = try run(["--price-file", Self.sample], environment: [:])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("access-token-cli: error: no access token: ACCESS_TOKEN is not set and "))
        #expect(result.stderr.contains("/.config/access-token-cli/token does not exist"))
    }

    @Test func anHTTPErrorExitsWith1AndPrintsNoPrice() throws {
        let server = try TestHTTPServer { _ in .json(#"{"errors":[]}"#, status: 500) }
        defer { server.stop() }

        let result = try run(["--endpoint", server.url().absoluteString])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "access-token-cli: error: the server answered HTTP 500 for "
            + "\(server.url().absoluteString)/v2/prices/spot?currency=USD\n")
    }

    @Test func aTimeoutExitsWith1() throws {
        let server = try TestHTTPServer { _ in .delayed(seconds: 2, .json(sampleResponse)) }
        defer { server.stop() }

        let result = try run(["--endpoint", server.url().absoluteString, "--timeout", "0.3"])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("within 0.3 seconds"))
    }

    @Test func badDataExitsWith1() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).json")
        try Data(#"{"data":{"base":"BTC","currency":"USD","amount":"-1"}}"#.utf8).write(to: file)

        let result = try run(["--price-file", file.path])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "access-token-cli: error: the spot-price response's amount -1 is negative\n")
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--currency"], "--currency needs a value"),
        (["--currency", "DOLLARS"], "--currency must be a three-letter ISO 4217 code"),
        (["--timeout", "soon"], "--timeout must be a number of seconds"),
        (["--timeout", "-1"], "--timeout must be a number of seconds"),
        (["--endpoint", "ftp://x"], "--endpoint must be an http or https URL"),
        (["--token-file", "--json"], "--token-file needs a value"),
        (["--dependency-graph", "svg"], "--dependency-graph takes mermaid or dot, not 'svg'"),
    ])
    func aBadCommandLinePrintsTheUsageAndExitsWith64(arguments: [String], message: String) throws {
        let result = try run(arguments)

        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("access-token-cli: \(message)"))
        #expect(result.stderr.contains("USAGE: access-token-cli [options]"))
    }

    @Test func printsTheVerifiedDependencyGraphWithoutTokenOrNetwork() throws {
        let mermaid = try run(["--dependency-graph"], environment: [:])
        let dot = try run(["--dependency-graph", "dot", "--endpoint", "http://127.0.0.1:9"], environment: [:])

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

    @Test func helpAndVersionExitWith0() throws {
        let help = try run(["--help"])
        let version = try run(["--version"])

        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("USAGE: access-token-cli [options]"))
        #expect(version.status == 0)
        #expect(version.stdout == "access-token-cli 0.1.0\n")
    }
}
