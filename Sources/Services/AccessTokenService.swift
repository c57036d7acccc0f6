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

/// Why there is no access token to use. Each description is one line, safe to show on a
/// terminal, and never quotes the token.
public enum AccessTokenError: Error, Equatable, CustomStringConvertible {
    /// Neither the environment variable nor the token file has a token.
    case notFound(environmentVariable: String, tokenFile: String)
    /// The token file can be read by group or others, so the token may have leaked. When the
    /// path is a symbolic link, `linkTarget` is the file it leads to, whose permissions these are.
    case insecureFile(path: String, permissions: String, linkTarget: String? = nil)
    /// The token file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// What was found is not a token (see ``AccessToken/problem(with:)``); `source` is the
    /// environment variable or the token file it came from.
    case invalidToken(source: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let variable, let file):
            "no access token: \(variable) is not set and \(file.terminalSafe()) does not exist "
                + "(set \(variable), or write the token to that file with permissions 600)"
        case .insecureFile(let path, let permissions, nil):
            "refusing the token file \(path.terminalSafe()): its permissions are \(permissions), "
                + "so group or others can read it (run chmod 600 \(path.terminalSafe()))"
        case .insecureFile(let path, let permissions, let target?):
            "refusing the token file \(path.terminalSafe()), a symbolic link to \(target.terminalSafe()): "
                + "the target's permissions are \(permissions), so group or others can read it "
                + "(run chmod 600 \(target.terminalSafe()))"
        case .unreadable(let path, let reason):
            "cannot read the token file \(path.terminalSafe()): \(reason)"
        case .invalidToken(let source, let reason):
            "the token in \(source.terminalSafe()) cannot be used: \(reason) "
                + "(a token is one line of at most \(AccessToken.maxLength) printable ASCII characters)"
        }
    }
}

/// The live token service: the `ACCESS_TOKEN` environment variable, else a token file only its
/// owner can read.
///
/// The token file is judged by what it is: a symbolic link is followed and the file it leads to
/// must be a regular file with no permissions for group or others. Surrounding blank space and
/// line endings are ignored; what is left must be one line of printable ASCII (see
/// ``AccessToken/problem(with:)``).
public struct LiveAccessTokenService: AccessTokenServiceType {
    /// The environment variable that holds the token.
    public static let environmentVariable = "ACCESS_TOKEN"
    /// The largest token file read: 8 KiB, room for the longest token and blank space around it.
    public static let maxTokenFileBytes = 8 << 10

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
        let configDirectory =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return configDirectory + "/access-token-cli/token"
    }

    public func accessToken() throws(AccessTokenError) -> AccessToken {
        if let variable = environment[Self.environmentVariable] {
            let token = variable.trimmingCharacters(in: .whitespacesAndNewlines)
            if !token.isEmpty {
                return try Self.validated(token, source: Self.environmentVariable)
            }
        }
        return try readTokenFile()
    }

    private func readTokenFile() throws(AccessTokenError) -> AccessToken {
        let file: RegularFile
        do {
            file = try RegularFile(path: tokenFile, limit: Self.maxTokenFileBytes)
        } catch .notFound {
            throw .notFound(environmentVariable: Self.environmentVariable, tokenFile: tokenFile)
        } catch .tooLarge(let limit) {
            throw .invalidToken(source: tokenFile, reason: "the file is larger than \(limit) bytes")
        } catch {
            throw .unreadable(path: tokenFile, reason: error.description)
        }
        if file.permissions & 0o077 != 0 {
            throw .insecureFile(
                path: tokenFile, permissions: String(file.permissions, radix: 8), linkTarget: file.linkTarget)
        }
        guard let contents = String(data: file.contents, encoding: .utf8) else {
            throw .invalidToken(source: tokenFile, reason: "it is not UTF-8 text")
        }
        return try Self.validated(contents.trimmingCharacters(in: .whitespacesAndNewlines), source: tokenFile)
    }

    private static func validated(_ token: String, source: String) throws(AccessTokenError) -> AccessToken {
        if let problem = AccessToken.problem(with: token) {
            throw .invalidToken(source: source, reason: problem)
        }
        return AccessToken(token)
    }
}
