/// What the command line asks for, parsed strictly: every option known and given at most once,
/// every value valid.
struct ServerOptions {
    var demo = false
    var handWired = false
    var hostname = "127.0.0.1"
    var port = 8080

    enum Action {
        case serve(ServerOptions)
        case help
    }

    /// A command line that cannot be run: printed with the usage, exit status 64.
    struct UsageError: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    static let usage = """
        USAGE: price-server [options]

        Serves the spot price of Bitcoin and the access token (masked) as JSON:
          GET /price?currency=CODE   the price in CODE, an ISO 4217 code (default: USD)
          GET /token                 the access token, masked

        OPTIONS:
          --demo             Serve the demo token and the sample price built into the app: needs no
                             token and no network. The sample price is in USD only.
          --hostname HOST    The address to listen on (default: 127.0.0.1).
          --port N           The port to listen on, 0 for any free one (default: 8080). Once
                             listening, the server prints `listening on HOST:PORT` on stdout.
          --hand-wired       Wire the services by hand instead of through a DependencyStore per
                             request: the twin the load test compares with.
          --help             Show this help.

        Without --demo, the token comes from ACCESS_TOKEN or ~/.config/access-token-cli/token, and
        the price from Coinbase's API. SIGINT or SIGTERM stops the server gracefully.
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var options = ServerOptions()
        var remaining = arguments[...]
        var given: Set<String> = []

        func value(for option: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError("\(option) needs a value")
            }
            return value
        }

        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" { return .help }
            guard argument.hasPrefix("--") else {
                throw UsageError("unexpected argument '\(argument)'; every value follows its option")
            }
            guard given.insert(argument).inserted else {
                throw UsageError("\(argument) is given more than once")
            }
            switch argument {
            case "--demo":
                options.demo = true
            case "--hand-wired":
                options.handWired = true
            case "--hostname":
                let hostname = try value(for: argument)
                guard !hostname.isEmpty else {
                    throw UsageError("--hostname needs an address such as 127.0.0.1, not an empty string")
                }
                options.hostname = hostname
            case "--port":
                let text = try value(for: argument)
                guard text.allSatisfy(\.isASCII), let port = Int(text), (0...65_535).contains(port) else {
                    throw UsageError("--port must be a number from 0 to 65535 (0 for any free port), not '\(text)'")
                }
                options.port = port
            default:
                throw UsageError("unknown option '\(argument)'")
            }
        }
        return .serve(options)
    }
}
