import DependencyStore
import Foundation
import Testing

@Suite struct InjectedTests {
    @Test func resolvesLazilyOnFirstRead() {
        let store = DependencyStore()
        let built = Counter()
        store.register(
            {
                built.increment()
                return FixedGreeting("lazy")
            }(), for: Greeting.self)

        let screen = store.execute { Screen() }
        #expect(built.value == 0)

        #expect(screen.greeting.text == "lazy")
        #expect(built.value == 1)
    }

    @Test func resolvesOncePerPropertyAndCachesTheValue() {
        let store = DependencyStore()
        let built = Counter()
        store.register({ FixedGreeting("#\(built.increment())") }(), for: Greeting.self)
        let screen = store.execute { Screen() }

        let first = screen.greeting
        let second = screen.greeting

        #expect(first as AnyObject === second as AnyObject)
        #expect(built.value == 1)
    }

    @Test func eachPropertyResolvesForItself() {
        let store = DependencyStore()
        store.register({ FixedGreeting("new") }(), for: Greeting.self)
        let (a, b) = store.execute { (Screen(), Screen()) }

        #expect(a.greeting as AnyObject !== b.greeting as AnyObject)
    }

    @Test func bindsToTheStoreCurrentWhenCreatedNotWhenRead() {
        let first = DependencyStore()
        first.register(FixedGreeting("first"), for: Greeting.self)
        let second = DependencyStore()
        second.register(FixedGreeting("second"), for: Greeting.self)

        let screen = first.execute { Screen() }

        #expect(second.execute { screen.greeting.text } == "first")
    }

    @Test(.onThreadsOfItsOwn) func manyThreadsReadingFirstAtOnceResolveExactlyOnce() {
        // 200 rounds of 16 threads released together onto one fresh property. A wrapper that
        // checked "resolved?" and then resolved without holding anything (the seed's design)
        // builds more than one value in most rounds.
        expectOneValuePerPropertyReadFirstOnSixteenThreads(
            rounds: 200, factoryWork: {}, makeHolder: { TokenHolder() }, read: { $0.token })
    }

    /// The gate's waiters: a factory that takes 2 ms keeps the gate held while 15 other threads
    /// arrive, so they park (see `RawGate`) and are woken when it is left. A gate that let a
    /// second thread in builds twice; one that lost a wake-up leaves a round past its deadline.
    @Test(.onThreadsOfItsOwn) func threadsThatWaitAtAPropertysGateAreAllWokenWithTheOneValue() {
        expectOneValuePerPropertyReadFirstOnSixteenThreads(
            rounds: 40, factoryWork: { usleep(2_000) }, makeHolder: { TokenHolder() }, read: { $0.token })
    }

    /// The first reads that find their value without the store's generic resolve (a value the
    /// request's store provides, in a room, or a singleton it keeps itself, under the store's lock;
    /// an app singleton the app's store publishes, under the thread's hazard; see
    /// `OnceStorage.beginFirstRead(of:)`) hold the property's gate too: 16 threads released
    /// together onto each fresh property all read the one value, and the property publishes once
    /// (a second publish traps).
    @Test(.onThreadsOfItsOwn) func manyThreadsReadingFirstAtOnceGetTheOneProvidedOrSharedValue() {
        let app = DependencyStore()
        app.register(SessionToken(), for: Token.self, scope: .singleton)
        // Published for the stores layered over the app's once one of them asked for it.
        let shared = DependencyStore(parent: app).resolve(Token.self)
        let request = DependencyStore(parent: app)
        let provided = RequestToken(token: SessionToken())
        request.provide(provided)
        // Kept by the request's store itself, built before the properties' first reads.
        request.register(Session(7), for: Session.self, scope: .singleton)
        let kept = ObjectIdentifier(request.resolve(Session.self))
        let rounds = 60
        let holders = request.execute { (0..<rounds).map { _ in RequestTokenHolder() } }
        let wrong = Counter()
        onManyThreads(threads: 16, rounds: rounds) { round, thread in
            let holder = holders[round]
            // Half the threads read the two properties in the other order.
            let token: Token
            let requestToken: RequestToken
            let session: Session
            if thread.isMultiple(of: 2) {
                token = holder.token
                requestToken = holder.requestToken
                session = holder.session
            } else {
                session = holder.session
                requestToken = holder.requestToken
                token = holder.token
            }
            if token !== shared || requestToken.token !== provided.token || ObjectIdentifier(session) != kept {
                wrong.increment()
            }
        }
        #expect(wrong.value == 0)
        #expect(holders.allSatisfy { $0.$token.isResolved && $0.$requestToken.isResolved && $0.$session.isResolved })
    }

    /// A property keeps its value in its own storage and destroys it with it, the way the value's
    /// type needs (`ValueDestruction`): an instance of a class is released, an existential and a
    /// struct holding a reference are destroyed through their type, a trivial value needs nothing.
    /// Each instance is released with the last property that held it, and not before.
    @Test func aPropertysValueIsReleasedWithTheProperty() {
        weak var instance: SessionToken?
        weak var inExistential: SessionToken?
        weak var inStruct: SessionToken?
        do {
            // Not unregistered nor reset to let the store's references go: a removal keeps what it
            // removed until no resolve begun before it runs, any test's (see `Tombstones`). The
            // store's end lets them go at once.
            var store: DependencyStore? = DependencyStore()
            store?.provide(SessionToken())
            store?.register(SessionToken(), for: Token.self, scope: .singleton)
            store?.provide(RequestToken(token: SessionToken()))
            store?.provide(7, for: Int.self)
            var holder = store?.execute { ValueKindsHolder() }
            instance = holder?.instance
            inExistential = holder?.existential as? SessionToken
            inStruct = holder?.inStruct.token
            #expect(holder?.trivial == 7)
            store = nil
            #expect(instance != nil && inExistential != nil && inStruct != nil, "the property holds them")
            holder = nil
        }
        #expect(instance == nil && inExistential == nil && inStruct == nil, "released with the property")
    }

    @MainActor @Test func worksInASendableStructAnActorAndAMainActorClass() async {
        let store = DependencyStore()
        store.register(SendableClock(now: 5), for: SendableClockType.self)

        let (value, actor, model) = await store.execute { (SendableHolder(), ClockActor(), MainActorModel()) }

        #expect(value.clock.now == 5)
        #expect(await actor.now() == 5)
        #expect(model.now() == 5)
    }
}

// Typical declarations from client code; compiling them in Swift 6 mode without warnings is part
// of the test.

protocol SendableClockType: Sendable {
    var now: Int { get }
}

struct SendableClock: SendableClockType {
    let now: Int
}

struct SendableHolder: Sendable {
    @Injected var clock: SendableClockType
}

actor ClockActor {
    @Injected var clock: SendableClockType
    func now() -> Int { clock.now }
}

@MainActor final class MainActorModel {
    @Injected var clock: SendableClockType
    @Injected var greeting: Greeting?  // never read: binding alone needs no registration
    func now() -> Int { clock.now }
}

/// A reference type that is Sendable, so identity can be compared across threads.
protocol Token: AnyObject, Sendable {}
final class SessionToken: Token {}

struct TokenHolder: Sendable {
    @Injected var token: Token
}

/// A request's own value holding a token.
struct RequestToken: Sendable {
    let token: SessionToken
}

/// A property of each way a value is destroyed.
final class ValueKindsHolder {
    @Injected var instance: SessionToken
    @Injected var existential: Token
    @Injected var inStruct: RequestToken
    @Injected var trivial: Int
}

struct RequestTokenHolder: @unchecked Sendable {
    @Injected var token: Token
    @Injected var requestToken: RequestToken
    @Injected var session: Session
}

/// Registers `Token` with a factory that does `factoryWork`, makes a property holder for each of
/// `rounds` rounds (`makeHolder`, in the store's `execute`), and has 16 threads released together
/// read each round's property for the first time (`read`); then expects one build per round and
/// one value per round, whatever each thread read.
func expectOneValuePerPropertyReadFirstOnSixteenThreads<Holder>(
    rounds: Int,
    factoryWork: @escaping () -> Void,
    sourceLocation: SourceLocation = #_sourceLocation,
    makeHolder: () -> Holder,
    read: @escaping @Sendable (Holder) -> Token
) {
    let store = DependencyStore()
    let built = Counter()
    store.register(Token.self) { _ in
        factoryWork()
        return NumberedToken(built.increment())
    }
    let holders = UncheckedSendable(value: store.execute { (0..<rounds).map { _ in makeHolder() } })
    let seen = SeenValues()

    onManyThreads(threads: 16, rounds: rounds, sourceLocation: sourceLocation) { round, _ in
        seen.insert(round: round, ObjectIdentifier(read(holders.value[round])))
    }

    #expect(built.value == rounds, sourceLocation: sourceLocation)
    #expect(seen.distinctValuesPerRound.allSatisfy { $0 == 1 }, sourceLocation: sourceLocation)
}

/// What `expectOneValuePerPropertyReadFirstOnSixteenThreads` hands its threads: holders that are
/// only read, each by its own round's threads.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}

final class SeenValues: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: Set<ObjectIdentifier>] = [:]

    func insert(round: Int, _ value: ObjectIdentifier) {
        lock.lock()
        defer { lock.unlock() }
        values[round, default: []].insert(value)
    }

    var distinctValuesPerRound: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return values.values.map(\.count)
    }
}
