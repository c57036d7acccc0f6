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
        child.register(FixedClock(2), for: Clock.self)
        let childBanner = child.resolve(Banner.self)

        #expect(child.reset(.singleton) == 1)

        #expect(child.resolve(Banner.self) !== childBanner)
        #expect(live.resolve(Banner.self) === liveBanner)
    }

    @Test func aChildThatOverridesNothingSharesTheParentsInstanceAndResetsNothingOfIt() {
        let live = liveStore()
        let child = DependencyStore(parent: live)
        let shared = child.resolve(Banner.self)

        #expect(child.reset(.singleton) == 0, "the instance is the parent's")

        #expect(child.resolve(Banner.self) === shared)
        #expect(live.resolve(Banner.self) === shared)
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

        let error = try #require(thrownError(ResolutionError.self) { try child.tryResolve(Greeting.self) })

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

@Suite struct ParentReRegistrationTests {
    /// A child that overrides something (here a Greeting) keeps its own instances of the parent's
    /// cached registrations; one that does not shares the parent's.
    @Test(arguments: [true, false])
    func aParentsReRegistrationReleasesWhatAChildKeptFromTheOldOne(childOverrides: Bool) {
        let parent = DependencyStore()
        parent.register(FixedGreeting("parent"), for: Greeting.self)
        parent.register(Session.self, scope: .singleton) { _ in Session(1) }
        let child = DependencyStore(parent: parent)
        if childOverrides { child.register(FixedGreeting("child"), for: Greeting.self) }
        let old = WeakBox(child.resolve(Session.self))

        parent.register(Session.self, scope: .singleton) { _ in Session(2) }

        #expect(child.resolve(Session.self).number == 2)
        #expect(old.object == nil, "the child let go of the old registration's instance")
        for n in 3...1_002 {
            parent.register(Session.self, scope: .singleton) { _ in Session(n) }
            #expect(child.resolve(Session.self).number == n)
        }
        let owner = childOverrides ? child : parent
        #expect(owner.reset(.singleton) == 1, "only the instance a resolve could still return is counted")
    }

    @Test(arguments: [true, false])
    func itReachesGrandchildrenAndChildrenMadeBeforeAndAfter(storesOverride: Bool) {
        let root = DependencyStore()
        root.register(FixedGreeting("root"), for: Greeting.self)
        root.register(Session.self, scope: .session) { _ in Session(1) }
        func layer(over parent: DependencyStore) -> DependencyStore {
            let store = DependencyStore(parent: parent)
            if storesOverride { store.register(FixedGreeting("layer"), for: Greeting.self) }
            return store
        }
        let early = layer(over: root)
        let grandchild = layer(over: early)
        let olds = [WeakBox(early.resolve(Session.self)), WeakBox(grandchild.resolve(Session.self))]

        root.register(Session.self, scope: .session) { _ in Session(2) }
        let late = layer(over: root)
        let lateGrandchild = layer(over: late)

        #expect(olds.allSatisfy { $0.object == nil })
        for store in [early, grandchild, late, lateGrandchild] {
            #expect(store.resolve(Session.self).number == 2)
            #expect(store.reset(.session) == (storesOverride ? 1 : 0))
        }
        #expect(root.reset(.session) == (storesOverride ? 0 : 1))
    }

    @Test func aChildsOwnRegistrationIsNotTouched() {
        let parent = DependencyStore()
        parent.register(Session.self, scope: .singleton) { _ in Session(1) }
        let child = DependencyStore(parent: parent)
        child.register(Session.self, scope: .singleton) { _ in Session(10) }
        let own = child.resolve(Session.self)

        parent.register(Session.self, scope: .singleton) { _ in Session(2) }

        #expect(child.resolve(Session.self) === own)
    }

    @Test(.onThreadsOfItsOwn) func replacementsRacingResolvesThroughManyChildrenLeaveOnlyCurrentInstances() {
        let parent = DependencyStore()
        let built = Recorded<[WeakBox<Session>]>([])
        let register: @Sendable (Int) -> Void = { n in
            parent.register(Session.self, scope: .singleton) { _ in
                let session = Session(n)
                built.update { $0.append(WeakBox(session)) }
                return session
            }
        }
        register(0)
        let children = (0..<8).map { _ in DependencyStore(parent: parent) }
        let grandchildren = children.map { DependencyStore(parent: $0) }
        let stores = children + grandchildren
        let rounds = 5
        let perRound = 400
        let replacements = rounds * perRound
        let wrong = Counter()

        onManyThreads(threads: stores.count + 1, rounds: rounds) { round, thread in
            if thread == stores.count {
                for n in 1...perRound { register(round * perRound + n) }
            } else {
                for _ in 0..<300 {
                    let number = stores[thread].resolve(Session.self).number
                    if !(0...replacements).contains(number) { wrong.increment() }
                }
            }
        }

        #expect(wrong.value == 0)
        // Every store keeps at most the current registration's instance: nothing older survives.
        let alive = built.value.compactMap(\.object)
        #expect(alive.allSatisfy { $0.number == replacements }, "\(alive.map(\.number))")
        #expect(alive.count <= stores.count)
        for store in stores {
            #expect(store.resolve(Session.self).number == replacements)
        }
    }

    @Test func aChildStoreIsFreedWhenItsLastUserLetsGoWhileItsParentLives() {
        let parent = DependencyStore()
        parent.register(FixedGreeting("parent"), for: Greeting.self)
        let token = WeakBox<ChildToken>(nil)
        let child = WeakBox<DependencyStore>(nil)
        do {
            let store = DependencyStore(parent: parent)
            let registered = ChildToken()
            // The registration holds the token, and the child's core its registrations: the
            // token goes when the core does.
            store.register(registered, for: ChildToken.self)
            _ = store.resolve(Greeting.self)
            token.object = registered
            child.object = store
        }
        #expect(child.object == nil)
        #expect(token.object == nil)
        // The parent still reaches what it has: its list holds no ended child.
        parent.register(FixedGreeting("again"), for: Greeting.self)
        #expect(parent.resolve(Greeting.self).text == "again")
    }

    @Test func aParentsNewRegistrationReachesEveryLiveChildWhileOthersEnd() {
        let parent = DependencyStore()
        parent.register(FixedGreeting("parent"), for: Greeting.self)
        parent.register(Versioned.self, scope: .singleton) { _ in Versioned(1) }
        var olds: [WeakBox<Versioned>] = []
        var children = (0..<5).map { _ in
            let child = DependencyStore(parent: parent)
            // Registering a type the parent has makes the child keep its own instances of the
            // parent's singletons, which the parent's new registration must make it let go of.
            child.register(FixedGreeting("child"), for: Greeting.self)
            olds.append(WeakBox(child.resolve(Versioned.self)))
            return child
        }
        children.remove(at: 3)
        children.remove(at: 0)
        #expect(olds.filter { $0.object != nil }.count == 3)
        parent.register(Versioned.self, scope: .singleton) { _ in Versioned(2) }
        #expect(olds.allSatisfy { $0.object == nil })
        for child in children {
            #expect(child.resolve(Versioned.self).version == 2)
        }
    }

    @Test func aDecoratorAddedToTheParentAfterAChildEndedAppliesToWhatTheChildBuilt() {
        let parent = DependencyStore()
        parent.register(FixedGreeting("hello"), for: Greeting.self)
        var child: DependencyStore? = DependencyStore(parent: parent)
        child!.register(Screen(), for: Screen.self, scope: .singleton)
        // Built and kept by the child: its property resolves through the child's core, on its
        // first read, even after the child ended.
        let screen = child!.resolve(Screen.self)
        child = nil
        parent.decorate(Greeting.self) { _, greeting in LoudGreeting(greeting, mark: "!") }
        #expect(screen.greeting.text == "hello!")
    }
}

/// An object to watch go, with a weak reference.
final class ChildToken: Sendable {}

/// Which registration built it.
final class Versioned: Sendable {
    let version: Int
    init(_ version: Int) { self.version = version }
}
