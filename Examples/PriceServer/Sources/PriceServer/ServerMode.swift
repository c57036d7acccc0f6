/// Where the server's token and price come from: an app-wide value, registered once in the app's
/// store (and passed by hand to the hand-wired twin).
public enum ServerMode: Sendable, Equatable {
    /// The demo token and the sample price built into `Services` (`--demo`): no token, no network.
    case demo
    /// The access token from `ACCESS_TOKEN` or the token file, and Coinbase's live price.
    case live

    /// The only currency the sample price is in.
    public static let sampleCurrency = "USD"

    /// What a price body says about where the price came from, as `access-token-cli --json` does:
    /// `sample` or `live`.
    var priceSource: String {
        self == .demo ? "sample" : "live"
    }

    /// What a token body says about the token: `demo` or `live`.
    var tokenSource: String {
        self == .demo ? "demo" : "live"
    }
}
