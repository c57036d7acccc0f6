import DependencyStore
import Services

// The command line arrives with the Services work; until then the tool proves the wiring: the
// token service reaches it only through the store.
DependencyStore.shared.registerAll()

struct Status {
    @Injected var tokens: AccessTokenServiceType
}

let status = Status()
let tokenState = status.tokens.accessToken() == nil ? "not set" : "set"
print("access-token-cli (placeholder): ACCESS_TOKEN is \(tokenState); the token and price output are not built yet.")
