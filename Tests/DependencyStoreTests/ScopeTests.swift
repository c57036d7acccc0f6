import DependencyStore
import Foundation
import Testing

@Suite struct ScopeTests {
    @Test func uniqueIsTheDefaultAndBuildsOnEveryResolve() {
        let store = DependencyStore()
        store.register(Session.self) { _ in Session() }

        #expect(store.resolve(Session.self) !== store.resolve(Session.self))
    }

    @Test func singletonIsBuiltLazilyOnceAndSharedByEveryResolve() {
        let store = DependencyStore()
        let builds = Counter()
        store.register(Session.self, scope: .singleton) { _ in Session(builds.increment()) }
        #expect(builds.value == 0)

        let first = store.resolve(Session.self)
        #expect(store.resolve(Session.self) === first)
        #expect(builds.value == 1)
    }

    @Test func theAutoclosureFormTakesAScopeToo() {
        let store = DependencyStore()
        store.register(Session(), for: Session.self, scope: .singleton)

        #expect(store.resolve(Session.self) === store.resolve(Session.self))
    }

    @Test func singletonFactoryRunsExactlyOnceWhenManyTasksRaceToResolveItFirst() async {
        for round in 0..<1_000 {
            let store = DependencyStore()
            let builds = Counter()
            store.register(Clock.self) { _ in FixedClock(1) }
            store.register(Session.self, scope: .singleton) { store in
                // Real work in the factory, like an app's, so the other worker thread arrives
                // while the first build is still running.
                let ticks = (0..<50).reduce(0) { sum, _ in sum + store.resolve(Clock.self).now }
                return Session(builds.increment() * ticks)
            }

            let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<100 {
                    group.addTask { ObjectIdentifier(store.resolve(Session.self)) }
                }
                return await group.reduce(into: Set()) { $0.insert($1) }
            }

            #expect(builds.value == 1, "round \(round)")
            #expect(identities.count == 1, "round \(round)")
        }
    }

    @Test(.onThreadsOfItsOwn) func singletonFactoryRunsExactlyOnceWhenManyThreadsArriveTogether() {
        let rounds = 200
        let stores = (0..<rounds).map { _ in DependencyStore() }
        let builds = (0..<rounds).map { _ in Counter() }
        let seen = (0..<rounds).map { _ in Counter() }
        for round in 0..<rounds {
            let counter = builds[round]
            stores[round].register(Session.self, scope: .singleton) { _ in Session(counter.increment()) }
        }

        onManyThreads(threads: 8, rounds: rounds) { round, _ in
            // Every thread must get the instance numbered 1: the one and only build.
            if stores[round].resolve(Session.self).number == 1 { seen[round].increment() }
        }

        #expect(builds.allSatisfy { $0.value == 1 })
        #expect(seen.allSatisfy { $0.value == 8 })
    }

    @Test func weakIsSharedWhileHeldAndReleasedAfterTheLastHolderLetsGo() {
        let store = DependencyStore()
        let builds = Counter()
        store.register(Session.self, scope: .weak) { _ in Session(builds.increment()) }

        var held: Session? = store.resolve(Session.self)
        // Older compilers reject `weak let` (SE-0481): there, a weak binding must be a `var`.
        #if compiler(>=6.3)
        weak let observed = held
        #else
        weak var observed = held
        #endif
        #expect(store.resolve(Session.self) === held)
        #expect(builds.value == 1)

        held = nil
        #expect(observed == nil, "the store must not keep a .weak instance alive")

        #expect(store.resolve(Session.self).number == 2)
    }

    @Test func weakOfAValueTypeIsAnError() {
        let store = DependencyStore()
        store.register(Int.self, scope: .weak) { _ in 42 }

        #expect {
            _ = try store.tryResolve(Int.self)
        } throws: { error in
            let error = error as? ResolutionError
            return error?.kind == .invalidScope
                && error?.description.contains("registered with scope .weak, but its factory built 'Swift.Int'") == true
        }
    }

    @Test func graphIsSharedWithinOneResolutionAndNotAcrossResolutions() {
        let store = DependencyStore()
        store.register(Session.self, scope: .graph) { _ in Session() }
        store.register(SessionPair.self) { store in
            SessionPair(first: store.resolve(), second: store.resolve())
        }

        let one = store.resolve(SessionPair.self)
        let two = store.resolve(SessionPair.self)

        #expect(one.first === one.second)
        #expect(one.first !== two.first)
        #expect(store.resolve(Session.self) !== store.resolve(Session.self), "on its own, .graph is .unique")
    }

    @Test(.onThreadsOfItsOwn) func graphInstancesAreNotSharedBetweenThreadsResolvingAtOnce() {
        let store = DependencyStore()
        store.register(Session.self, scope: .graph) { _ in Session() }
        store.register(SessionPair.self) { store in
            SessionPair(first: store.resolve(), second: store.resolve())
        }
        let shared = Counter()
        let mixed = Counter()

        onManyThreads(threads: 8, rounds: 50) { _, _ in
            let pair = store.resolve(SessionPair.self)
            if pair.first === pair.second { shared.increment() } else { mixed.increment() }
        }

        #expect(shared.value == 400)
        #expect(mixed.value == 0)
    }

    @Test func loggingOutDiscardsTheSessionScopeAndNothingElse() {
        let store = DependencyStore()
        store.register(Session.self, name: "app", scope: .singleton) { _ in Session() }
        store.register(Session.self, name: "user", scope: .session) { _ in Session() }
        store.register(Session.self, name: "basket", scope: .cart) { _ in Session() }
        let app = store.resolve(Session.self, name: "app")
        let user = store.resolve(Session.self, name: "user")
        let basket = store.resolve(Session.self, name: "basket")

        let discarded = store.reset(.session)  // log out

        #expect(discarded == 1)
        #expect(store.resolve(Session.self, name: "user") !== user)
        #expect(store.resolve(Session.self, name: "app") === app)
        #expect(store.resolve(Session.self, name: "basket") === basket)
    }

    @Test func aSingletonCanBeResetToo() {
        let store = DependencyStore()
        store.register(Session.self, scope: .singleton) { _ in Session() }
        let before = store.resolve(Session.self)

        store.reset(.singleton)

        #expect(store.resolve(Session.self) !== before)
    }

    @Test(.onThreadsOfItsOwn) func aResetDuringABuildIsNotUndoneWhenTheBuildFinishes() {
        let store = DependencyStore()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let builds = Counter()
        store.register(Session.self, scope: .session) { _ in
            let number = builds.increment()
            if number == 1 {
                entered.signal()
                proceed.wait(for: "the reset")
            }
            return Session(number)
        }

        let done = DispatchSemaphore(value: 0)
        let callerGotTheFirstBuild = Counter()
        let thread = Thread {
            if store.resolve(Session.self).number == 1 { callerGotTheFirstBuild.increment() }
            done.signal()
        }
        thread.start()
        entered.wait(for: "the first build to start")
        store.reset(.session)
        proceed.signal()
        done.wait(for: "the resolving thread")

        #expect(callerGotTheFirstBuild.value == 1, "the caller still gets what it built")
        #expect(store.resolve(Session.self).number == 2, "built before the reset, so not kept after it")
    }

    @Test func registeringAgainDiscardsTheCachedInstance() {
        let store = DependencyStore()
        store.register(Session.self, scope: .singleton) { _ in Session(1) }
        #expect(store.resolve(Session.self).number == 1)

        store.register(Session.self, scope: .singleton) { _ in Session(2) }

        #expect(store.resolve(Session.self).number == 2)
    }

    @Test func scopesDescribeThemselvesAsWritten() {
        #expect(Scope.singleton.description == ".singleton")
        #expect(Scope.session.description == "Scope(\"session\")")
        #expect(Scope("session") == Scope.session)
        #expect(Scope.session != Scope.cart)
    }
}
