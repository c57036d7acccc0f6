import DependencyStore
import Testing

@Suite struct RegistrationTests {
    @Test func autoclosureRunsOnEveryResolveSoAnInitialiserGivesANewInstance() {
        let store = DependencyStore()
        let built = Counter()
        store.register(
            {
                built.increment()
                return FixedGreeting("hi")
            }(), for: Greeting.self)

        let first = store.resolve(Greeting.self)
        let second = store.resolve(Greeting.self)

        #expect(built.value == 2)
        #expect(first as AnyObject !== second as AnyObject)
    }

    @Test func autoclosureOverASharedInstanceHandsOutThatInstance() {
        let store = DependencyStore()
        let shared = FixedGreeting("shared")
        store.register(shared, for: Greeting.self)

        #expect(store.resolve(Greeting.self) as AnyObject === shared)
        #expect(store.resolve(Greeting.self) as AnyObject === shared)
    }

    @Test func storesThatRegisterTheirFirstValuesKeepThemToThemselves() {
        // Every store's first unnamed registration starts from one shared empty dictionary with
        // room for four: more than four, in two stores at once, must stay each store's own.
        let first = DependencyStore()
        let second = DependencyStore()
        first.register(5, for: Int.self)
        first.register("first", for: String.self)
        first.register(5.0, for: Double.self)
        first.register(FixedGreeting("first"), for: Greeting.self)
        first.register(Float(5), for: Float.self)
        second.register("second", for: String.self)

        #expect(first.resolve(Int.self) == 5)
        #expect(first.resolve(String.self) == "first")
        #expect(first.resolve(Float.self) == 5)
        #expect(second.resolve(String.self) == "second")
        #expect(!second.isRegistered(Int.self))
        #expect(!second.isRegistered(Greeting.self))
        #expect(!DependencyStore().isRegistered(String.self))
    }

    @Test func nothingIsBuiltUntilResolved() {
        let store = DependencyStore()
        let built = Counter()
        store.register(Greeting.self) { _ in
            built.increment()
            return FixedGreeting("lazy")
        }
        #expect(built.value == 0)
        _ = store.resolve(Greeting.self)
        #expect(built.value == 1)
    }

    @Test func closureFormBuildsFromTheStoreForConstructorInjection() {
        let store = DependencyStore()
        store.register(FixedGreeting("hello"), for: Greeting.self)
        store.register(FixedClock(7), for: Clock.self)
        store.register(Banner.self) { store in
            Banner(greeting: store.resolve(), clock: store.resolve())
        }

        #expect(store.resolve(Banner.self).text == "hello @7")
    }

    @Test func registeringAgainReplacesTheEarlierRegistration() {
        let store = DependencyStore()
        store.register(FixedGreeting("first"), for: Greeting.self)
        let before = store.resolve(Greeting.self)

        store.register(FixedGreeting("second"), for: Greeting.self)

        #expect(store.resolve(Greeting.self).text == "second")
        #expect(before.text == "first")
    }

    @Test func isRegisteredAnswersPerExactType() {
        let store = DependencyStore()
        #expect(!store.isRegistered(Greeting.self))

        store.register(FixedGreeting("x"), for: Greeting.self)

        #expect(store.isRegistered(Greeting.self))
        #expect(!store.isRegistered(FixedGreeting.self))
        #expect(store.isRegistered(Optional<Greeting>.self), "resolve(Greeting?.self) finds the Greeting")
    }

    @Test func storesAreIndependent() {
        let live = DependencyStore()
        let test = DependencyStore()
        live.register(FixedGreeting("live"), for: Greeting.self)

        #expect(!test.isRegistered(Greeting.self))
        test.register(FixedGreeting("test"), for: Greeting.self)
        #expect(live.resolve(Greeting.self).text == "live")
    }

    @Test func valueTypesAndOptionalsAreTheirOwnKeys() {
        let store = DependencyStore()
        store.register(42, for: Int.self)
        store.register(nil, for: Int?.self)

        #expect(store.resolve(Int.self) == 42)
        #expect(store.resolve(Int?.self) == nil)
    }
}
