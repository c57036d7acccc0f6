import DependencyStore
import Foundation
import Services

// access-token-cli: the access token and the spot price of Bitcoin, every piece reached through
// the store. Run `access-token-cli --help` for the options.

let version = "0.1.0"

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("access-token-cli: \(message)\n".utf8))
    exit(status)
}

let options: Options
var graphFormat: Options.GraphFormat?
do {
    switch try Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(Options.usage)
        exit(0)
    case .version:
        print("access-token-cli \(version)")
        exit(0)
    case .run(let parsed):
        options = parsed
    case .dependencyGraph(let format, let parsed):
        options = parsed
        graphFormat = format
    }
} catch {
    fail("\(error)\n\n\(Options.usage)", status: 64)
}

DependencyStore.shared.registerAll(ServicesConfiguration(
    tokenFile: options.tokenFile,
    endpoint: options.endpoint ?? CoinbasePriceFetcher.defaultBaseURL,
    priceFile: options.priceFile,
    timeout: options.timeout
))

if let graphFormat {
    // Builds every registration in a copy of the store: nothing is fetched and no token is read.
    let verification = DependencyStore.shared.verify()
    print(graphFormat == .dot ? verification.dot() : verification.mermaid(), terminator: "")
    guard verification.isClean else {
        fail("error: the wiring has problems:\n\(verification)", status: 1)
    }
    exit(0)
}

let report: Report
do {
    report = try await DependencyStore.shared.resolve(PriceReport.self).make(currency: options.currency)
} catch {
    fail("error: \(error)", status: 1)
}

let token = options.revealToken ? report.token.value : report.token.masked
if options.json {
    let object: [String: String] = [
        "token": token,
        "pair": report.price.pair,
        "base": report.price.base,
        "currency": report.price.currency,
        "amount": "\(report.price.amount)",
        "formatted": report.formattedPrice,
    ]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    print("Access token: \(token)")
    print("\(report.price.pair) \(report.formattedPrice)")
}
