import DependencyStore
import Foundation
import Testing

// A property created while a store builds an instance it keeps resolves from that store, whoever
// asked for the instance: through a request's store, an app singleton's properties resolve from the
// app's store (the sharing rule). Its missing-registration message names the build that created it
// and gives a server's fix first.

/// A request's value, which only request stores register.
private struct RequestID {
    let value: String
}

/// An app singleton whose property reads a request's value.
private final class Reporter {
    @Injected var request: RequestID
}

/// Built by an app singleton's factory, with a property of its own.
private final class Formatter {
    @Injected var request: RequestID
}

/// An app singleton that holds a `Formatter`.
private final class ReportBoard {
    let formatter: Formatter
    init(formatter: Formatter) { self.formatter = formatter }
}

@Suite struct PropertyOriginTests {
    private let file = "DependencyStoreTests/PropertyOriginTests.swift"

    /// The message of the first read of `read`, which must fail.
    private func message(
        sourceLocation: Testing.SourceLocation = #_sourceLocation, _ read: () throws -> Void
    ) -> [String] {
        do {
            try read()
        } catch {
            return "\(error)".components(separatedBy: "\n")
        }
        Issue.record("the read did not fail", sourceLocation: sourceLocation)
        return []
    }

    @Test func aPropertyOfAnAppSingletonNamesItsRegistrationAndGivesTheServersFixFirst() {
        let app = DependencyStore()
        let registeredAt = #line + 1
        app.register(Reporter.self, scope: .singleton) { _ in Reporter() }
        let request = DependencyStore(parent: app)
        request.register(RequestID(value: "r-1"), for: RequestID.self)
        let reporter = request.resolve(Reporter.self)

        let lines = message { _ = try reporter.$request.tryValue() }

        #expect(
            lines.contains(
                "  Created by: the factory of 'DependencyStoreTests.Reporter' (.singleton, registered at "
                    + "\(file):\(registeredAt)), run by \(app), which keeps the instance"))
        let fix = lines.firstIndex(
            of: "  To fix: this store keeps 'Reporter' (.singleton) and shares it with the stores layered over it")
        let alternatives = [
            "      - resolve 'RequestID' where the request's store is current (inside its execute { }) and pass it",
            "      - or register 'Reporter' as .unique, so that each request's store builds its own, bound to that store;",
            "      - or register 'Reporter' in each request's store, and declare it here with providedPerRequest(Reporter.self).",
        ]
        let testAdvice = lines.firstIndex(
            of: "  If this store should register 'RequestID' itself (a test's store, say):")
        #expect(fix != nil)
        #expect(alternatives.allSatisfy(lines.contains))
        #expect(testAdvice != nil && fix != nil && fix! < testAdvice!, "the server's fix first, then a test's")
        #expect(!lines.contains { $0.contains("before the code under test resolves it") })
        withExtendedLifetime(request) {}
    }

    @Test func aPropertyMadeByWhatAnAppSingletonResolvedNamesBoth() {
        let app = DependencyStore()
        let formatterAt = #line + 1
        app.register(Formatter.self) { _ in Formatter() }
        app.register(ReportBoard.self, scope: .singleton) { store in ReportBoard(formatter: store.resolve()) }
        let request = DependencyStore(parent: app)
        request.register(RequestID(value: "r-1"), for: RequestID.self)
        let dashboard = request.resolve(ReportBoard.self)

        let lines = message { _ = try dashboard.formatter.$request.tryValue() }

        #expect(
            lines.contains(
                "  Created by: the factory of 'DependencyStoreTests.Formatter' (.unique, registered at "
                    + "\(file):\(formatterAt)), run by \(app) while it built 'DependencyStoreTests.ReportBoard' "
                    + "(.singleton), which it keeps"))
        #expect(lines.contains { $0.hasPrefix("  To fix: this store keeps 'ReportBoard' (.singleton)") })
        withExtendedLifetime(request) {}
    }

    @Test func aTypeDeclaredPerRequestGetsOnlyTheServersFix() {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)
        app.register(Reporter.self, scope: .singleton) { _ in Reporter() }
        let request = DependencyStore(parent: app)
        request.register(RequestID(value: "r-1"), for: RequestID.self)
        let reporter = request.resolve(Reporter.self)

        let lines = message { _ = try reporter.$request.tryValue() }

        #expect(
            lines.contains { $0.hasPrefix("  'RequestID' is provided per request: declared with providedPerRequest") })
        #expect(lines.contains { $0.hasPrefix("  To fix: this store keeps 'Reporter' (.singleton)") })
        #expect(!lines.contains { $0.hasPrefix("  If this store should register") }, "no store here should")
        #expect(!lines.contains { $0.hasPrefix("  To fix: resolve it from the request's store") }, "one fix, not two")
        withExtendedLifetime(request) {}
    }

    @Test func aPropertyMadeOutsideAKeptBuildIsNamedAsBefore() {
        let app = DependencyStore()
        let reporter = app.execute { Reporter() }  // made at start-up, in no factory
        let request = DependencyStore(parent: app)
        request.register(RequestID(value: "r-1"), for: RequestID.self)

        let lines = message { _ = try reporter.$request.tryValue() }

        #expect(!lines.contains { $0.hasPrefix("  Created by:") })
        #expect(
            lines.contains("  resolve it where that store is current (inside its execute { }), or pass the value in."))
        withExtendedLifetime(request) {}
    }

    // Exit tests need Swift 6.2 (Xcode 26) and a child process, which Swift Testing offers on
    // macOS, Linux and Windows only.
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func theTrapOfTheFirstReadSaysTheSame() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let app = DependencyStore()
                app.register(Reporter.self, scope: .singleton) { _ in Reporter() }
                let request = DependencyStore(parent: app)
                request.register(RequestID(value: "r-1"), for: RequestID.self)
                _ = request.resolve(Reporter.self).request
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("DependencyStoreTests/PropertyOriginTests.swift:17: Fatal error"))
        #expect(stderr.contains("  Created by: the factory of '"))
        #expect(stderr.contains("  To fix: this store keeps 'Reporter' (.singleton) and shares it"))
    }
    #endif
}
