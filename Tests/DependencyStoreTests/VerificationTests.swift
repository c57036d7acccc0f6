import DependencyStore
import Foundation
import Testing

// A small app, wired wrong on purpose in four ways, and right everywhere else.

private protocol Networking {}
private final class LiveNetworking: Networking {}
private protocol Storage {}
private final class Logger {}
private final class PriceFetcher {
    let networking: Networking
    init(networking: Networking) { self.networking = networking }
}
private final class AppCoordinator {
    let fetcher: PriceFetcher
    init(fetcher: PriceFetcher) { self.fetcher = fetcher }
}
private final class CycleA { init(_: CycleB) {} }
private final class CycleB { init(_: CycleA) {} }
private final class UserRepository { init(_: Logger) {} }
private final class Presenter { init(_: UserRepository) {} }
private final class Cache { @Injected var clock: Clock }
private final class Uploader { @Injected var storage: Storage }
private final class Analytics { init(_: Logger) {} }
private final class Greeter { init(_: String) {} }

/// Registers the sample app. `instancesBuilt` counts every factory run.
private func registerSampleApp(in store: DependencyStore, instancesBuilt: Counter = Counter()) {
    store.register(Logger.self, scope: .singleton) { _ in
        instancesBuilt.increment()
        return Logger()
    }
    store.register(Analytics.self) { store in
        instancesBuilt.increment()
        return Analytics(store.resolve())
    }
    // 1. PriceFetcher needs Networking, which nothing registers.
    store.register(PriceFetcher.self) { store in PriceFetcher(networking: store.resolve()) }
    store.register(AppCoordinator.self) { store in AppCoordinator(fetcher: store.resolve()) }
    // 2. A cycle.
    store.register(CycleA.self) { store in CycleA(store.resolve()) }
    store.register(CycleB.self) { store in CycleB(store.resolve()) }
    // 3. A singleton presenter holding a session-scoped repository: captive. A singleton cache
    //    holding a unique clock through @Injected: captive only under the strict rule.
    store.register(UserRepository.self, scope: .session) { store in UserRepository(store.resolve()) }
    store.register(Presenter.self, scope: .singleton) { store in
        instancesBuilt.increment()
        return Presenter(store.resolve())
    }
    store.register(FixedClock(1), for: Clock.self)
    store.register(Cache(), for: Cache.self, scope: .singleton)
    // 4. An @Injected property for Storage, which nothing registers.
    store.register(Uploader(), for: Uploader.self)
    // Needs an argument: skipped unless given one.
    store.register(Greeter.self) { (_, name: String) in Greeter(name) }
}

@Suite("verify()")
struct VerificationTests {
    @Test("the mis-wired sample app reports exactly its missing, cyclic and captive edges")
    func misWiredSampleApp() throws {
        let store = DependencyStore()
        registerSampleApp(in: store)

        let report = store.verify()

        #expect(!report.isClean)
        let found = report.problems.map { "\($0.kind): " + $0.path.map(\.description).joined(separator: " -> ") }
        #expect(
            found == [
                "missing: AppCoordinator -> PriceFetcher -> Networking",
                "cycle: CycleA -> CycleB -> CycleA",
                "missing: Uploader -> Storage",
                "captive: Presenter -> UserRepository",
            ])
        #expect(report.skipped.map(\.description) == ["Greeter"])
        #expect(report.verifiedCount == 11)
    }

    @Test("the strict captive rule also reports a unique instance that a singleton holds")
    func strictCaptives() {
        let store = DependencyStore()
        registerSampleApp(in: store)

        let report = store.verify(captives: .strict)

        let captives = report.problems.filter { $0.kind == .captive }
        #expect(captives.map { $0.path.map(\.description) } == [["Cache", "Clock"], ["Presenter", "UserRepository"]])
        #expect(
            captives[0].description.hasPrefix(
                "captive: Cache (.singleton) holds Clock (.unique), so that instance lives as long as Cache does"))
        #expect(captives[0].description.hasSuffix("(Reported by the strict captive rule.)"))
    }

    @Test("the seed's idiom, a shared instance registered as .unique and held by a singleton, verifies clean")
    func seedIdiomIsNotCaptive() {
        let store = DependencyStore()
        let shared = LiveNetworking()
        store.register(shared, for: Networking.self)
        store.register(PriceFetcher.self, scope: .singleton) { store in PriceFetcher(networking: store.resolve()) }
        store.register(Cache(), for: Cache.self, scope: .singleton)
        store.register(FixedClock(1), for: Clock.self)

        #expect(store.verify().isClean)
        #expect(store.verify(captives: .strict).problems.map(\.kind) == [.captive, .captive])
    }

    @Test(
        "a scoped lifetime held past its end is captive under both rules: .weak in a singleton, one custom scope in another"
    )
    func scopedCaptives() {
        let store = DependencyStore()
        store.register(Logger.self, scope: .weak) { _ in Logger() }
        store.register(Analytics.self, scope: .singleton) { store in Analytics(store.resolve()) }
        store.register(UserRepository.self, scope: .cart) { store in UserRepository(store.resolve()) }
        store.register(Presenter.self, scope: .session) { store in Presenter(store.resolve()) }

        for rule in [CaptiveRule.scoped, .strict] {
            let found = store.verify(captives: rule).problems.map {
                $0.path.map(\.description).joined(separator: " -> ")
            }
            #expect(
                found.sorted() == [
                    "Analytics -> Logger",
                    "Presenter -> UserRepository",
                    "UserRepository -> Logger",
                ])
        }
    }

    @Test("each report line names the problem, the path and the fix")
    func reportLines() {
        let store = DependencyStore()
        registerSampleApp(in: store)

        let lines = store.verify().description.split(separator: "\n").map(String.init)

        #expect(lines[0].hasPrefix("verify(): the store created at DependencyStoreTests/VerificationTests.swift:"))
        #expect(lines[0].hasSuffix(": checked 11 registrations, 4 problems."))
        #expect(
            lines[1].hasPrefix(
                "- missing: AppCoordinator -> PriceFetcher -> Networking (not registered). Fix: register Networking"))
        #expect(lines[2].hasPrefix("- cycle: CycleA -> CycleB -> CycleA. Fix: break the loop"))
        #expect(
            lines[3].hasPrefix(
                "- missing: Uploader -> Storage (not registered, by the @Injected property at DependencyStoreTests/VerificationTests.swift:"
            ))
        #expect(lines[4].hasPrefix("- captive: Presenter (.singleton) holds UserRepository (Scope(\"session\"))"))
        #expect(lines[4].contains("Fix: register UserRepository with Presenter's scope or a longer one"))
        #expect(lines[5].hasPrefix("Skipped, as their factories take arguments"))
        #expect(lines[6].hasPrefix("- Greeter, registered at DependencyStoreTests/VerificationTests.swift:"))
        #expect(lines.count == 7)
    }

    @Test("verification builds in a copy: the store keeps no instance and no singleton is created in it")
    func realStoreUntouched() {
        let store = DependencyStore()
        let built = Counter()
        registerSampleApp(in: store, instancesBuilt: built)

        _ = store.verify()

        #expect(built.value > 0, "the factories ran")
        #expect(store.reset(.singleton) == 0, "no singleton was kept in the real store")
        #expect(store.reset(.session) == 0)
        let before = built.value
        _ = store.resolve(Analytics.self)
        #expect(built.value == before + 2, "the real store built its own Logger singleton and Analytics")
    }

    @Test("a store wired right verifies clean, and a child that registers what is missing fixes its parent's graph")
    func cleanAndLayered() {
        let parent = DependencyStore()
        parent.register(Logger(), for: Logger.self, scope: .singleton)
        parent.register(PriceFetcher.self) { store in PriceFetcher(networking: store.resolve()) }
        parent.register(AppCoordinator.self) { store in AppCoordinator(fetcher: store.resolve()) }
        let child = DependencyStore(parent: parent)
        child.register(LiveNetworking(), for: Networking.self)

        let parentReport = parent.verify()
        let childReport = child.verify()

        #expect(parentReport.problems.map(\.kind) == [.missing])
        #expect(childReport.isClean, "\(childReport)")
        #expect(childReport.description.hasSuffix(": checked 4 registrations, no problems."))
        let edges = childReport.graph.edges.map { "\($0.from) -> \($0.to)" }
        #expect(Set(edges) == ["AppCoordinator -> PriceFetcher", "PriceFetcher -> Networking"])
    }

    @Test("sample arguments build a registration that takes arguments; wrong ones are reported")
    func sampleArguments() {
        let store = DependencyStore()
        let names = Recorded<[String]>([])
        store.register(Greeter.self) { (_, name: String) in
            names.update { $0.append(name) }
            return Greeter(name)
        }
        store.register(Banner.self) { store in
            Banner(greeting: store.resolve(), clock: store.resolve())
        }
        store.register(Greeting.self) { (_, text: String, _: Int) in FixedGreeting(text) }
        store.register(FixedClock(3), for: Clock.self)

        let withSample = store.verify(sampleArguments: [SampleArguments(for: Greeter.self, "Ada")])

        #expect(names.value == ["Ada"])
        #expect(withSample.skipped.map(\.description) == ["Greeting"])
        #expect(withSample.problems.map(\.kind) == [.failed])
        // The dependent first, the registration whose resolve failed last.
        #expect(withSample.problems.first?.path.map(\.description) == ["Banner", "Greeting"])
        #expect(
            withSample.problems.first?.description.hasPrefix(
                "failed: Banner -> Greeting: DependencyStore: wrong arguments for 'DependencyStoreTests.Greeting'")
                == true,
            "\(withSample)")
        #expect(
            withSample.problems.first?.description.hasSuffix(
                "Fix: pass values of exactly those types, in that order: resolve(Greeting.self, arguments: <String>, <Int>)"
            ) == true, "the diagnostic's own fix, not a repository path")
    }

    @Test("a factory that does not return in time is reported and verification goes on", .onThreadsOfItsOwn)
    func timeout() {
        let store = DependencyStore()
        let release = DispatchSemaphore(value: 0)
        store.register(Session.self) { _ in
            release.wait(for: "the test to release the factory")
            return Session()
        }
        store.register(FixedClock(1), for: Clock.self)

        let report = store.verify(timeout: 0.2)
        release.signal()

        #expect(report.problems.map(\.kind) == [.timedOut])
        #expect(
            report.problems.first?.description.hasPrefix(
                "timed out: the factory of Session did not return within 0.2 s") == true)
        #expect(report.graph.nodes.map(\.description).sorted() == ["Clock", "Session"])
    }

    @Test("a build that needs what a stopped build holds is reported at once, with the real cause")
    func buildsBlockedByAStoppedBuildNameItsCause() {
        let store = DependencyStore()
        store.register(PriceFetcher.self, scope: .singleton) { store in PriceFetcher(networking: store.resolve()) }
        store.register(AppCoordinator.self) { store in AppCoordinator(fetcher: store.resolve()) }
        store.register(Banner.self) { store in
            _ = store.resolve(PriceFetcher.self)
            return Banner(greeting: FixedGreeting("x"), clock: FixedClock(0))
        }

        // Waiting on the stopped build's gate would end in a time-out after 30 s, and show.
        let report = store.verify(timeout: 30)

        // AppCoordinator comes first and stops in the PriceFetcher singleton's build (whose gate
        // its parked thread still holds); Banner needs that singleton and is told why at once.
        let found = report.problems.map { "\($0.kind): " + $0.path.map(\.description).joined(separator: " -> ") }
        #expect(
            found == [
                "missing: AppCoordinator -> PriceFetcher -> Networking",
                "failed: Banner -> PriceFetcher",
            ])
        #expect(
            report.problems[1].description == "failed: Banner -> PriceFetcher: needs PriceFetcher, whose build "
                + "stopped on another problem of this report (missing: AppCoordinator -> PriceFetcher -> Networking). "
                + "Fix: fix that problem; this one goes with it.")
    }

    @Test("a build that reads an @Injected property a stopped build holds is reported at once, not as a time-out")
    func buildsBlockedOnAPropertyOfAStoppedBuildNameItsCause() {
        let store = DependencyStore()
        // One Cache singleton, whose clock property's first read stops on a missing Greeting.
        store.register(Cache(), for: Cache.self, scope: .singleton)
        store.register(Clock.self) { store in
            _ = store.resolve(Greeting.self)
            return FixedClock(0)
        }
        store.register(AppCoordinator.self) { store in
            _ = store.resolve(Cache.self).clock
            return AppCoordinator(fetcher: PriceFetcher(networking: LiveNetworking()))
        }
        store.register(Banner.self) { store in
            Banner(greeting: FixedGreeting("x"), clock: store.resolve(Cache.self).clock)
        }

        let report = store.verify(timeout: 30)

        let found = report.problems.map { "\($0.kind): " + $0.path.map(\.description).joined(separator: " -> ") }
        #expect(
            found == [
                "missing: AppCoordinator -> Clock -> Greeting",
                "failed: Banner -> Clock",
            ])
        #expect(
            report.problems[1].description.contains(
                "stopped on another problem of this report (missing: AppCoordinator -> Clock -> Greeting)"))
        #expect(!report.problems.contains { $0.kind == .timedOut })
    }

    @Test(
        "a chain 1,000 registrations deep is built once, link by link: verification is linear in its size",
        .onThreadsOfItsOwn)
    func deepChainsAreVerifiedInLinearWork() {
        let store = DependencyStore()
        let builds = Counter()
        let depth = 1_000
        for link in 0..<depth {
            store.register(Session.self, name: "\(link)") { store in
                builds.increment()
                if link + 1 < depth { _ = store.resolve(Session.self, name: "\(link + 1)") }
                return Session(link)
            }
        }

        let report = store.verify()

        #expect(report.isClean)
        #expect(report.verifiedCount == depth)
        #expect(report.graph.edges.count == depth - 1)
        // Each factory ran once: verifying every link again as a root made this depth²/2.
        #expect(builds.value == depth)
    }
}

@Suite("Graph pictures")
struct GraphPictureTests {
    private func smallReport() -> VerificationReport {
        let store = DependencyStore()
        store.register(Logger(), for: Logger.self, scope: .singleton)
        store.register(Presenter.self, scope: .singleton) { store in Presenter(store.resolve()) }
        store.register(UserRepository.self, scope: .session) { store in UserRepository(store.resolve()) }
        store.register(Uploader(), for: Uploader.self)
        return store.verify()
    }

    @Test("Mermaid: scopes on the nodes, @Injected dashed, missing and problem edges coloured")
    func mermaid() {
        #expect(
            smallReport().mermaid() == """
                flowchart LR
                    n0["Logger<br/>.singleton"]
                    n1["Presenter<br/>.singleton"]
                    n2["UserRepository<br/>Scope(#quot;session#quot;)"]
                    n3["Uploader<br/>.unique"]
                    n4["Storage<br/>not registered"]:::missing
                    n1 --> n2
                    n2 --> n0
                    n3 -. @Injected .-> n4
                    linkStyle 0 stroke:#d97706,stroke-width:3px
                    linkStyle 2 stroke:#dc2626,stroke-width:3px
                    classDef missing fill:#fee2e2,stroke:#dc2626,color:#991b1b

                """)
    }

    @Test("DOT: the same graph for Graphviz, quotes escaped")
    func dot() {
        #expect(
            smallReport().dot() == """
                digraph dependencies {
                    rankdir=LR;
                    node [shape=box, style=rounded, fontname="Helvetica"];
                    n0 [label="Logger\\n.singleton"];
                    n1 [label="Presenter\\n.singleton"];
                    n2 [label="UserRepository\\nScope(\\"session\\")"];
                    n3 [label="Uploader\\n.unique"];
                    n4 [label="Storage\\nnot registered", color="#dc2626", fontcolor="#991b1b"];
                    n1 -> n2 [color="#d97706", penwidth=2];
                    n2 -> n0;
                    n3 -> n4 [style=dashed, label="@Injected", color="#dc2626", penwidth=2];
                }

                """)
    }
}

/// The report's last two sections, word for word: neither is checked whole anywhere else.
@Suite("verify() report sections")
struct VerificationReportSectionTests {
    @Test("alternatives for contexts and registrations skipped for their isolation, each under its title")
    func alternativesAndIsolationSkips() {
        let store = DependencyStore()
        store.register(URLSessionTransport(), for: Transport.self, fileID: "App/Wiring.swift", line: 3)
            .on(.test) { _ in NamedTransport("mock") }
            .on(.preview) { _ in NamedTransport("preview") }
        store.register(Transport.self, name: "backup", fileID: "App/Wiring.swift", line: 6) { _ in
            URLSessionTransport()
        }
        .on(.test) { _ in NamedTransport("backup mock") }
        store.register(ProfileModel.self, on: MainActor.self, fileID: "App/Wiring.swift", line: 9) { _ in
            ProfileModel(number: 1)
        }
        store.register(Database.self, fileID: "App/Wiring.swift", line: 12) { _ async throws in
            Database(generation: 0)
        }
        store.register(Banner.self, fileID: "App/Wiring.swift", line: 14) { store in
            _ = store.resolve(ProfileModel.self)
            return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
        }

        let report = DependencyContext.withActive([.preview]) { store.verify() }

        // The summary line names the store by where this test created it.
        let sections = report.description.split(separator: "\n").dropFirst().joined(separator: "\n")
        #expect(
            sections == """
                Alternatives for contexts (each was built; the one in force is what the others resolve):
                - Transport, registered at App/Wiring.swift:3: .preview in force, of .test, .preview
                - Transport (named "backup"), registered at App/Wiring.swift:6: the default in force, of .test
                Skipped, as verify() builds on threads of its own (await verifyAsync() to build these on the main actor and in tasks):
                - Database, registered at App/Wiring.swift:12: its factory is async
                - ProfileModel, registered at App/Wiring.swift:9: its factory runs on the main actor
                - Banner, registered at App/Wiring.swift:14: it needs ProfileModel, whose factory runs on the main actor
                """)
    }
}

/// A decorator or completion step that matches nothing would never run: verify says so.
@Suite struct UnmatchedDecoratorTests {
    @Test func aDecoratorForANameNothingRegistersIsReported() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        store.decorate(Greeting.self, name: "formal") { _, greeting in greeting }
        let report = store.verify()
        let problem = report.problems.first { $0.kind == .unmatchedDecorator }
        #expect(problem != nil, "\(report)")
        #expect(problem?.description.contains("unmatched decorator: the decorator added at") == true)
        #expect(problem?.description.contains("DependencyStoreTests/VerificationTests.swift:") == true)
        #expect(problem?.description.contains("matches no registration of Greeting (named \"formal\")") == true)
    }

    @Test func aCompletionStepForAnUnregisteredTypeIsReported() {
        let store = DependencyStore()
        store.complete(Clock.self) { _, _ in }
        let report = store.verify()
        #expect(report.problems.map(\.kind) == [.unmatchedDecorator])
        #expect(report.problems.first?.description.contains("unmatched completion step") == true)
    }

    @Test func decoratorsThatMatchSomethingAreNotReported() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        store.register(FixedGreeting("good day"), for: Greeting.self, name: "formal")
        store.contribute(FixedClock(1), to: Clock.self)
        store.decorate(Greeting.self) { _, greeting in greeting }
        store.decorate(Greeting.self, name: "formal") { _, greeting in greeting }
        store.decorate(every: Clock.self) { _, clock in clock }
        let child = DependencyStore(parent: store)
        child.decorate(Greeting.self) { _, greeting in greeting }
        #expect(store.verify().isClean)
        #expect(child.verify().isClean, "a child's decorator of its parent's registration matches it")
    }
}

@Suite struct UnmatchedDecoratorEdgeTests {
    @Test func aParentsDecoratorOfWhatAChildRegistersIsNotUnmatched() {
        let parent = DependencyStore()
        parent.decorate(Greeting.self) { _, greeting in FixedGreeting(greeting.text + "!") }
        let child = DependencyStore(parent: parent)
        child.register(FixedGreeting("Hi"), for: Greeting.self)
        #expect(child.resolve(Greeting.self).text == "Hi!", "it runs")
        #expect(parent.verify().isClean, "so it is not reported")
    }

    @Test func aDecoratorOfAForwardedTypeSaysToDecorateTheTarget() {
        let store = DependencyStore()
        store.register(FixedClock(1), for: FixedClock.self)
        store.forward(Clock.self, to: FixedClock.self)
        store.decorate(Clock.self) { _, clock in clock }
        let problem = store.verify().problems.first { $0.kind == .unmatchedDecorator }
        #expect(problem?.description.contains("only a forward of Clock") == true)
        #expect(problem?.description.contains("add the decorator for the forward's target") == true)
    }
}

@Suite struct UnusedSampleTests {
    @Test func sampleArgumentsThatMatchNoRegistrationTakingArgumentsAreReported() {
        let store = DependencyStore()
        store.register(Greeting.self, name: "formal") { (_, name: String) in FixedGreeting("Good day, \(name)") }
        store.register(FixedClock(1), for: Clock.self)
        let report = store.verify(sampleArguments: [
            SampleArguments(for: Greeting.self, name: "formal", "Ada"),  // used
            SampleArguments(for: Greeting.self, name: "typo", "Ada"),
            SampleArguments(for: Clock.self, 1),
        ])
        let unused = report.problems.filter { $0.kind == .unusedSample }.map(\.description)
        #expect(unused.count == 2, "\(report)")
        #expect(unused.contains { $0.contains("the SampleArguments for Greeting (named \"typo\") match no") })
        #expect(unused.contains { $0.contains("the SampleArguments for Clock match no registration") })
        #expect(!report.problems.contains { $0.kind != .unusedSample }, "the formal greeting was built")
    }
}

/// A `Provider` resolves at each call and keeps nothing, so whoever holds one is no captive of
/// what it resolves, under either rule.
@Suite struct ProviderCaptiveTests {
    private final class SessionThing {}

    private final class KeepsAProvider {
        let sessions: Provider<SessionThing>
        init(sessions: Provider<SessionThing>) { self.sessions = sessions }
    }

    private final class KeepsTheInstance {
        let session: SessionThing
        init(session: SessionThing) { self.session = session }
    }

    @Test func aSingletonHoldingAProviderOfAScopedServiceIsNoCaptive() {
        let store = DependencyStore()
        store.register(SessionThing.self, scope: Scope("session")) { _ in SessionThing() }
        store.register(KeepsAProvider.self, scope: .singleton) { store in KeepsAProvider(sessions: store.resolve()) }
        store.register(KeepsTheInstance.self, scope: .singleton) { store in KeepsTheInstance(session: store.resolve()) }

        for rule in [CaptiveRule.scoped, .strict] {
            let captives = store.verify(captives: rule).problems.filter { $0.kind == .captive }
            #expect(captives.map { $0.path.first!.type } == ["KeepsTheInstance"], "\(captives)")
        }
    }
}
