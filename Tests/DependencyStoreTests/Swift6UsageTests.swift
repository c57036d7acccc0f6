import DependencyStore
import Testing

/// Everyday client code. That it compiles in Swift 6 mode with warnings as errors (as CI builds
/// it) is half of each test; the expectations are the other half.
@Suite struct Swift6UsageTests {
    @MainActor @Test func aMainActorTestRegistersANonSendableMockFromALocalLet() async {
        let mock = RecordingGreeting()  // not Sendable, captured by the factory
        let store = DependencyStore()
        store.register(mock, for: Greeting.self)
        let screen = await store.execute { MainActorScreen() }

        await store.execute {
            await Task.yield()
            screen.show()  // main-actor state, after a suspension, no hop
        }

        #expect(screen.shown == ["recorded"])
        #expect(mock.reads == 1)
    }

    @Test func resolvesInsideTask() async {
        let store = DependencyStore()
        store.register(SendableClock(now: 12), for: SendableClockType.self)

        let now = await Task { store.resolve(SendableClockType.self).now }.value
        let viaShared = await store.execute {
            await Task { DependencyStore.shared.resolve(SendableClockType.self).now }.value
        }

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

        let ticker = await store.execute { Ticker() }

        #expect(await ticker.readings() == [5])
    }
}

// MARK: - Projected values, releasable and weak properties

@Suite struct InjectedVariantsUsageTests {
    @MainActor @Test func aMainActorModelReleasesItsSessionAndHoldsItsCoordinatorWeakly() {
        let store = DependencyStore()
        registerSessionFeature(in: store)
        let coordinator = store.resolve((any SessionCoordinating).self)

        let model = store.execute { SessionModel() }
        model.finish()
        model.logOut()

        #expect(coordinator.finished == 1)
        #expect(!model.$session.isResolved)
        #expect(model.$clock.isResolved)
    }

    @Test func anActorReleasesItsSession() async {
        let store = DependencyStore()
        registerSessionFeature(in: store)

        let actor = await store.execute { SessionActor() }

        #expect(await actor.refresh() == [true, false])
    }

    @Test func aSendableClassDeclaresTheVariantsAsConstants() async {
        let store = DependencyStore()
        registerSessionFeature(in: store)

        let service = await store.execute { SessionService() }
        let fromAnotherTask = await Task.detached { service.renew() }.value

        #expect(fromAnotherTask)
    }
}

protocol UserSession: AnyObject, Sendable {
    var user: String { get }
}

final class LiveUserSession: UserSession {
    let user = "Ada"
}

/// Not class-bound, as protocols usually are; its implementation is a `Sendable` class.
protocol SessionCoordinating: Sendable {
    var finished: Int { get }
    func sessionDidFinish()
}

final class LiveSessionCoordinator: SessionCoordinating {
    private let count = Recorded(0)
    var finished: Int { count.value }
    func sessionDidFinish() { count.update { $0 += 1 } }
}

func registerSessionFeature(in store: DependencyStore) {
    store.register((any UserSession).self) { _ in LiveUserSession() }
    store.register((any SessionCoordinating).self, scope: .singleton) { _ in LiveSessionCoordinator() }
    store.register(SendableClock(now: 1), for: SendableClockType.self)
}

@MainActor final class SessionModel {
    @Injected var clock: SendableClockType
    @ReleasableInjected var session: any UserSession
    @WeakInjected private var coordinator: (any SessionCoordinating)?

    func finish() {
        _ = clock.now
        _ = session.user
        coordinator?.sessionDidFinish()
    }

    func logOut() { $session.release() }
}

actor SessionActor {
    @ReleasableInjected private var session: any UserSession
    @WeakInjected private var coordinator: (any SessionCoordinating)?

    func refresh() -> [Bool] {
        _ = session.user
        let before = $session.isResolved
        $session.release()
        return [before, $session.isResolved]
    }
}

/// A `Sendable` class cannot hold a property wrapper's `var`; it declares the wrappers as
/// constants, as it would a `Lazy`.
final class SessionService: Sendable {
    private let session = ReleasableInjected<any UserSession>()
    private let coordinator = WeakInjected<any SessionCoordinating>()

    func renew() -> Bool {
        session.release()
        coordinator.wrappedValue?.sessionDidFinish()
        return session.wrappedValue.user == "Ada" && session.isResolved
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

// MARK: - Isolation and Sendable services

protocol APIClient: Sendable {
    func user() async -> String
}

struct StubAPIClient: APIClient {
    let name: String
    func user() async -> String { name }
}

protocol AccountRepository: Sendable {
    func currentUser() async -> String
}

/// A service as apps write them: a `Sendable` class behind a `Sendable` protocol. `@Injected`
/// cannot be stored in it (a wrapper's storage is a `var`); a `Lazy` constant can.
final class LiveAccountRepository: AccountRepository {
    private let api = Lazy<any APIClient>()
    func currentUser() async -> String { await api.value.user() }
}

@MainActor final class AccountViewModel {
    @Injected private var repository: any AccountRepository
    private(set) var title = ""

    func load() async { title = await repository.currentUser() }
}

/// `registerAll()` as apps write it: nonisolated, registering a @MainActor view model too.
func registerUserFeature(in store: DependencyStore) {
    store.register(StubAPIClient(name: "Ada"), for: (any APIClient).self)
    store.register((any AccountRepository).self, scope: .singleton) { _ in LiveAccountRepository() }
    store.register(AccountViewModel.self, on: MainActor.self) { _ in AccountViewModel() }
}

@Suite struct IsolationUsageTests {
    @MainActor @Test func aMainActorViewModelOverASendableServiceLoads() async {
        let store = DependencyStore()
        registerUserFeature(in: store)

        let model = await store.execute { store.resolve(AccountViewModel.self) }
        await model.load()

        #expect(model.title == "Ada")
    }

    @Test func aSendableServiceBindsItsLazyDependencyWhereItIsCreated() async {
        let store = DependencyStore()
        registerUserFeature(in: store)

        let repository = await store.execute { LiveAccountRepository() }
        let fromAnotherTask = await Task.detached { await repository.currentUser() }.value

        #expect(fromAnotherTask == "Ada")
    }
}
