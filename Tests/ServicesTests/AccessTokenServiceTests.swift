import Foundation
import Services
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct AccessTokenServiceTests {
    /// A fresh temporary directory.
    private func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A token file in a fresh temporary directory, with the given permissions.
    private func tokenFile(_ contents: String, permissions: Int) throws -> String {
        try tokenFile(Data(contents.utf8), permissions: permissions)
    }

    private func tokenFile(_ contents: Data, permissions: Int) throws -> String {
        let path = try directory().appendingPathComponent("token").path
        try contents.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        return path
    }

    /// A symbolic link, in a directory of its own, to `target`.
    private func link(to target: String) throws -> String {
        let path = try directory().appendingPathComponent("token").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        return path
    }

    private func token(fromFile file: String) throws(AccessTokenError) -> AccessToken {
        try LiveAccessTokenService(environment: [:], tokenFile: file).accessToken()
    }

    @Test func theEnvironmentVariableComesFirst() throws {
        let file = try tokenFile("from-file", permissions: 0o600)
        let service = LiveAccessTokenService(environment: ["ACCESS_TOKEN": "sk-env"], tokenFile: file)

        #expect(try service.accessToken() == AccessToken("sk-env"))
    }

    @Test func aPrivateTokenFileIsReadWhenTheVariableIsUnset() throws {
        let file = try tokenFile("sk-from-file\n", permissions: 0o600)

        #expect(try token(fromFile: file) == AccessToken("sk-from-file"))
    }

    @Test func aTokenFileReadableByOthersIsRefusedWithChmod600() throws {
        let file = try tokenFile("sk-leaked", permissions: 0o644)

        let error = try #require(thrownError(AccessTokenError.self) { try token(fromFile: file) })

        #expect(error == .insecureFile(path: file, permissions: "644"))
        #expect(error.description.contains("chmod 600 \(file)"))
    }

    @Test func aSymbolicLinkToAPrivateFileIsJudgedByThatFile() throws {
        let target = try tokenFile("sk-linked\n", permissions: 0o600)
        let link = try link(to: target)

        // The link itself is 777; only the file it leads to counts.
        #expect(try token(fromFile: link) == AccessToken("sk-linked"))
    }

    @Test func aSymbolicLinkToAnOpenFileIsRefusedNamingBoth() throws {
        let target = try tokenFile("sk-leaked", permissions: 0o644)
        let link = try link(to: target)
        // The temporary directory may itself be behind a link (/tmp on macOS).
        let resolvedTarget = try #require(realpath(target, nil).map { String(cString: $0) })

        let error = try #require(thrownError(AccessTokenError.self) { try token(fromFile: link) })

        #expect(error == .insecureFile(path: link, permissions: "644", linkTarget: resolvedTarget))
        #expect(
            error.description == "refusing the token file \(link), a symbolic link to \(resolvedTarget): "
                + "the target's permissions are 644, so group or others can read it (run chmod 600 \(resolvedTarget))")
    }

    @Test func aSymbolicLinkToNothingSaysWhereItLeads() throws {
        let link = try link(to: "/nonexistent-token-target")

        #expect(
            throws: AccessTokenError.unreadable(
                path: link, reason: "it is a symbolic link to /nonexistent-token-target, which does not exist"
            )
        ) { try token(fromFile: link) }
    }

    @Test func aDirectoryIsNotATokenFile() throws {
        let directory = try directory().path

        #expect(throws: AccessTokenError.unreadable(path: directory, reason: "it is a directory, not a file")) {
            try token(fromFile: directory)
        }
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let fifo = try directory().appendingPathComponent("token").path
        try #require(mkfifo(fifo, 0o600) == 0)

        // Opened for reading, a FIFO would block this test until a writer came: none will.
        #expect(throws: AccessTokenError.unreadable(path: fifo, reason: "it is a FIFO (named pipe), not a file")) {
            try token(fromFile: fifo)
        }
    }

    @Test func aDeviceIsRefusedWithoutReadingIt() {
        #expect(throws: AccessTokenError.unreadable(path: "/dev/zero", reason: "it is a character device, not a file"))
        {
            try token(fromFile: "/dev/zero")
        }
    }

    @Test func noTokenSaysWhereItLooked() throws {
        let service = LiveAccessTokenService(environment: ["HOME": "/nonexistent-home"])

        let error = try #require(thrownError(AccessTokenError.self) { try service.accessToken() })

        #expect(
            error.description == "no access token: ACCESS_TOKEN is not set and "
                + "/nonexistent-home/.config/access-token-cli/token does not exist "
                + "(set ACCESS_TOKEN, or write the token to that file with permissions 600)")
    }

    @Test func anEmptyTokenFileIsAnError() throws {
        let file = try tokenFile("\n", permissions: 0o600)

        #expect(throws: AccessTokenError.invalidToken(source: file, reason: "it is empty")) {
            try token(fromFile: file)
        }
    }

    @Test func aTwoLineTokenFileIsRefused() throws {
        let file = try tokenFile("sk-first-line\nsk-second-line\n", permissions: 0o600)

        #expect(throws: AccessTokenError.invalidToken(source: file, reason: "it is more than one line")) {
            try token(fromFile: file)
        }
    }

    @Test func aTokenOfTheLongestLengthIsAcceptedAndOneByteMoreIsNot() throws {
        let longest = try tokenFile(String(repeating: "k", count: AccessToken.maxLength) + "\n", permissions: 0o600)
        let tooLong = try tokenFile(String(repeating: "k", count: AccessToken.maxLength + 1), permissions: 0o600)

        #expect(try token(fromFile: longest).value.count == 4096)
        #expect(
            throws: AccessTokenError.invalidToken(
                source: tooLong, reason: "it is 4097 bytes long, more than the 4096 a token may have"
            )
        ) { try token(fromFile: tooLong) }
    }

    @Test func aThirteenMegabyteTokenFileIsRefused() throws {
        let file = try tokenFile(Data(count: 13 << 20), permissions: 0o600)

        let error = try #require(thrownError(AccessTokenError.self) { try token(fromFile: file) })

        #expect(error == .invalidToken(source: file, reason: "the file is larger than 8192 bytes"))
        #expect(error.description.contains("a token is one line of at most 4096 printable ASCII characters"))
    }

    @Test(arguments: [
        ("sk-1\u{1B}[2J-token", "character 5 is a control character (U+001B)"),
        ("sk-tab\tseparated", "character 7 is a control character (U+0009)"),
        ("sk-caf\u{E9}-token", "character 7 is not printable ASCII (U+00E9)"),
        ("sk-\u{202E}reversed", "character 4 is not printable ASCII (U+202E)"),
    ])
    func aTokenWithCharactersATerminalActsOnIsRefusedWithItsPosition(token text: String, reason: String) throws {
        let file = try tokenFile(text, permissions: 0o600)
        let environment = LiveAccessTokenService(environment: ["ACCESS_TOKEN": text], tokenFile: "/nonexistent")

        #expect(throws: AccessTokenError.invalidToken(source: file, reason: reason)) { try token(fromFile: file) }
        #expect(throws: AccessTokenError.invalidToken(source: "ACCESS_TOKEN", reason: reason)) {
            try environment.accessToken()
        }
    }

    @Test func aFileThatIsNotUTF8IsRefused() throws {
        let file = try tokenFile(Data([0x73, 0x6B, 0xFF, 0xFE]), permissions: 0o600)

        #expect(throws: AccessTokenError.invalidToken(source: file, reason: "it is not UTF-8 text")) {
            try token(fromFile: file)
        }
    }

    @Test func theDefaultTokenFileFollowsXDGConfigHome() {
        #expect(
            LiveAccessTokenService.defaultTokenFile(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
                == "/x/access-token-cli/token")
        #expect(
            LiveAccessTokenService.defaultTokenFile(environment: ["HOME": "/h"])
                == "/h/.config/access-token-cli/token")
    }

    @Test func aMaskedTokenShowsItsEndsOnly() {
        #expect(AccessToken("sk-1234567890abf9c2").masked == "sk-1…f9c2")
        #expect(AccessToken("short").masked == "•••••")
    }

    @Test func maskingNeverShowsAControlCharacter() {
        let masked = AccessToken("\u{1B}[2J1234567890\u{7}\u{9B}x").masked

        #expect(masked == "•[2J…0••x")
    }

    @Test func theDemoTokenIsAValidTokenAndPlainlyADemo() throws {
        #expect(AccessToken.problem(with: DemoAccessTokenService.token.value) == nil)
        #expect(DemoAccessTokenService.token.masked == "sk-d…f9c2")
        #expect(try DemoAccessTokenService().accessToken() == AccessToken("sk-demo-0000-f9c2"))
    }
}
