import DependencyStore
import Foundation
import Testing

// How many arguments a factory takes is part of what a resolve must match: a tuple is one
// argument, not as many as it has elements.

/// Registers `Greeting` with a factory that takes nine arguments, recording each call's.
private func registerNineArgumentGreeting(in store: DependencyStore, scope: Scope = .unique, calls: Recorded<[String]>)
{
    store.register(Greeting.self, scope: scope) {
        (_, a: Int, b: String, c: Double, d: Bool, e: Int, f: String, g: Int, h: [Int], i: Window?) in
        let text = "\(a) \(b) \(c) \(d) \(e) \(f) \(g) \(h) \(i?.title ?? "none")"
        calls.update { $0.append(text) }
        return FixedGreeting(text)
    }
}

@Suite struct ArityTests {
    @Test func aFactoryThatTakesOneTupleIsResolvedWithOneTuple() {
        let store = DependencyStore()
        store.register(Greeting.self) { (_, pair: (Int, String)) in FixedGreeting("\(pair.0) \(pair.1)") }

        #expect(store.resolve(Greeting.self, arguments: (1, "a")).text == "1 a")
        #expect(store.resolve(Provider<Greeting>.self)(arguments: (2, "b")).text == "2 b")
    }

    @Test func tryResolveTellsATupleFromItsElements() throws {
        let store = DependencyStore()
        store.register(Greeting.self) { (_, pair: (Int, String)) in FixedGreeting("\(pair.0) \(pair.1)") }
        store.register(Greeting.self, name: "two") { (_, number: Int, text: String) in
            FixedGreeting("\(number) \(text)")
        }

        let two = try #require(
            thrownError(ResolutionError.self) { try store.tryResolve(Greeting.self, arguments: 1, "a") })
        #expect(two.kind == .wrongArguments)
        #expect(two.description.contains("expected ((Swift.Int, Swift.String)), given (Swift.Int, Swift.String)."))
        let one = try #require(
            thrownError(ResolutionError.self) {
                try store.tryResolve(Greeting.self, name: "two", arguments: (1, "a"))
            })
        #expect(one.description.contains("expected (Swift.Int, Swift.String), given ((Swift.Int, Swift.String))."))
        #expect(try store.tryResolve(Greeting.self, name: "two", arguments: 1, "a").text == "1 a")
    }

    @Test func verifyBuildsANineArgumentRegistrationWithNineSampleValues() {
        let store = DependencyStore()
        let calls = Recorded<[String]>([])
        registerNineArgumentGreeting(in: store, calls: calls)

        let withoutSample = store.verify()
        #expect(withoutSample.skipped.map(\.description) == ["Greeting"])
        #expect(calls.value.isEmpty)

        let sample = SampleArguments(for: Greeting.self, 1, "b", 2.5, true, 5, "f", 7, [8], MainWindow())
        let report = store.verify(sampleArguments: [sample])
        #expect(report.isClean, "\(report)")
        #expect(report.skipped.isEmpty)
        #expect(calls.value == ["1 b 2.5 true 5 f 7 [8] main"])

        let wrong = SampleArguments(for: Greeting.self, 1, "b", 2.5, true, 5, "f", 7, [8], "not a window")
        let wrongReport = store.verify(sampleArguments: [wrong])
        #expect(wrongReport.problems.map(\.kind) == [.failed])
        #expect(
            wrongReport.problems.first?.description.contains(
                "given (Swift.Int, Swift.String, Swift.Double, Swift.Bool, Swift.Int, Swift.String, Swift.Int, "
                    + "Swift.Array<Swift.Int>, Swift.String)") == true, "\(wrongReport)")
    }

    @Test func aSingletonWithNineArgumentsKeepsWhatTheFirstResolveBuilt() throws {
        let store = DependencyStore()
        let calls = Recorded<[String]>([])
        registerNineArgumentGreeting(in: store, scope: .singleton, calls: calls)

        let first = store.resolve(Greeting.self, arguments: 1, "b", 2.5, true, 5, "f", 7, [8], nil as Window?)
        let again = try store.tryResolve(Greeting.self, arguments: 9, "x", 0.0, false, 0, "y", 0, [], nil as Window?)
        #expect(first as AnyObject === again as AnyObject)
        #expect(calls.value == ["1 b 2.5 true 5 f 7 [8] none"])
    }

    @Test func anAsyncFactoryVerifiedByVerifyAsyncPassesItsArgumentsOn() async {
        let store = DependencyStore()
        let names = Recorded<[String]>([])
        store.register(Greeting.self) { (_, name: String) in
            names.update { $0.append(name) }
            return FixedGreeting(name)
        }
        store.register(Database.self) { store async throws in
            let greeting = try await store.resolveAsync(Greeting.self, arguments: "Ada")
            return Database(generation: greeting.text.count)
        }

        let report = await store.verifyAsync(timeout: poolDeadline)

        #expect(report.problems.isEmpty, "\(report)")
        #expect(names.value == ["Ada"], "the async factory's resolve passed its argument to the factory")
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func twoArgumentsAreNotTheOneTupleAFactoryTakes() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Greeting.self) { (_, pair: (Int, String)) in FixedGreeting("\(pair.0) \(pair.1)") }
                _ = store.resolve(Greeting.self, arguments: 1, "a")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "wrong arguments for 'DependencyStoreTests.Greeting': expected ((Swift.Int, Swift.String)), "
                    + "given (Swift.Int, Swift.String)."))
        #expect(stderr.contains("resolve(Greeting.self, arguments: <(Int, String)>)"))
    }

    @Test func oneTupleIsNotTheTwoArgumentsAFactoryTakes() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Greeting.self) { (_, number: Int, text: String) in FixedGreeting("\(number) \(text)") }
                _ = store.resolve(Greeting.self, arguments: (1, "a"))
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "wrong arguments for 'DependencyStoreTests.Greeting': expected (Swift.Int, Swift.String), "
                    + "given ((Swift.Int, Swift.String))."))
        #expect(stderr.contains("resolve(Greeting.self, arguments: <Int>, <String>)"))
    }

    @Test func resolveAsyncWithArgumentsOfAnAsyncRegistrationTrapsAsWrongArguments() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Database.self) { _ async throws in Database(generation: 1) }
                _ = try await store.resolveAsync(Database.self, arguments: "Ada")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "wrong arguments for 'DependencyStoreTests.Database': expected no arguments, given (Swift.String)."))
    }

    @Test func aProviderCarryingNineArgumentsCalledWithMoreTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                registerNineArgumentGreeting(in: store, calls: Recorded([]))
                let provider = store.resolve(
                    Provider<Greeting>.self, arguments: 1, "b", 2.5, true, 5, "f", 7, [8], nil as Window?)
                _ = provider(arguments: 1, "b", 2.5, true, 5, "f", 7, [8], nil as Window?)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "the Provider<Greeting> carries (Swift.Int, Swift.String, Swift.Double, Swift.Bool, Swift.Int, "
                    + "Swift.String, Swift.Int, Swift.Array<Swift.Int>, Swift.Optional<DependencyStoreTests.Window>)"))
    }

    @Test func aProviderOfATupleFactoryCalledWithTwoArgumentsTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Greeting.self) { (_, pair: (Int, String)) in FixedGreeting("\(pair.0) \(pair.1)") }
                _ = store.resolve(Provider<Greeting>.self)(arguments: 1, "a")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("expected ((Swift.Int, Swift.String)), given (Swift.Int, Swift.String)."))
    }
    #endif
}
