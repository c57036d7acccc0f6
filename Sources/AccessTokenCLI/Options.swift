import Foundation
import Services

/// What the command line asks for, parsed strictly: every option is known and given at most
/// once, every value valid, and no option is silently ignored because another overrides it.
struct Options {
    var currency = "USD"
    var endpoint: URL?
    var priceFile: String?
    var json = false
    var timeout: TimeInterval = 10
    var tokenFile: String?
    var revealToken = false
    var demo = false

    /// The range `--timeout` accepts, in seconds.
    static let timeoutRange: ClosedRange<TimeInterval> = 0.1...3_600

    enum Action {
        case run(Options)
        /// Print the store's dependency graph, as verified, in this format.
        case dependencyGraph(GraphFormat, Options)
        case help
        case version
    }

    enum GraphFormat: String {
        case mermaid
        case dot
    }

    /// A command line that cannot be run: printed with the usage, exit status 64.
    struct UsageError: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    static let usage = """
        USAGE: access-token-cli [options]

        Prints your access token (masked) and the current spot price of Bitcoin.

        OPTIONS:
          --demo                Show the demo token and the sample price built into the app: needs
                                no token and no network. The price is labelled as a sample.
          --currency CODE       The currency to price Bitcoin in, an ISO 4217 code (default: USD).
          --endpoint URL        The price API's base URL (default: https://api.coinbase.com).
          --price-file PATH     Read a saved spot-price response instead of the network.
          --timeout SECONDS     The deadline for the whole price request, a decimal number from 0.1
                                to 3600 (default: 10).
          --token-file PATH     The token file used when ACCESS_TOKEN is not set
                                (default: ~/.config/access-token-cli/token, permissions 600).
          --reveal-token        Print the whole token instead of a masked one.
          --json                Print one JSON object instead of text.
          --dependency-graph [mermaid|dot]
                                Verify the wiring and print its dependency graph (default: mermaid),
                                fetching nothing; exits 1 when the wiring has problems.
          --help                Show this help.
          --version             Show the version.

        EXIT STATUS: 0 on success, 1 when the token or the price cannot be had or the output cannot
        be written, 64 for a bad command line.
        """

    /// Options that ask for opposite things, or of which one would be ignored: each pair with
    /// the reason a user is told.
    private static let conflicts: [(String, String, String)] = [
        ("--endpoint", "--price-file", "--price-file reads a saved response instead of asking an endpoint"),
        ("--timeout", "--price-file", "--price-file makes no request to time"),
        ("--demo", "--endpoint", "--demo shows the built-in sample instead of asking an endpoint"),
        ("--demo", "--price-file", "--demo shows the built-in sample instead of reading a file"),
        ("--demo", "--timeout", "--demo makes no request to time"),
        ("--demo", "--token-file", "--demo shows a demo token instead of yours"),
        ("--dependency-graph", "--json", "--dependency-graph prints the wiring, not a report"),
        ("--dependency-graph", "--reveal-token", "--dependency-graph prints the wiring, not a report"),
        ("--dependency-graph", "--currency", "--dependency-graph prints the wiring, not a report"),
    ]

    static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var options = Options()
        var remaining = arguments[...]
        var graphFormat: GraphFormat?
        var given: Set<String> = []

        func value(for option: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError("\(option) needs a value")
            }
            return value
        }

        func path(for option: String) throws(UsageError) -> String {
            let path = try value(for: option)
            guard !path.isEmpty else {
                throw UsageError("\(option) needs a path, not an empty string")
            }
            return path
        }

        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" { return .help }
            if argument == "--version" { return .version }
            guard argument.hasPrefix("--") else {
                throw UsageError("unexpected argument '\(argument.terminalSafe())'; every value follows its option")
            }
            if argument.contains("=") {
                let option = argument.prefix { $0 != "=" }
                throw UsageError(
                    "unknown option '\(argument.terminalSafe())' (write the value after a space: \(option.description.terminalSafe()) VALUE)"
                )
            }
            guard given.insert(argument).inserted else {
                throw UsageError("\(argument.terminalSafe()) is given more than once")
            }
            switch argument {
            case "--json":
                options.json = true
            case "--demo":
                options.demo = true
            case "--reveal-token":
                options.revealToken = true
            case "--dependency-graph":
                if let next = remaining.first, !next.hasPrefix("--") {
                    guard let format = GraphFormat(rawValue: next) else {
                        throw UsageError("--dependency-graph takes mermaid or dot, not '\(next.terminalSafe())'")
                    }
                    remaining.removeFirst()
                    graphFormat = format
                } else {
                    graphFormat = .mermaid
                }
            case "--currency":
                let code = try value(for: argument)
                guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    throw UsageError(
                        "--currency must be a three-letter ISO 4217 code such as USD, not '\(code.terminalSafe())'")
                }
                options.currency = code.uppercased()
            case "--endpoint":
                options.endpoint = try endpoint(try value(for: argument))
            case "--price-file":
                options.priceFile = try path(for: argument)
            case "--timeout":
                options.timeout = try timeout(try value(for: argument))
            case "--token-file":
                options.tokenFile = try path(for: argument)
            default:
                throw UsageError("unknown option '\(argument.terminalSafe())'")
            }
        }
        for (first, second, reason) in conflicts where given.contains(first) && given.contains(second) {
            throw UsageError("\(first) and \(second) cannot be used together: \(reason)")
        }
        if options.demo && options.currency != "USD" {
            throw UsageError("--demo has a sample price in USD only, not in \(options.currency)")
        }
        if let graphFormat { return .dependencyGraph(graphFormat, options) }
        return .run(options)
    }

    /// An http or https base URL with a host, a port from 1 to 65535 if any, and no query or
    /// fragment (the API's path and query are added to it).
    private static func endpoint(_ text: String) throws(UsageError) -> URL {
        let example = "such as https://api.coinbase.com or http://127.0.0.1:8080"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty,
            let url = components.url
        else {
            throw UsageError(
                "--endpoint must be an http or https URL with a host, \(example), not '\(text.terminalSafe())'")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw UsageError("--endpoint has port \(port), but a port is from 1 to 65535")
        }
        guard components.query == nil, components.fragment == nil else {
            throw UsageError(
                "--endpoint must be a base URL without a query or fragment, \(example), not '\(text.terminalSafe())'")
        }
        return url
    }

    /// A plain decimal number of seconds in ``timeoutRange``: not `0x10`, `1e-3` or `inf`.
    private static func timeout(_ text: String) throws(UsageError) -> TimeInterval {
        guard DecimalDigits(text) != nil, let seconds = TimeInterval(text), timeoutRange.contains(seconds) else {
            throw UsageError(
                "--timeout must be a decimal number of seconds from \(timeoutRange.lowerBound.formatted) "
                    + "to \(timeoutRange.upperBound.formatted), such as 10 or 2.5, not '\(text.terminalSafe())'")
        }
        return seconds
    }
}
