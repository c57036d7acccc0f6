import DependencyStore
import Foundation
import Testing

// How many arguments a factory takes is part of what a resolve must match: a tuple is one
// argument, not as many as it has elements.

@Suite struct ArityTests {
    @Test func aFactoryThatTakesOneTupleIsResolvedWithOneTuple() {
        let store = DependencyStore()
        store.register(Greeting.self) { (_, pair: (Int, String)) in FixedGreeting("\(pair.0) \(pair.1)") }

        #expect(store.resolve(Greeting.self, arguments: (1, "a")).text == "1 a")
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
