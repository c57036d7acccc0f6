import DependencyStore
import Foundation
import Testing

// Where issue 37's features meet each other and the older ones: contexts with expiry, reset of one
// registration, `nil` results, decorators, and a test's own store over the app's.

/// A token that counts its closes, for the interactions below.
private final class ContextToken: Closable, Sendable {
    let origin: String
    let closes = Counter()

    init(_ origin: String) { self.origin = origin }

    func close() { closes.increment() }
}

@Suite struct FactoryParityInteractionTests {
    @Test func anAlternativeExpiresAsTheDefaultWouldAndItsExpiredInstanceIsClosed() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        let builds = Counter()
        store.register(ContextToken.self, scope: .singleton) { _ in ContextToken("live") }
            .on(.test) { _ in
                builds.increment()
                return ContextToken("mock")
            }
            .expiring(after: 60)

        DependencyContext.withActive([.test]) {
            let first = store.resolve(ContextToken.self)
            #expect(first.origin == "mock")
            clock.advance(by: 59)
            #expect(store.resolve(ContextToken.self) === first)
            clock.advance(by: 1)
            let second = store.resolve(ContextToken.self)
            #expect(second !== first)
            #expect(second.origin == "mock")
            #expect(first.closes.value == 1)
            #expect(builds.value == 2)
        }
    }

    @Test func aContextChosenAfterAnExpiryIsTheOneTheRebuildUses() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        store.register(ContextToken.self, scope: .singleton) { _ in ContextToken("live") }
            .on(.preview) { _ in ContextToken("preview") }
            .expiring(after: 10)

        let live = DependencyContext.withActive([]) { store.resolve(ContextToken.self) }
        // Within its time, the kept instance is handed out whatever context the resolve runs in.
        #expect(DependencyContext.withActive([.preview]) { store.resolve(ContextToken.self) } === live)
        clock.advance(by: 10)
        let rebuilt = DependencyContext.withActive([.preview]) { store.resolve(ContextToken.self) }
        #expect(rebuilt.origin == "preview")
        #expect(live.closes.value == 1)
    }

    @Test func resettingOneRegistrationWithAlternativesClosesTheAlternativesInstance() {
        let store = DependencyStore()
        store.register(ContextToken.self, scope: .singleton) { _ in ContextToken("live") }
            .on(.test) { _ in ContextToken("mock") }
        store.register(Counted.self, scope: .singleton) { _ in Counted(1) }
        DependencyContext.withActive([.test]) {
            let mock = store.resolve(ContextToken.self)
            let other = store.resolve(Counted.self)
            #expect(store.reset(ContextToken.self) == 1)
            #expect(mock.closes.value == 1)
            #expect(store.resolve(ContextToken.self) !== mock)
            #expect(store.resolve(Counted.self) === other, "the rest of the scope is kept")
        }
    }

    @Test func anAlternativesNilIsNotKeptEither() {
        let store = DependencyStore()
        let asked = Counter()
        let answer = Recorded<ContextToken?>(nil)
        store.register(ContextToken?.self, scope: .singleton) { _ in ContextToken("live") }
            .on(.test) { _ in
                asked.increment()
                return answer.value
            }
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(ContextToken?.self) == nil)
            #expect(store.resolve(ContextToken?.self) == nil)
            #expect(asked.value == 2, "a nil is asked for again")
            answer.set(ContextToken("mock"))
            let mock = store.resolve(ContextToken?.self)
            #expect(mock?.origin == "mock")
            #expect(store.resolve(ContextToken?.self) === mock)
            #expect(asked.value == 3, "a value is kept")
        }
    }

    @Test func aDecoratorWrapsTheAlternativeAndEachRebuildAfterAnExpiry() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        let decorated = Counter()
        store.register(ContextToken.self, scope: .singleton) { _ in ContextToken("live") }
            .on(.argument("-mock-tokens")) { _ in ContextToken("stub") }
            .expiring(after: 5)
        store.decorate(ContextToken.self) { _, token in
            decorated.increment()
            return token
        }
        DependencyContext.withActive([.argument("-mock-tokens")]) {
            #expect(store.resolve(ContextToken.self).origin == "stub")
            _ = store.resolve(ContextToken.self)
            #expect(decorated.value == 1, "once per instance built")
            clock.advance(by: 5)
            #expect(store.resolve(ContextToken.self).origin == "stub")
            #expect(decorated.value == 2)
        }
    }

    @Test func aTestsOwnStoreOverridesAnExpiringAlternativeOfTheAppAndResetsOnlyItsOwn() {
        let app = DependencyStore()
        app.register(ContextToken.self, scope: .singleton) { _ in ContextToken("live") }
            .on(.test) { _ in ContextToken("app's mock") }
            .expiring(after: 300)
        let test = DependencyStore(parent: app)
        test.register(ContextToken.self, scope: .singleton) { _ in ContextToken("test's own") }
        DependencyContext.withActive([.test]) {
            let own = test.execute { DependencyStore.shared.resolve(ContextToken.self) }
            #expect(own.origin == "test's own")
            let apps = app.resolve(ContextToken.self)
            #expect(apps.origin == "app's mock")
            #expect(test.reset(ContextToken.self) == 1)
            #expect(own.closes.value == 1)
            #expect(apps.closes.value == 0, "the app's instance is the app's")
            #expect(app.resolve(ContextToken.self) === apps)
        }
    }
}
