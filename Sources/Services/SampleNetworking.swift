import Foundation

/// Serves the sample spot-price response built into the app, for demonstrations
/// (`access-token-cli --demo`): no network and no file, so it works on any machine.
///
/// The price it serves is a sample, not today's: whatever shows it should say so.
public struct SampleNetworking: Networking {
    /// The sample response, the same as `Samples/spot-price-usd.json`: one bitcoin at
    /// 15840.01 USD.
    public static let response = #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#

    public init() {}

    public func data(for endpoint: Endpoint) async throws(NetworkError) -> Data {
        Data(Self.response.utf8)
    }
}
