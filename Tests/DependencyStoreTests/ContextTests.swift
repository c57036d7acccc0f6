import Foundation
import Testing

@testable import DependencyStore

// Alternatives for contexts: `.on(.test) { ... }` on a registration (RegistrationEntry+Contexts).

protocol Transport: AnyObject {
    var kind: String { get }
}

final class URLSessionTransport: Transport {
    var kind: String { "live" }
}

final class NamedTransport: Transport {
    let kind: String
    init(_ kind: String) { self.kind = kind }
}

/// What a `.unique` factory under contention builds: the work takes a moment, so builds overlap.
final class SlowTransport: Transport {
    let kind: String
    init(_ kind: String) {
        Thread.sleep(forTimeInterval: 0.000_2)
        self.kind = kind
    }
}

final class ClosableTransport: Transport, Closable, @unchecked Sendable {
    let kind: String
    let log: CloseLog
    init(_ kind: String, log: CloseLog) {
        self.kind = kind
        self.log = log
    }
    func close() { log.append(kind) }
}

private final class NewsFeed {
    @Injected var networking: Transport
}

@Suite struct ContextTests {
    /// A store whose `Transport` has the alternatives of a typical app.
    private func appStore(scope: Scope = .unique) -> DependencyStore {
        let store = DependencyStore()
        store.register(Transport.self, scope: scope) { _ in URLSessionTransport() }
            .on(.test) { _ in NamedTransport("mock") }
            .on(.argument("-mock-network")) { _ in NamedTransport("stub") }
            .on(.preview) { _ in NamedTransport("preview") }
        return store
    }

    @Test func aLaunchArgumentPicksTheMockAUITestAsksFor() {
        let store = appStore()
        // As the app launched by `app.launchArguments = ["-mock-network"]` sees itself.
        let launched = DetectedContexts(arguments: ["/App", "-mock-network"], environment: { _ in nil })
        DependencyContext.withActive(launched.contexts) {
            #expect(store.resolve(Transport.self).kind == "stub")
        }
        let plain = DetectedContexts(arguments: ["/App", "-other"], environment: { _ in nil })
        DependencyContext.withActive(plain.contexts.subtracting([.debug])) {
            #expect(store.resolve(Transport.self).kind == "live")
        }
    }

    @Test func aPreviewBuildsThePreviewAlternative() async {
        let store = appStore()
        let preview = DetectedContexts(
            arguments: ["/App"], environment: { $0 == "XCODE_RUNNING_FOR_PREVIEWS" ? "1" : nil })
        #expect(preview.contexts.contains(.preview))
        await DependencyContext.withActive([.preview]) {
            // Across a suspension, and in a child task.
            await Task.yield()
            #expect(store.resolve(Transport.self).kind == "preview")
            let child = await Task { store.resolve(Transport.self).kind }.value
            #expect(child == "preview")
        }
    }

    @Test func aTestContextThatATestsOwnStoreOverrides() {
        let app = appStore(scope: .singleton)
        DependencyContext.withActive([.test]) {
            #expect(app.resolve(Transport.self).kind == "mock")

            // The test's own store: its registration is found first, whatever the context.
            let mine = DependencyStore(parent: app)
            mine.register(NamedTransport("mine"), for: Transport.self)
            #expect(mine.resolve(Transport.self).kind == "mine")
            let feed = mine.execute { NewsFeed() }
            #expect(feed.networking.kind == "mine")

            // Its own registration may carry alternatives of its own.
            let layered = DependencyStore(parent: app)
            layered.register(NamedTransport("layered"), for: Transport.self)
                .on(.test) { _ in NamedTransport("layered mock") }
            #expect(layered.resolve(Transport.self).kind == "layered mock")

            // A store that registers nothing of its own gets the parent's alternative.
            #expect(DependencyStore(parent: app).resolve(Transport.self).kind == "mock")
        }
    }

    @Test func precedenceIsArgumentPreviewTestSimulatorDeviceDebugThenTheDefault() {
        let store = DependencyStore()
        // Given in the reverse of their precedence, so that the order given cannot be what wins.
        store.register(Transport.self) { _ in NamedTransport("default") }
            .on(.debug) { _ in NamedTransport("debug") }
            .on(.device) { _ in NamedTransport("device") }
            .on(.simulator) { _ in NamedTransport("simulator") }
            .on(.test) { _ in NamedTransport("test") }
            .on(.preview) { _ in NamedTransport("preview") }
            .on(.argument("-first")) { _ in NamedTransport("first") }
            .on(.argument("-second")) { _ in NamedTransport("second") }
        let cases: [(Set<DependencyContext>, String)] = [
            ([], "default"),
            ([.debug], "debug"),
            ([.debug, .device], "device"),
            ([.debug, .device, .simulator], "simulator"),
            ([.debug, .simulator, .test], "test"),
            ([.debug, .test, .preview], "preview"),
            ([.debug, .test, .preview, .argument("-second")], "second"),
            // Of two arguments in force, the one given first.
            ([.argument("-second"), .argument("-first"), .preview], "first"),
            ([.argument("-unrelated")], "default"),
        ]
        for (contexts, expected) in cases {
            DependencyContext.withActive(contexts) {
                #expect(store.resolve(Transport.self).kind == expected, "in \(contexts)")
            }
        }
    }

    @Test func withActiveNestsAndRestoresOnEveryExit() throws {
        struct Failure: Error {}
        DependencyContext.withActive([.test]) {
            #expect(DependencyContext.isActive(.test))
            DependencyContext.withActive([]) {
                #expect(DependencyContext.active.isEmpty)
            }
            #expect(throws: Failure.self) {
                try DependencyContext.withActive([.preview]) { throw Failure() }
            }
            #expect(DependencyContext.active == [.test])
        }
    }

    @Test func detectsWhatSwiftTestRunsIn() {
        let detected = DetectedContexts.shared.contexts
        // `swift test` runs an `.xctest` bundle (on Linux as the executable itself), and Xcode
        // sets XCTest's environment: either way, this process is a test runner.
        #expect(detected.contains(.test))
        #expect(!detected.contains(.preview))
        #if DEBUG
        #expect(detected.contains(.debug))
        #else
        #expect(!detected.contains(.debug))
        #endif
        #if targetEnvironment(simulator)
        #expect(detected.contains(.simulator))
        #else
        #expect(!detected.contains(.simulator))
        #endif
        #if os(macOS) || os(Linux)
        #expect(!detected.contains(.device))
        #endif
        for argument in CommandLine.arguments.dropFirst() {
            #expect(detected.contains(.argument(argument)))
        }
        // Outside `withActive`, what is in force is what was detected.
        #expect(DependencyContext.active == detected)
    }

    @Test func detectsATestRunnerByItsEnvironmentOrItsBundle() {
        let none: (String) -> String? = { _ in nil }
        let runners: [([String], (String) -> String?)] = [
            (["/build/debug/AppPackageTests.xctest"], none),
            (["/usr/bin/xctest", "/build/AppPackageTests.xctest"], none),
            (
                ["/usr/bin/swiftpm-testing-helper", "--test-bundle-path", "/b/App.xctest/Contents/MacOS/App"],
                none
            ),
            (["/App.app/App"], { $0 == "XCTestConfigurationFilePath" ? "/tmp/x.xctestconfiguration" : nil }),
        ]
        for (arguments, environment) in runners {
            #expect(DetectedContexts.isTestRunner(arguments: arguments, environment: environment), "\(arguments)")
        }
        #expect(!DetectedContexts.isTestRunner(arguments: ["/App.app/App", "-mock-network"], environment: none))
    }

    @Test func aSingletonBuiltInOneContextStaysUntilReset() {
        let store = appStore(scope: .singleton)
        let first = DependencyContext.withActive([]) { store.resolve(Transport.self) }
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Transport.self) === first)
            store.reset(.singleton)
            #expect(store.resolve(Transport.self).kind == "mock")
        }
    }

    @Test func anAlternativeAddedAfterABuildClosesTheKeptInstance() {
        let log = CloseLog()
        let store = DependencyStore()
        let entry = store.register(Transport.self, scope: .singleton) { _ in ClosableTransport("live", log: log) }
        let child = DependencyStore(parent: store)
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Transport.self).kind == "live")
            entry.on(.test) { _ in ClosableTransport("mock", log: log) }
            #expect(log.names == ["live"])
            #expect(store.resolve(Transport.self).kind == "mock")
            #expect(child.resolve(Transport.self).kind == "mock")
            // `on` on the first entry again adds to what the first `on` put in place.
            entry.on(.preview) { _ in ClosableTransport("preview", log: log) }
            #expect(store.registrations.first?.contexts == [.test, .preview])
        }
    }

    @Test func alternativesShareTheClosingHookAndTheDecorators() {
        let log = CloseLog()
        let store = DependencyStore()
        store.register(Transport.self, scope: .singleton) { _ in NamedTransport("live") }
            .on(.test) { _ in NamedTransport("mock") }
            .closing { log.append("closed \($0.kind)") }
        store.decorate(Transport.self) { _, networking in NamedTransport("decorated \(networking.kind)") }
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Transport.self).kind == "decorated mock")
        }
        store.reset(.singleton)
        #expect(log.names == ["closed decorated mock"])
    }

    @Test func theListingSaysWhichAlternativeIsInForce() throws {
        let store = appStore()
        store.register(NamedTransport("plain"), for: Transport.self, name: "plain")
        DependencyContext.withActive([.test, .preview]) {
            let entries = store.registrations
            let networking = entries.first { $0.name == nil }
            #expect(networking?.contexts == [.test, .argument("-mock-network"), .preview])
            #expect(networking?.contextInForce == .preview)
            #expect(
                networking?.description.hasSuffix(
                    "alternatives on .test, .argument(\"-mock-network\"), .preview (.preview in force)") == true,
                "\(networking.map(String.init(describing:)) ?? "nil")")
            let plain = entries.first { $0.name == "plain" }
            #expect(plain?.contexts == [])
            #expect(plain?.contextInForce == nil)
            #expect(plain?.description.contains("alternatives") == false)
        }
        DependencyContext.withActive([]) {
            #expect(
                store.registrations.first { $0.name == nil }?.description.hasSuffix("(the default in force)") == true)
        }
    }

    @Test func verifyReportsTheAlternativeInForceAndChecksEveryOne() {
        let store = DependencyStore()
        store.register(Clock.self) { _ in FixedClock(1) }
        store.register(Transport.self) { store in
            _ = store.resolve(Clock.self)
            return URLSessionTransport()
        }
        .on(.test) { store in
            // A dependency nothing registers: a finding even where `.test` is not in force.
            _ = store.resolve(Greeting.self)
            return NamedTransport("mock")
        }
        .on(.preview) { _ in NamedTransport("preview") }

        let report = DependencyContext.withActive([.preview]) { store.verify() }
        #expect(report.problems.map(\.kind) == [.missing])
        #expect(report.problems.first?.path.map(\.description) == ["Transport (on .test)", "Greeting"])
        #expect(report.verifiedCount == 2)
        #expect(report.alternatives.map(\.contextInForce) == [.preview])
        #expect(report.description.contains("- Transport, registered at"))
        #expect(report.description.contains(": .preview in force, of .test, .preview"))
        // The default factory was built too, as a root of its own, and its edge recorded.
        let edges = report.graph.edges.map { "\($0.from) -> \($0.to)" }
        #expect(edges.contains("Transport (default) -> Clock"))
    }

    @Test func verifyWithTheDefaultInForceIsCleanWhenEveryAlternativeIs() {
        let store = appStore(scope: .singleton)
        let report = DependencyContext.withActive([]) { store.verify() }
        #expect(report.isClean, "\(report)")
        #expect(report.verifiedCount == 1)
        #expect(report.alternatives.map(\.contextInForce) == [nil])
        #expect(report.description.contains(": the default in force, of .test"))
        #expect(Set(report.graph.nodes.map(\.description)).isSuperset(of: ["Transport", "Transport (on .test)"]))
    }

    @Test(.onThreadsOfItsOwn) func eachTaskResolvesTheAlternativeOfItsOwnContexts() {
        let store = DependencyStore()
        let builds = Counter()
        let contexts: [DependencyContext] = [
            .test, .preview, .debug, .simulator, .device, .argument("-a"), .argument("-b"), .argument("-c"),
        ]
        var entry = store.register(Transport.self) { _ in
            builds.increment()
            return SlowTransport("default")
        }
        for context in contexts {
            entry = entry.on(context) { _ in
                builds.increment()
                return SlowTransport("\(context)")
            }
        }
        let wrong = Recorded<[String]>([])
        let resolves = 50
        onManyThreads(threads: 8, rounds: 4) { round, thread in
            // Each thread its own context, a different one each round.
            let context = contexts[(thread + round) % contexts.count]
            DependencyContext.withActive([context]) {
                for _ in 0..<resolves {
                    let kind = store.resolve(Transport.self).kind
                    if kind != "\(context)" { wrong.update { $0.append("\(context) got \(kind)") } }
                }
            }
        }
        #expect(wrong.value == [])
        #expect(builds.value == 8 * 4 * resolves)
    }

    @Test(.onThreadsOfItsOwn) func alternativesAddedOnManyThreadsAtOnceAreAllKept() {
        for _ in 0..<20 {
            let log = CloseLog()
            let store = DependencyStore()
            let entry = store.register(Transport.self, scope: .singleton) { _ in
                ClosableTransport("live", log: log)
            }
            onManyThreads(threads: 8) { _, thread in
                // Resolves race the replacements: each gets the default or an alternative.
                _ = DependencyContext.withActive([]) { store.resolve(Transport.self) }
                entry.on(.argument("-\(thread)")) { _ in ClosableTransport("\(thread)", log: log) }
            }
            let contexts = store.registrations.first?.contexts ?? []
            #expect(Set(contexts) == Set((0..<8).map { DependencyContext.argument("-\($0)") }))
            DependencyContext.withActive([.argument("-5")]) {
                #expect(store.resolve(Transport.self).kind == "5")
            }
            // Every instance the replaced registrations kept was closed, once.
            #expect(log.names.allSatisfy { $0 == "live" })
        }
    }

    // MARK: - What `on` refuses

    /// `on` after a build lets go of what was kept, so a caching modifier chained after it applies
    /// as it would before the first build.
    @Test func aCachingModifierChainedAfterAnOnThatFollowedABuildApplies() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        let entry = store.register(Counted.self, scope: .singleton) { _ in Counted(0) }
        _ = store.resolve(Counted.self)
        entry.on(.argument("-stub")) { _ in Counted(1) }.expiring(after: 5)

        DependencyContext.withActive([.argument("-stub")]) {
            let first = store.resolve(Counted.self)
            #expect(first.number == 1)
            clock.advance(by: 5)
            #expect(store.resolve(Counted.self) !== first)
        }
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func anEmptyArgumentTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                DependencyStore().register(Transport.self) { _ in URLSessionTransport() }
                    .on(.argument("")) { _ in NamedTransport("never") }
            })
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains("cannot add the alternative: an empty launch argument never tells one launch from another"))
    }

    @Test func aContributionOrAFactoryWithArgumentsTraps() async throws {
        let contribution = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                DependencyStore().contribute(Transport.self) { _ in URLSessionTransport() }
                    .on(.test) { _ in NamedTransport("never") }
            })
        #expect(
            String(decoding: contribution.standardErrorContent, as: UTF8.self).contains(
                "it is an element contributed to a collection, which takes no alternatives"))
        let arguments = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                DependencyStore().register(Transport.self) { (_, kind: String) in NamedTransport(kind) }
                    .on(.test) { _ in NamedTransport("never") }
            })
        #expect(
            String(decoding: arguments.standardErrorContent, as: UTF8.self).contains(
                "its factory takes arguments (String), and an alternative takes none"))
    }

    @Test func anEntryOfAReplacedRegistrationTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let old = store.register(Transport.self) { _ in URLSessionTransport() }
                store.register(Transport.self) { _ in NamedTransport("new") }
                old.on(.test) { _ in NamedTransport("never") }
            })
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("the store no longer holds this registration"))
    }
    #endif
}
