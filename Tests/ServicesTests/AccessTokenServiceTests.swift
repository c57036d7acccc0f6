import Foundation
import Services
import Testing

@Suite struct AccessTokenServiceTests {
    /// A token file in a fresh temporary directory, with the given permissions.
    private func tokenFile(_ contents: String, permissions: Int) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("token").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        return path
    }

    @Test func theEnvironmentVariableComesFirst() throws {
        let file = try tokenFile("from-file", permissions: 0o600)
        let service = LiveAccessTokenService(environment: ["ACCESS_TOKEN": "sk-env"], tokenFile: file)

        #expect(try service.accessToken() == AccessToken("sk-env"))
    }

    @Test func aPrivateTokenFileIsReadWhenTheVariableIsUnset() throws {
        let file = try tokenFile("sk-from-file\n", permissions: 0o600)

        #expect(try LiveAccessTokenService(environment: [:], tokenFile: file).accessToken() == AccessToken("sk-from-file"))
    }

    @Test func aTokenFileReadableByOthersIsRefusedWithChmod600() throws {
        let file = try tokenFile("sk-leaked", permissions: 0o644)

        let error = try #require(throws: AccessTokenError.self) {
            try LiveAccessTokenService(environment: [:], tokenFile: file).accessToken()
        }

        #expect(error == .insecureFile(path: file, permissions: "644"))
        #expect(error.description.contains("chmod 600 \(file)"))
    }

    @Test func noTokenSaysWhereItLooked() throws {
        let service = LiveAccessTokenService(environment: ["HOME": "/nonexistent-home"])

        let error = try #require(throws: AccessTokenError.self) { try service.accessToken() }

        #expect(error.description == "no access token: ACCESS_TOKEN is not set and "
            + "/nonexistent-home/.config/access-token-cli/token does not exist "
            + "(set ACCESS_TOKEN, or write the token to that file with permissions 600)")
    }

    @Test func anEmptyTokenFileIsAnError() throws {
        let file = try tokenFile("\n", permissions: 0o600)

        #expect(throws: AccessTokenError.unreadable(path: file, reason: "the file is empty")) {
            try LiveAccessTokenService(environment: [:], tokenFile: file).accessToken()
        }
    }

    @Test func theDefaultTokenFileFollowsXDGConfigHome() {
        #expect(LiveAccessTokenService.defaultTokenFile(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
            == "/x/access-token-cli/token")
        #expect(LiveAccessTokenService.defaultTokenFile(environment: ["HOME": "/h"])
            == "/h/.config/access-token-cli/token")
    }

    @Test func aMaskedTokenShowsItsEndsOnly() {
        #expect(AccessToken("sk-1234567890abf9c2").masked == "sk-1…f9c2")
        #expect(AccessToken("short").masked == "•••••")
    }
}
