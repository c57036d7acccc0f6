import DependencyStore
import Foundation
import Testing

// Every way to ask for a dependency behaves as `resolve` does: a handle resolved with arguments
// uses them, `isRegistered` answers as resolve would, and `T?` finds the registration of `T`.

/// Counts the factory runs of a registration that takes a name.
private func registerGreeting(in store: DependencyStore, runs: Counter? = nil) {
    store.register(Greeting.self) { (_, name: String) in
        runs?.increment()
        return FixedGreeting("Hello, \(name)")
    }
}

@Suite struct EveryWayToAskTests {
    // MARK: Handles with arguments

    @Test func aProviderResolvedWithArgumentsPassesThemOnEveryCall() {
        let store = DependencyStore()
        let runs = Counter()
        registerGreeting(in: store, runs: runs)
        let greetAda = store.resolve(Provider<Greeting>.self, arguments: "Ada")
        #expect(greetAda().text == "Hello, Ada")
        #expect(greetAda().text == "Hello, Ada")
        #expect(runs.value == 2, "a .unique registration builds on each call")
    }

    @Test func aProviderResolvedWithoutArgumentsStillTakesThemAtTheCall() {
        let store = DependencyStore()
        registerGreeting(in: store)
        let greet = store.resolve(Provider<Greeting>.self)
        #expect(greet(arguments: "Grace").text == "Hello, Grace")
    }

    @Test func aLazyHandleResolvedWithArgumentsResolvesItsValueWithThemOnce() {
        let store = DependencyStore()
        let runs = Counter()
        registerGreeting(in: store, runs: runs)
        let lazy = store.resolve(Lazy<Greeting>.self, arguments: "Ada")
        #expect(runs.value == 0, "nothing is built before the first use")
        #expect(lazy.value.text == "Hello, Ada")
        #expect(lazy.value as AnyObject === lazy.value as AnyObject)
        #expect(runs.value == 1)
    }

    @Test func aNamedProviderWithArgumentsUsesTheNamedRegistration() {
        let store = DependencyStore()
        registerGreeting(in: store)
        store.register(Greeting.self, name: "formal") { (_, name: String) in FixedGreeting("Good day, \(name)") }
        let provider = store.resolve(Provider<Greeting>.self, name: "formal", arguments: "Ada")
        #expect(provider().text == "Good day, Ada")
    }

    // MARK: isRegistered agrees with resolve

    @Test func isRegisteredAnswersForHandlesOptionalsAndCollectionsAsResolveDoes() {
        let store = DependencyStore()
        #expect(!store.isRegistered(Provider<Clock>.self))
        #expect(!store.isRegistered(Lazy<Clock>.self))
        #expect(!store.isRegistered(Clock?.self))
        #expect(store.resolveIfRegistered(Provider<Clock>.self) == nil)
        #expect(store.resolveIfRegistered(Clock?.self) == nil)

        store.register(FixedClock(7), for: Clock.self)
        #expect(store.isRegistered(Provider<Clock>.self))
        #expect(store.isRegistered(Lazy<Clock>.self))
        #expect(store.isRegistered(Clock?.self))
        #expect(store.isRegistered(Provider<Clock>.self, name: "other") == false)
        #expect(store.resolve(Provider<Clock>.self)().now == 7)

        let child = DependencyStore(parent: store)
        #expect(child.isRegistered(Lazy<Clock>.self), "through a parent too")
    }

    // MARK: Optionals

    @Test func anOptionalFindsTheRegistrationOfItsWrappedTypeOrIsNil() {
        let store = DependencyStore()
        #expect(store.resolve(Clock?.self) == nil)
        store.register(FixedClock(7), for: Clock.self)
        store.register(FixedClock(9), for: Clock.self, name: "utc")
        #expect(store.resolve(Clock?.self)?.now == 7)
        #expect(store.resolve(Clock?.self, name: "utc")?.now == 9)
        #expect(store.resolve(Clock?.self, name: "none") == nil)
        #expect((try? store.tryResolve(Clock?.self))??.now == 7)
    }

    @Test func aRegistrationOfTheOptionalItselfWins() {
        let store = DependencyStore()
        store.register(FixedClock(7), for: Clock.self)
        store.register(Clock?.self) { _ in nil }
        #expect(store.resolve(Clock?.self) == nil, "what was registered for Clock? is what resolves")
    }

    @Test func aFactoryAskingForAnOptionalGetsTheInstanceItsScopeKeeps() {
        let store = DependencyStore()
        store.register(FixedClock(7), for: Clock.self, scope: .singleton)
        store.register(Banner.self) { store in
            Banner(greeting: FixedGreeting("hi"), clock: store.resolve(Clock?.self) ?? FixedClock(0))
        }
        let first = store.resolve(Banner.self)
        let second = store.resolve(Banner.self)
        #expect(first.clock.now == 7)
        #expect(first.clock as AnyObject === second.clock as AnyObject)
    }

    // MARK: Wrong arguments fail where the handle is resolved

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aProviderResolvedWithArgumentsItsRegistrationDoesNotTakeTrapsThere() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(FixedClock(7), for: Clock.self)
                _ = store.resolve(Provider<Clock>.self, arguments: "not taken")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("wrong arguments for 'DependencyStoreTests.Clock'"))
        #expect(stderr.contains("expected no arguments, given (Swift.String)"))
        #expect(stderr.contains("Requested by: resolve at DependencyStoreTests/EveryWayToAskTests.swift:"))
    }

    @Test func aProviderThatCarriesArgumentsTrapsWhenCalledWithMore() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Greeting.self) { (_, name: String) in FixedGreeting("Hello, \(name)") }
                let provider = store.resolve(Provider<Greeting>.self, arguments: "Ada")
                _ = provider(arguments: "Grace")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("the Provider<Greeting> carries (Swift.String), and was called with (Swift.String)"))
        #expect(stderr.contains("To fix: call it without arguments"))
    }

    @Test func aCollectionResolvedWithArgumentsTrapsAndSaysItTakesNone() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.contribute(FixedClock(1), to: Clock.self)
                _ = store.resolve([Clock].self, arguments: 3)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("a collection takes no arguments, given (Swift.Int)"))
        #expect(stderr.contains("resolve([Clock].self)"))
    }
    #endif
}

/// A handler that turns a missing dependency into an answer of its own.
private final class ClockReader: @unchecked Sendable {
    @Injected var clock: Clock
}

@Suite struct ThrowingInjectionTests {
    @Test func aMissingInjectionIsAnErrorWithTheTrapsMessageAndCanBeReadLater() throws {
        let store = DependencyStore()
        let reader = store.execute { ClockReader() }
        let error = try #require(thrownError(ResolutionError.self) { try reader.$clock.tryValue() })
        #expect(error.kind == .notRegistered)
        #expect(error.description.contains("no registration for 'DependencyStoreTests.Clock'"))
        #expect(error.description.contains("the @Injected property declared at DependencyStoreTests/EveryWay"))
        #expect(!reader.$clock.isResolved, "a failure publishes nothing")

        store.register(FixedClock(7), for: Clock.self)
        #expect(try reader.$clock.tryValue().now == 7, "the next read resolves again")
        // Outside the expectation: Swift 6.0's `#expect` puts the right side of `===` in a closure
        // that may not throw.
        let tried = try reader.$clock.tryValue()
        #expect(reader.clock as AnyObject === tried as AnyObject)
    }

    @Test(.onThreadsOfItsOwn) func manyThreadsTryingTheFirstReadTogetherResolveOnce() {
        let store = DependencyStore()
        let builds = Counter()
        store.register(Clock.self, scope: .unique) { _ in
            builds.increment()
            Thread.sleep(forTimeInterval: 0.01)
            return FixedClock(builds.value)
        }
        let reader = store.execute { ClockReader() }
        let seen = Recorded<Set<ObjectIdentifier>>([])
        onManyThreads(threads: 8) { _, _ in
            let clock = try? reader.$clock.tryValue()
            seen.update { $0.insert(ObjectIdentifier(clock! as AnyObject)) }
        }
        #expect(builds.value == 1)
        #expect(seen.value.count == 1)
    }
}

#if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
@Suite struct LazyArgumentTests {
    @Test func aLazyHandleWithoutTheArgumentsItsRegistrationNeedsTrapsWhereItIsResolved() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Greeting.self) { (_, name: String) in FixedGreeting("Hello, \(name)") }
                _ = store.resolve(Lazy<Greeting>.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("expected (Swift.String), given no arguments"))
        #expect(stderr.contains("EveryWayToAskTests.swift:"))
    }
}
#endif

/// A long-lived object made in the app's store reads what only a request's store registers: the
/// message explains the server case.
@Suite struct ServerMessageTests {
    private final class AppService: @unchecked Sendable {
        @Injected var clock: Clock
    }

    @Test func aValueOnlyARequestStoreRegistersIsNamedWhereItIsRegistered() throws {
        let app = DependencyStore()
        let service = app.execute { AppService() }  // made at start-up, bound to the app's store
        let request = DependencyStore(parent: app)
        request.register(FixedClock(7), for: Clock.self)
        let error = try #require(
            thrownError(ResolutionError.self) { try request.execute { try service.$clock.tryValue() } })
        #expect(error.description.contains("'Clock' is registered in the store created at"))
        #expect(error.description.contains("layered over this store. An object bound to this store"))
        #expect(error.description.contains("resolve it where that store is current (inside its execute { })"))
        withExtendedLifetime(request) {}
    }

    /// A store that only provides values is not on its parent's list of children (it never takes
    /// the app's lock): the message finds it as the store current where the property is read.
    @Test func aValueOnlyARequestStoreProvidesIsNamedWhileThatStoreIsCurrent() throws {
        let app = DependencyStore()
        let service = app.execute { AppService() }
        let request = DependencyStore(parent: app)
        request.provide(FixedClock(7), for: Clock.self)
        let error = try #require(
            thrownError(ResolutionError.self) { try request.execute { try service.$clock.tryValue() } })
        #expect(error.description.contains("'Clock' is registered in the store created at"))
        #expect(error.description.contains("layered over this store. An object bound to this store"))
        withExtendedLifetime(request) {}
    }
}
