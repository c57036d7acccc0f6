import DependencyStore
import Testing

@Suite struct LayeredStoreTests {
    /// A live graph: a singleton Banner built from a Greeting and a Clock.
    private func liveStore() -> DependencyStore {
        let live = DependencyStore()
        live.register(FixedGreeting("live"), for: Greeting.self)
        live.register(FixedClock(1), for: Clock.self)
        live.register(Banner.self, scope: .singleton) { store in
            Banner(greeting: store.resolve(), clock: store.resolve())
        }
        return live
    }

    @Test func aChildFallsThroughToItsParentForWhatItDoesNotRegister() {
        let child = DependencyStore(parent: liveStore())

        #expect(child.resolve(Clock.self).now == 1)
        #expect(child.isRegistered(Clock.self))
    }

    @Test func aChildOverrideIsSeenAndTheParentIsUntouched() {
        let live = liveStore()
        let child = DependencyStore(parent: live)

        child.register(FixedGreeting("mock"), for: Greeting.self)

        #expect(child.resolve(Greeting.self).text == "mock")
        #expect(live.resolve(Greeting.self).text == "live")
    }

    @Test func aParentSingletonAskedForThroughAChildIsBuiltFromTheChildsOverrides() {
        let live = liveStore()
        let liveBanner = live.resolve(Banner.self)
        let child = DependencyStore(parent: live)
        child.register(FixedGreeting("mock"), for: Greeting.self)

        let childBanner = child.resolve(Banner.self)

        #expect(childBanner.text == "mock @1", "the child's override is seen, not the parent's cached Banner")
        #expect(child.resolve(Banner.self) === childBanner, "one instance per store")
        #expect(live.resolve(Banner.self) === liveBanner, "the parent's instance is left alone")
        #expect(live.resolve(Banner.self).text == "live @1")
    }

    @Test func aParentSingletonFirstAskedForThroughAChildIsNotCachedInTheParent() {
        let live = liveStore()
        let child = DependencyStore(parent: live)
        child.register(FixedGreeting("mock"), for: Greeting.self)

        _ = child.resolve(Banner.self)

        #expect(live.resolve(Banner.self).text == "live @1")
    }

    @Test func resettingAChildLeavesTheParentsInstances() {
        let live = liveStore()
        let liveBanner = live.resolve(Banner.self)
        let child = DependencyStore(parent: live)
        let childBanner = child.resolve(Banner.self)

        child.reset(.singleton)

        #expect(child.resolve(Banner.self) !== childBanner)
        #expect(live.resolve(Banner.self) === liveBanner)
    }

    @Test func whatTheParentRegistersLaterIsSeenByTheChild() {
        let live = DependencyStore()
        let child = DependencyStore(parent: live)

        live.register(FixedClock(9), for: Clock.self)

        #expect(child.resolve(Clock.self).now == 9)
    }

    @Test func namesFallThroughToo() {
        let live = DependencyStore()
        live.register(FixedGreeting("Good morning"), for: Greeting.self, name: "formal")

        #expect(DependencyStore(parent: live).resolve(Greeting.self, name: "formal").text == "Good morning")
    }

    @Test func injectedPropertiesCreatedInAChildsExecuteSeeTheLayeredGraph() {
        let child = DependencyStore(parent: liveStore())
        child.register(FixedGreeting("mock"), for: Greeting.self)

        let screen = child.execute { Screen() }

        #expect(screen.greeting.text == "mock")
    }

    @Test func aPlainStoreStaysStrict() {
        _ = liveStore()
        let strict = DependencyStore()

        #expect(!strict.isRegistered(Greeting.self))
        #expect(strict.parent == nil)
    }

    @Test func aMissingRegistrationNamesEveryStoreSearched() throws {
        let live = DependencyStore()
        let child = DependencyStore(parent: live)

        let error = try #require(throws: ResolutionError.self) { try child.tryResolve(Greeting.self) }

        #expect(error.description.contains("Store: the store created at DependencyStoreTests/LayeredStoreTests.swift:"))
        #expect(error.description.contains("(over the store created at DependencyStoreTests/LayeredStoreTests.swift:"))
        #expect(error.description.contains("Searched next: the store created at"))
    }

    @Test func aCycleThroughAParentRegistrationIsStillACycle() {
        let live = DependencyStore()
        let kinds = Recorded<[ResolutionError.Kind]>([])
        live.register(Greeting.self) { store in
            do throws(ResolutionError) {
                return try store.tryResolve(Greeting.self)
            } catch {
                kinds.set([error.kind])
                return FixedGreeting("cycle")
            }
        }

        #expect(DependencyStore(parent: live).resolve(Greeting.self).text == "cycle")
        #expect(kinds.value == [.cycle])
    }
}
