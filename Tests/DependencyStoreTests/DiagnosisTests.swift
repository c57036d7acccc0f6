import Foundation
import Testing

@testable import DependencyStore

// The reasons behind the diagnostics, matched as data: which failure it is and the facts gathered
// where it happened, not the words of the message (DiagnosticsTests checks those). Failures that
// trap rather than throw are checked in a child process against the text of the reason expected.

/// A value type, which `.weak` and `@WeakInjected` cannot hold.
struct DiagnosisToken {}

/// What a main-actor factory builds.
final class DiagnosisModel: Sendable {}

/// Runs `body` and returns the reason it failed with, recording an issue when it did not fail.
private func reason(
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> Diagnosis? {
    do {
        try body()
    } catch let error as ResolutionError {
        return error.diagnosis
    } catch {
        Issue.record("not a ResolutionError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    Issue.record("expected a ResolutionError", sourceLocation: sourceLocation)
    return nil
}

/// A factory that asks for `type` with `tryResolve` and records the error it throws, if any.
private func recordingFailure<T>(of type: T.Type, in errors: Recorded<[ResolutionError]>) -> (DependencyStore) -> Void {
    { store in
        do throws(ResolutionError) { _ = try store.tryResolve(type) } catch { errors.update { $0.append(error) } }
    }
}

@Suite struct DiagnosisTests {
    @Test func aMissingRegistrationHasTheRequestTheStoresSearchedAndTheNamesRegistered() {
        let parent = DependencyStore()
        parent.register(FixedGreeting("hi"), for: Greeting.self, name: "formal")
        parent.register(FixedGreeting("hi"), for: Greeting.self)
        let store = DependencyStore(parent: parent)
        store.register(FixedClock(0), for: Clock.self)
        guard
            case .missingRegistration(let request, let missing) = reason({
                _ = try store.tryResolve(Greeting.self, name: "casual")
            })
        else {
            Issue.record("not a missing registration")
            return
        }
        #expect(request.requested == "DependencyStoreTests.Greeting (named \"casual\")")
        #expect(request.shortName == "Greeting")
        #expect(request.name == "casual")
        #expect(request.chain == [request.requested])
        #expect(request.requester.location.fileID.description == "DependencyStoreTests/DiagnosisTests.swift")
        #expect(request.store.name == store.description)
        #expect(request.store.registrationCount == 1)
        #expect(!request.store.isRoot)
        #expect(missing.searched.map(\.name) == [parent.description])
        #expect(missing.searched.map(\.registrationCount) == [2])
        #expect(missing.registeredNames == ["formal", nil])
        #expect(missing.notes.isEmpty)
        #expect(missing.closeMatches.isEmpty)
        #expect(missing.collection == nil)
        #expect(missing.askedForAs == nil)
    }

    @Test func aMissingRegistrationRemembersItsRemovalWhoRequiresItAndWhatWasBeingBuilt() {
        let store = DependencyStore()
        store.register(FixedClock(0), for: Clock.self)
        #expect(store.unregister(Clock.self))
        store.require(Clock.self)
        let errors = Recorded<[ResolutionError]>([])
        store.register(Banner.self) { store in
            recordingFailure(of: Clock.self, in: errors)(store)
            return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
        }
        _ = store.resolve(Banner.self)
        guard case .missingRegistration(let request, let missing) = errors.value.first?.diagnosis else {
            Issue.record("not a missing registration: \(errors.value)")
            return
        }
        #expect(request.chain == ["DependencyStoreTests.Banner", "DependencyStoreTests.Clock"])
        #expect(errors.value.first?.chain == request.chain)
        #expect(missing.notes.count == 2)
        if case .removed(_, _, let how, let inStore) = missing.notes.first {
            #expect(how == "unregister(_:)")
            #expect(inStore == nil)
        } else {
            Issue.record("the first note is not the removal: \(missing.notes)")
        }
        if case .requiredBy(let declarer) = missing.notes.last {
            #expect(declarer.hasPrefix("DependencyStoreTests/DiagnosisTests.swift:"))
        } else {
            Issue.record("the last note is not the requirement: \(missing.notes)")
        }
    }

    @Test func aTypeProvidedPerRequestIsANoteNamingTheStoreThatDeclaredIt() {
        struct ServerAssembly: Assembly {
            func assemble(into store: DependencyStore) { store.providedPerRequest(Clock.self) }
        }
        let app = DependencyStore()
        app.apply(ServerAssembly())
        let request = DependencyStore(parent: app)
        request.register(FixedClock(1), for: Clock.self)
        let forgetful = DependencyStore(parent: app)

        guard case .missingRegistration(_, let fromApp) = reason({ _ = try app.tryResolve(Clock.self) }) else {
            Issue.record("not a missing registration")
            return
        }
        // One note: the declaration says more than "registered in a store over this one".
        #expect(fromApp.notes.count == 1)
        if case .providedPerRequest(let declaredAt, let assembly, let inStore) = fromApp.notes.first {
            #expect(declaredAt.description.hasPrefix("DependencyStoreTests/DiagnosisTests.swift:"))
            #expect(assembly == "ServerAssembly")
            #expect(inStore == nil)
        } else {
            Issue.record("the note is not the declaration: \(fromApp.notes)")
        }
        guard case .missingRegistration(_, let fromRequest) = reason({ _ = try forgetful.tryResolve(Clock.self) })
        else {
            Issue.record("not a missing registration")
            return
        }
        if case .providedPerRequest(_, _, let inStore) = fromRequest.notes.first {
            #expect(inStore == "\(app)")
        } else {
            Issue.record("the note is not the declaration: \(fromRequest.notes)")
        }
        withExtendedLifetime(request) {}
    }

    @Test func aMissingRegistrationNamesCloseMatchesHandlesAndCollections() {
        let store = DependencyStore()
        store.register(FixedClock(0) as Clock?, for: Clock?.self)
        guard case .missingRegistration(_, let missing) = reason({ _ = try store.tryResolve(Clock.self) }) else {
            Issue.record("not a missing registration")
            return
        }
        #expect(missing.closeMatches.map(\.kind) == [Diagnosis.CloseMatch.Kind.optionalRegistered])
        #expect(missing.closeMatches.map(\.candidate) == ["Swift.Optional<DependencyStoreTests.Clock>"])

        guard
            case .missingRegistration(let request, let handle) = reason({
                _ = try store.tryResolve(Provider<Session>.self)
            })
        else {
            Issue.record("not a missing registration")
            return
        }
        #expect(request.requested == "DependencyStoreTests.Session")
        #expect(handle.askedForAs == "Provider<Session>")

        guard case .missingRegistration(_, let list) = reason({ _ = try store.tryResolve([Plugin].self) }),
            case .missingRegistration(_, let dictionary) = reason({ _ = try store.tryResolve([String: Plugin].self) })
        else {
            Issue.record("not missing registrations")
            return
        }
        #expect(list.collection?.element == "Plugin")
        #expect(list.collection?.onlyNamed == false)
        #expect(dictionary.collection?.onlyNamed == true)
    }

    @Test func aCycleHasItsChainAndTheDecoratorsOnIt() {
        let store = DependencyStore()
        let errors = Recorded<[ResolutionError]>([])
        store.register(Ping.self) { store in
            recordingFailure(of: Pong.self, in: errors)(store)
            return Ping(nil)
        }
        store.register(Pong.self) { store in
            recordingFailure(of: Ping.self, in: errors)(store)
            return Pong(nil)
        }
        _ = store.resolve(Ping.self)
        let diagnosis = errors.value.first?.diagnosis
        guard case .cycle(let chain, let acrossTasks, _, let cycleStore, let decorators, _) = diagnosis else {
            Issue.record("not a cycle: \(errors.value)")
            return
        }
        #expect(errors.value.count == 1)
        #expect(chain == ["DependencyStoreTests.Ping", "DependencyStoreTests.Pong", "DependencyStoreTests.Ping"])
        #expect(!acrossTasks)
        #expect(cycleStore.name == store.description)
        #expect(decorators.isEmpty)
        #expect(errors.value.first?.kind == .cycle)
        #expect(errors.value.first?.typeName == "DependencyStoreTests.Ping")

        let decorated = DependencyStore()
        errors.set([])
        decorated.register(Ping.self, scope: .singleton) { _ in Ping(nil) }
        decorated.register(Pong.self) { store in
            recordingFailure(of: Ping.self, in: errors)(store)
            return Pong(nil)
        }
        decorated.decorate(Ping.self) { store, ping in
            _ = store.resolve(Pong.self)
            return ping
        }
        _ = decorated.resolve(Ping.self)
        guard case .cycle(_, _, _, _, let decorators, _) = errors.value.first?.diagnosis else {
            Issue.record("not a cycle: \(errors.value)")
            return
        }
        #expect(decorators.map(\.fileID.description) == ["DependencyStoreTests/DiagnosisTests.swift"])
    }

    @Test(.onThreadsOfItsOwn) func aCycleAcrossThreadsHasWhatEachThreadBuildsAndWaitsFor() {
        let store = DependencyStore()
        let errors = Recorded<[ResolutionError]>([])
        let pingStarted = DispatchSemaphore(value: 0)
        let pongStarted = DispatchSemaphore(value: 0)
        // Each factory waits until the other has started, so each thread holds one gate before it
        // asks for the other's: the second to ask closes the cycle and is told so.
        store.register(Ping.self, scope: .singleton) { store in
            pingStarted.signal()
            pongStarted.wait(for: "Pong's factory to start")
            recordingFailure(of: Pong.self, in: errors)(store)
            return Ping(nil)
        }
        store.register(Pong.self, scope: .singleton) { store in
            pongStarted.signal()
            pingStarted.wait(for: "Ping's factory to start")
            recordingFailure(of: Ping.self, in: errors)(store)
            return Pong(nil)
        }
        onManyThreads(threads: 2) { _, thread in
            if thread == 0 { _ = store.resolve(Ping.self) } else { _ = store.resolve(Pong.self) }
        }
        #expect(errors.value.count == 1)
        guard let error = errors.value.first, case .crossThreadCycle(let threads, _) = error.diagnosis else {
            Issue.record("not a cross-thread cycle: \(errors.value)")
            return
        }
        let awaited = threads.map(\.awaited.label)
        #expect(Set(awaited) == ["DependencyStoreTests.Ping", "DependencyStoreTests.Pong"])
        // Each thread builds what the other waits for.
        #expect(threads.map(\.building) == [[awaited[1]], [awaited[0]]])
        for thread in threads {
            guard case .instance(_, let inStore) = thread.awaited else {
                Issue.record("\(thread.awaited)")
                return
            }
            #expect(inStore == store.description)
        }
        #expect(error.kind == .cycle)
        #expect(error.chain == [awaited[1], awaited[0], awaited[1]])
    }

    @Test func wrongArgumentsHaveWhatTheFactoryTakesAndWhatWasGiven() {
        let store = DependencyStore()
        store.register(Greeting.self, name: "daily") { (_: DependencyStore, text: String, times: Int) in
            FixedGreeting(String(repeating: text, count: times))
        }
        guard
            case .wrongArguments(let request, _, let expected, let shortNames, let given, _) = reason({
                _ = try store.tryResolve(Greeting.self, name: "daily")
            })
        else {
            Issue.record("not wrong arguments")
            return
        }
        #expect(request.requested == "DependencyStoreTests.Greeting (named \"daily\")")
        #expect(expected == ["Swift.String", "Swift.Int"])
        #expect(shortNames == ["String", "Int"])
        #expect(given == nil)
    }

    @Test func aWeakScopeNeedsAClassHasWhatTheFactoryBuilt() {
        let store = DependencyStore()
        store.register(DiagnosisToken.self, scope: .weak) { _ in DiagnosisToken() }
        guard
            case .weakScopeNeedsAClass(let request, let built, _, false) = reason({
                _ = try store.tryResolve(DiagnosisToken.self)
            })
        else {
            Issue.record("not a weak scope that needs a class")
            return
        }
        #expect(request.requested == "DependencyStoreTests.DiagnosisToken")
        #expect(built == "DependencyStoreTests.DiagnosisToken")
    }

    /// A contributed element says "contributed", in its message and its fix (issue 27).
    @Test func aWeakElementThatIsNotAClassSaysItWasContributed() {
        let location = SourceLocation(fileID: "App/Plugins.swift", line: 3)
        let request = Diagnosis.Request(
            requested: "App.Plugin", shortName: "Plugin", name: nil, chain: ["App.Plugin"],
            requester: .call(SourceLocation(fileID: "App/main.swift", line: 9)),
            store: Diagnosis.Store(name: "the root store", isRoot: false, registrationCount: nil))
        let contributed = Diagnosis.weakScopeNeedsAClass(
            request, built: "App.PluginValue", registeredAt: location, contributed: true
        ).text
        #expect(contributed.contains("'App.Plugin' is contributed with scope .weak"))
        #expect(contributed.contains("  Contributed at: App/Plugins.swift:3"))
        #expect(contributed.contains("To fix: contribute it with scope .singleton"))
        let registered = Diagnosis.weakScopeNeedsAClass(
            request, built: "App.PluginValue", registeredAt: location, contributed: false
        ).text
        #expect(registered.contains("'App.Plugin' is registered with scope .weak"))
    }

    @Test func wrongIsolationSaysWhetherTheFactoryIsAsyncOrOnTheMainActor() async {
        let store = DependencyStore()
        store.register(Database.self) { _ async throws in Database(generation: 0) }
        store.register(DiagnosisModel.self, on: MainActor.self) { _ in DiagnosisModel() }
        let errors = Recorded<[ResolutionError]>([])
        store.register(Banner.self) { store in
            recordingFailure(of: Database.self, in: errors)(store)
            return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
        }
        _ = store.resolve(Banner.self)
        guard case .wrongIsolation(let request, let onMainActor, _) = errors.value.first?.diagnosis else {
            Issue.record("not wrong isolation: \(errors.value)")
            return
        }
        #expect(!onMainActor)
        #expect(request.chain == ["DependencyStoreTests.Banner", "DependencyStoreTests.Database"])

        // Off the main actor, a main-actor factory cannot run synchronously.
        let offMain = await Task.detached { reason { _ = try store.tryResolve(DiagnosisModel.self) } }.value
        guard case .wrongIsolation(let request, let onMainActor, _) = offMain else {
            Issue.record("not wrong isolation")
            return
        }
        #expect(onMainActor)
        #expect(request.requested == "DependencyStoreTests.DiagnosisModel")
    }

    @Test func verifyAsyncReportsASynchronousResolveOfAnAsyncRegistrationWhateverTheStoreIsCalled() async {
        // The name is in the error's text; the verifier reads the reason.
        let store = DependencyStore(forTest: "a wallet loaded on the main actor")
        store.register(Database.self) { _ async throws in Database(generation: 0) }
        store.register(Banner.self) { store in
            _ = store.resolve(Database.self)
            return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
        }
        let report = await store.verifyAsync(timeout: poolDeadline)
        #expect(report.problems.map(\.kind) == [.failed], "\(report)")
    }

    // Exit tests need Swift 6.2 (Xcode 26) and a child process, which Swift Testing offers on
    // macOS, Linux and Windows only.
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aForwardToAnotherTypeTrapsWithTheTextOfItsReason() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore(fileID: "App/Wiring.swift", line: 3)
                store.register(FixedClock(0), for: Clock.self)
                store.forward(Greeting.self, to: Clock.self, fileID: "App/Wiring.swift", line: 7)
                _ = store.resolve(Greeting.self)
            }
        )
        let expected = Diagnosis.forwardMismatch(
            Diagnosis.Request(
                requested: "DependencyStoreTests.Greeting", shortName: "Greeting", name: nil,
                chain: ["DependencyStoreTests.Greeting"],
                requester: .forward(.init(fileID: "App/Wiring.swift", line: 7)),
                store: .init(name: "the store created at App/Wiring.swift:3", isRoot: false, registrationCount: nil)),
            target: "DependencyStoreTests.Clock", built: "DependencyStoreTests.FixedClock",
            requestedBy: .call(.init(fileID: "DependencyStoreTests/DiagnosisTests.swift", line: 352)))
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(ResolutionError(expected).description), "\(stderr)")
    }

    @Test func anAsyncCycleTrapsWithTheTextOfItsReason() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore(fileID: "App/Wiring.swift", line: 3)
                store.register(Ping.self, scope: .singleton) { store async throws in
                    Ping(try await store.resolveAsync(Pong.self, fileID: "App/Wiring.swift", line: 5))
                }
                store.register(Pong.self) { store async throws in
                    Pong(try await store.resolveAsync(Ping.self, fileID: "App/Wiring.swift", line: 6))
                }
                let done = DispatchSemaphore(value: 0)
                Task {
                    _ = try await store.resolveAsync(Ping.self)
                    done.signal()
                }
                done.waitInChildProcess(for: "the resolve to end")
            }
        )
        let expected = Diagnosis.cycle(
            chain: ["DependencyStoreTests.Ping", "DependencyStoreTests.Pong", "DependencyStoreTests.Ping"],
            acrossTasks: false, closedBy: .call(.init(fileID: "App/Wiring.swift", line: 6)),
            store: .init(name: "the store created at App/Wiring.swift:3", isRoot: false, registrationCount: nil),
            decorators: [])
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(ResolutionError(expected).description), "\(stderr)")
    }

    @Test func aResetOfAScopeThatKeepsNothingTrapsWithTheTextOfItsReason() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = DependencyStore(fileID: "App/Session.swift", line: 8).reset(
                    .graph, fileID: "App/Session.swift", line: 9)
            }
        )
        let expected = Diagnosis.resetKeepsNothing(
            .graph, calledAt: .init(fileID: "App/Session.swift", line: 9),
            store: "the store created at App/Session.swift:8")
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("App/Session.swift:9: Fatal error: \(expected.text)"), "\(stderr)")
    }
    #endif
}
