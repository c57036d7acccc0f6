import DependencyStore
import Services

/// ``TokenHandler`` filled from the current store, as ``InjectedPriceHandler`` is.
struct InjectedTokenHandler: Sendable {
    @Injected private var tokens: any AccessTokenServiceType
    @Injected private var mode: ServerMode
    @Injected private var requestID: RequestIdentifier

    func respond() throws(APIError) -> TokenBody {
        let handler = TokenHandler(
            tokens: try $tokens.valueOrServerError(),
            mode: try $mode.valueOrServerError(),
            requestID: try $requestID.valueOrServerError())
        return try handler.respond()
    }
}
