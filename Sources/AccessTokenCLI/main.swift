import DependencyStore
import Foundation
import Services

// access-token-cli: the access token and the spot price of Bitcoin, every piece reached through
// the store. Run `access-token-cli --help` for the options.

let version = "0.1.0"

Output.ignoreBrokenPipes()

let options: Options
var graphFormat: Options.GraphFormat?
do {
    switch try Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        Output.report(Options.usage + "\n")
        exit(0)
    case .version:
        Output.report("access-token-cli \(version)\n")
        exit(0)
    case .run(let parsed):
        options = parsed
    case .dependencyGraph(let format, let parsed):
        options = parsed
        graphFormat = format
    }
} catch {
    Output.fail("\(error)\n\n\(Options.usage)", status: 64)
}

DependencyStore.shared.registerAll(
    ServicesConfiguration(
        demo: options.demo,
        tokenFile: options.tokenFile,
        endpoint: options.endpoint ?? CoinbasePriceFetcher.defaultBaseURL,
        priceFile: options.priceFile,
        timeout: options.timeout
    ))

if let graphFormat {
    // Builds every registration in a copy of the store: nothing is fetched and no token is read.
    let verification = DependencyStore.shared.verify()
    Output.report(graphFormat == .dot ? verification.dot() : verification.mermaid())
    guard verification.isClean else {
        Output.fail("error: the wiring has problems:\n\(verification)", status: 1)
    }
    exit(0)
}

let report: Report
do {
    report = try await DependencyStore.shared.resolve(PriceReport.self).make(currency: options.currency)
} catch {
    Output.fail("error: \(error)", status: 1)
}

// Where the price came from: a price that is not live says so, in text and in JSON.
let source: (name: String, note: String) =
    if options.demo {
        ("sample", " (sample price, not live)")
    } else if let priceFile = options.priceFile {
        ("file", " (from \(priceFile), not live)")
    } else {
        ("live", "")
    }
let token = options.revealToken ? report.token.value : report.token.masked
if options.json {
    let object: [String: String] = [
        "token": token,
        "pair": report.price.pair,
        "base": report.price.base,
        "currency": report.price.currency,
        "amount": report.price.amountText,
        "formatted": report.formattedPrice,
        "source": source.name,
    ]
    let data = try JSONSerialization.data(
        withJSONObject: object.mapValues { $0.terminalSafe(limit: .max) }, options: [.sortedKeys])
    Output.report(String(decoding: data, as: UTF8.self) + "\n")
} else {
    Output.report(
        """
        Access token: \(token)\(options.demo ? " (demo token)" : "")
        \(report.price.pair) \(report.formattedPrice)\(source.note)

        """)
}
