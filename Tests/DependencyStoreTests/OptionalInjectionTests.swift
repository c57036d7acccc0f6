import DependencyStore
import Testing

/// Works with or without a clock.
final class Stopwatch {
    @OptionalInjected var clock: Clock?
    @OptionalInjected(name: "backup") var backupClock: Clock?
}

@Suite struct OptionalInjectionTests {
    @Test func isNilWhenNothingIsRegistered() {
        let stopwatch = DependencyStore().execute { Stopwatch() }

        #expect(stopwatch.clock == nil)
        #expect(stopwatch.backupClock == nil)
    }

    @Test func resolvesWhatIsRegisteredByTypeAndName() {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)
        store.register(FixedClock(2), for: Clock.self, name: "backup")

        let stopwatch = store.execute { Stopwatch() }

        #expect(stopwatch.clock?.now == 1)
        #expect(stopwatch.backupClock?.now == 2)
    }

    @Test func resolvesOnceAndKeepsTheAnswerEvenWhenItWasNil() {
        let store = DependencyStore()
        let stopwatch = store.execute { Stopwatch() }
        #expect(stopwatch.clock == nil)

        store.register(FixedClock(1), for: Clock.self)

        #expect(stopwatch.clock == nil, "decided on first read")
        #expect(store.execute { Stopwatch() }.clock?.now == 1)
    }

    @Test func resolveIfRegisteredIsTheCallForm() {
        let store = DependencyStore()
        #expect(store.resolveIfRegistered(Clock.self) == nil)

        store.register(FixedClock(3), for: Clock.self)

        #expect(store.resolveIfRegistered(Clock.self)?.now == 3)
        #expect(store.resolveIfRegistered(Clock.self, name: "backup") == nil)
    }

    @Test func resolveIfRegisteredLooksInTheParentToo() {
        let parent = DependencyStore()
        parent.register(FixedClock(4), for: Clock.self)

        #expect(DependencyStore(parent: parent).resolveIfRegistered(Clock.self)?.now == 4)
    }
}
