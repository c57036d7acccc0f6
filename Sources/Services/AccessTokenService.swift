import Foundation

/// Hands out the access token the app calls its backend with.
///
/// App code declares it and never builds it:
///
/// ```swift
/// struct Client {
///     @Injected var tokens: AccessTokenServiceType
/// }
/// ```
public protocol AccessTokenServiceType: Sendable {
    /// The current access token.
    ///
    /// - Throws: ``AccessTokenError`` when there is no token, or the token file may not be used.
    func accessToken() throws(AccessTokenError) -> AccessToken
}

/// An access token, which knows how to show itself without giving itself away.
public struct AccessToken: Sendable, Equatable {
    /// The whole token.
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The token with its middle hidden, `sk-1…f9c2`: enough to tell two tokens apart, not enough
    /// to use one. Tokens shorter than 12 characters are hidden whole.
    public var masked: String {
        guard value.count >= 12 else { return String(repeating: "•", count: value.count) }
        return "\(value.prefix(4))…\(value.suffix(4))"
    }
}

/// Why there is no access token to use.
public enum AccessTokenError: Error, Equatable, CustomStringConvertible {
    /// Neither the environment variable nor the token file has a token.
    case notFound(environmentVariable: String, tokenFile: String)
    /// The token file can be read by group or others, so the token may have leaked.
    case insecureFile(path: String, permissions: String)
    /// The token file exists but could not be read.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let variable, let file):
            "no access token: \(variable) is not set and \(file) does not exist "
                + "(set \(variable), or write the token to that file with permissions 600)"
        case .insecureFile(let path, let permissions):
            "refusing the token file \(path): its permissions are \(permissions), so group or others can read it "
                + "(run chmod 600 \(path))"
        case .unreadable(let path, let reason):
            "cannot read the token file \(path): \(reason)"
        }
    }
}

/// The live token service: the `ACCESS_TOKEN` environment variable, else a token file only its
/// owner can read.
public struct LiveAccessTokenService: AccessTokenServiceType {
    /// The environment variable that holds the token.
    public static let environmentVariable = "ACCESS_TOKEN"

    private let environment: [String: String]
    /// Where the token file is looked for.
    public let tokenFile: String

    /// Creates the service.
    ///
    /// ```swift
    /// let service = LiveAccessTokenService(tokenFile: "/etc/my-app/token")
    /// ```
    ///
    /// - Parameters:
    ///   - environment: The variables to read; the process environment by default.
    ///   - tokenFile: The token file; by default `access-token-cli/token` in the user's config
    ///     directory (`$XDG_CONFIG_HOME`, else `~/.config`).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, tokenFile: String? = nil) {
        self.environment = environment
        self.tokenFile = tokenFile ?? Self.defaultTokenFile(environment: environment)
    }

    /// `$XDG_CONFIG_HOME/access-token-cli/token`, else `$HOME/.config/access-token-cli/token`.
    public static func defaultTokenFile(environment: [String: String]) -> String {
        let configDirectory = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return configDirectory + "/access-token-cli/token"
    }

    public func accessToken() throws(AccessTokenError) -> AccessToken {
        if let token = environment[Self.environmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines),
           !token.isEmpty {
            return AccessToken(token)
        }
        return try readTokenFile()
    }

    private func readTokenFile() throws(AccessTokenError) -> AccessToken {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: tokenFile)
        } catch {
            guard FileManager.default.fileExists(atPath: tokenFile) else {
                throw .notFound(environmentVariable: Self.environmentVariable, tokenFile: tokenFile)
            }
            throw .unreadable(path: tokenFile, reason: error.localizedDescription)
        }
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        if permissions & 0o077 != 0 {
            throw .insecureFile(path: tokenFile, permissions: String(permissions, radix: 8))
        }
        let contents: String
        do {
            contents = try String(contentsOfFile: tokenFile, encoding: .utf8)
        } catch {
            throw .unreadable(path: tokenFile, reason: "it is not a UTF-8 text file (\(error.localizedDescription))")
        }
        let token = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw .unreadable(path: tokenFile, reason: "the file is empty")
        }
        return AccessToken(token)
    }
}
