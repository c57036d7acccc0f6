#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hands out the access token the app calls its backend with.
public protocol AccessTokenServiceType {
    /// The current access token, or `nil` when none is configured.
    func accessToken() -> String?
}

/// The live token service: reads the `ACCESS_TOKEN` environment variable.
public struct EnvironmentAccessTokenService: AccessTokenServiceType {
    private let environment: [String: String]

    /// Creates a service that reads `ACCESS_TOKEN` from `environment`.
    ///
    /// - Parameter environment: The variables to read; the process environment by default.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public func accessToken() -> String? {
        guard let token = environment["ACCESS_TOKEN"], !token.isEmpty else { return nil }
        return token
    }
}

extension EnvironmentAccessTokenService: Sendable {}
