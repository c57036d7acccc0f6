import DependencyStore
import Testing

struct GreetingAssembly: Assembly {
    let text: String

    func assemble(into store: DependencyStore) {
        store.register(FixedGreeting(text), for: Greeting.self)
    }
}

struct ClockAssembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.register(FixedClock(7), for: Clock.self)
        store.register(Banner.self) { store in Banner(greeting: store.resolve(), clock: store.resolve()) }
    }
}

/// Seed 002: what only exists once a user has logged in.
struct SessionAssembly: Assembly {
    let user: String

    func assemble(into store: DependencyStore) {
        store.register(Session.self, scope: .session) { _ in Session(user.count) }
        store.register(FixedGreeting("Welcome back, \(user)"), for: Greeting.self)
    }
}

@Suite struct AssemblyTests {
    @Test func applyingAssembliesRegistersWhatEachDeclares() {
        let store = DependencyStore()

        store.apply(GreetingAssembly(text: "Hello"), ClockAssembly())

        #expect(store.resolve(Banner.self).text == "Hello @7")
    }

    @Test func aLaterAssemblyOverridesAnEarlierOne() {
        let store = DependencyStore()

        store.apply([GreetingAssembly(text: "first"), ClockAssembly(), GreetingAssembly(text: "second")])

        #expect(store.resolve(Greeting.self).text == "second")
    }

    @Test func anAssemblyAppliedAtRuntimeAfterLoginAddsAndOverrides() {
        let store = DependencyStore()
        store.apply(GreetingAssembly(text: "Hello, guest"), ClockAssembly())
        #expect(!store.isRegistered(Session.self))

        store.apply(SessionAssembly(user: "ada"))  // after login

        #expect(store.resolve(Banner.self).text == "Welcome back, ada @7")
        #expect(store.resolve(Session.self) === store.resolve(Session.self))
    }
}
