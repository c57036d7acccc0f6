import DependencyStore
import Testing

/// Everyday client code. That it compiles in Swift 6 mode with warnings as errors (as CI builds
/// it) is half of each test; the expectations are the other half.
@Suite struct Swift6UsageTests {
    @MainActor @Test func aMainActorTestRegistersANonSendableMockFromALocalLet() async {
        let mock = RecordingGreeting()             // not Sendable, captured by the factory
        let store = DependencyStore()
        store.register(mock, for: Greeting.self)
        let screen = store.execute { MainActorScreen() }

        await store.execute {
            await Task.yield()
            screen.show()                          // main-actor state, after a suspension, no hop
        }

        #expect(screen.shown == ["recorded"])
        #expect(mock.reads == 1)
    }

    @Test func resolvesInsideTask() async {
        let store = DependencyStore()
        store.register(SendableClock(now: 12), for: SendableClockType.self)

        let now = await Task { store.resolve(SendableClockType.self).now }.value
        let viaShared = await store.execute { await Task { DependencyStore.shared.resolve(SendableClockType.self).now }.value }

        #expect(now == 12)
        #expect(viaShared == 12)
    }

    @Test func aPlainClassDeclaresAPrivateInjectedProperty() {
        let store = DependencyStore()
        store.register(FixedGreeting("plain"), for: Greeting.self)

        #expect(store.execute { PlainClass() }.text == "plain")
    }

    @Test func anActorHoldsNamedAndOptionalInjectedSendableDependencies() async {
        let store = DependencyStore()
        store.register(SendableClock(now: 5), for: SendableClockType.self, name: "utc", scope: .singleton)

        let ticker = store.execute { Ticker() }

        #expect(await ticker.readings() == [5])
    }
}

/// An actor with a named dependency and an optional one it can live without.
actor Ticker {
    @Injected(name: "utc") private var clock: SendableClockType
    @OptionalInjected private var backup: SendableClockType?

    func readings() -> [Int] {
        [clock.now] + (backup.map { [$0.now] } ?? [])
    }
}

final class RecordingGreeting: Greeting {
    private(set) var reads = 0
    var text: String {
        reads += 1
        return "recorded"
    }
}

@MainActor final class MainActorScreen {
    @Injected private var greeting: Greeting
    private(set) var shown: [String] = []

    func show() { shown.append(greeting.text) }
}

final class PlainClass {
    @Injected private var greeting: Greeting
    var text: String { greeting.text }
}
