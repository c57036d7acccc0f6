import Foundation

/// What the command line asks for, parsed strictly: every option is known, every value valid.
struct Options {
    var currency = "USD"
    var endpoint: URL?
    var priceFile: String?
    var json = false
    var timeout: TimeInterval = 10
    var tokenFile: String?
    var revealToken = false

    enum Action {
        case run(Options)
        /// Print the store's dependency graph, as verified, in this format.
        case dependencyGraph(GraphFormat, Options)
        case help
        case version
    }

    /// A command line that cannot be run: printed with the usage, exit status 64.
    enum GraphFormat: String {
        case mermaid
        case dot
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = """
        USAGE: access-token-cli [options]

        Prints your access token (masked) and the current spot price of Bitcoin.

        OPTIONS:
          --currency CODE       The currency to price Bitcoin in, an ISO 4217 code (default: USD).
          --endpoint URL        The price API's base URL (default: https://api.coinbase.com).
          --price-file PATH     Read a saved spot-price response instead of the network.
          --timeout SECONDS     The deadline for the whole price request; fractions allowed (default: 10).
          --token-file PATH     The token file used when ACCESS_TOKEN is not set
                                (default: ~/.config/access-token-cli/token, permissions 600).
          --reveal-token        Print the whole token instead of a masked one.
          --json                Print one JSON object instead of text.
          --dependency-graph [mermaid|dot]
                                Verify the wiring and print its dependency graph (default: mermaid),
                                fetching nothing; exits 1 when the wiring has problems.
          --help                Show this help.
          --version             Show the version.

        EXIT STATUS: 0 on success, 1 when the token or the price cannot be had, 64 for a bad command line.
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var options = Options()
        var remaining = arguments[...]
        var graphFormat: GraphFormat?

        func value(for option: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(description: "\(option) needs a value")
            }
            return value
        }

        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                return .help
            case "--version":
                return .version
            case "--json":
                options.json = true
            case "--dependency-graph":
                if let next = remaining.first, !next.hasPrefix("--") {
                    guard let format = GraphFormat(rawValue: next) else {
                        throw UsageError(description: "--dependency-graph takes mermaid or dot, not '\(next)'")
                    }
                    remaining.removeFirst()
                    graphFormat = format
                } else {
                    graphFormat = .mermaid
                }
            case "--reveal-token":
                options.revealToken = true
            case "--currency":
                let code = try value(for: argument)
                guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    throw UsageError(description: "--currency must be a three-letter ISO 4217 code such as USD, not '\(code)'")
                }
                options.currency = code.uppercased()
            case "--endpoint":
                let text = try value(for: argument)
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                      ["http", "https"].contains(scheme), url.host != nil else {
                    throw UsageError(description: "--endpoint must be an http or https URL such as https://api.coinbase.com, not '\(text)'")
                }
                options.endpoint = url
            case "--price-file":
                options.priceFile = try value(for: argument)
            case "--timeout":
                let text = try value(for: argument)
                guard let seconds = TimeInterval(text), seconds.isFinite, seconds > 0, seconds <= 3_600 else {
                    throw UsageError(description: "--timeout must be a number of seconds above 0 and at most 3600, not '\(text)'")
                }
                options.timeout = seconds
            case "--token-file":
                options.tokenFile = try value(for: argument)
            default:
                throw UsageError(description: "unknown option '\(argument)'")
            }
        }
        if let graphFormat { return .dependencyGraph(graphFormat, options) }
        return .run(options)
    }
}
