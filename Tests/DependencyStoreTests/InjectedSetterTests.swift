import DependencyStore
import Foundation
import Testing

// A test puts a mock into a property the way a Factory or Resolver user does:
// `model.service = MockService()`. What it sets is what every later read returns; it resolves
// nothing, and it is safe against a first read on another thread (OnceCell.set, enterGateToSet).

/// A value of each kind a property destroys its own way: an object, a struct holding references,
/// a trivial value.
private final class SetKindsHolder {
    @Injected var instance: SessionToken
    @Injected var words: [String]
    @Injected var number: Int
}

/// A holder that its own dependency's factory sets: see `aSetInsideThePropertysOwnFirstReadTraps`.
private final class SelfSettingHolder: @unchecked Sendable {
    @Injected var greeting: Greeting
}

@Suite struct InjectedSetterTests {
    @Test func aSetBeforeTheFirstReadIsWhatEveryReadReturnsAndNothingResolves() throws {
        let store = DependencyStore()
        let builds = Counter()
        store.register(Greeting.self) { _ in
            builds.increment()
            return FixedGreeting("live")
        }
        let screen = store.execute { Screen() }
        #expect(!screen.$greeting.isResolved)

        screen.greeting = FixedGreeting("mock")

        #expect(screen.$greeting.isResolved)
        #expect(screen.greeting.text == "mock")
        #expect(screen.greeting.text == "mock")
        #expect(try screen.$greeting.tryValue().text == "mock")
        #expect(builds.value == 0)
    }

    @Test func aSetAfterTheFirstReadReplacesWhatItResolved() {
        let store = DependencyStore()
        store.register(Greeting.self) { _ in FixedGreeting("live") }
        let screen = store.execute { Screen() }
        #expect(screen.greeting.text == "live")

        screen.greeting = FixedGreeting("mock")
        #expect(screen.greeting.text == "mock")
        screen.greeting = FixedGreeting("another mock")
        #expect(screen.greeting.text == "another mock")
    }

    /// Set before its first read, the property no longer needs its store, and lets go of it.
    @Test func aSetBeforeTheFirstReadLetsGoOfTheStore() {
        weak var weakStore: DependencyStore?
        let screen: Screen = {
            let store = DependencyStore()
            store.register(Greeting.self) { _ in FixedGreeting("live") }
            weakStore = store
            return store.execute { Screen() }
        }()
        // Until its first read, the property keeps its store.
        #expect(weakStore != nil)

        screen.greeting = FixedGreeting("mock")

        #expect(weakStore == nil)
        #expect(screen.greeting.text == "mock")
    }

    /// Every value the property held stays while it lives (a read on another thread may be copying
    /// it), and goes with it.
    @Test func everyValueTheSetsReplacedIsFreedWithTheProperty() {
        let store = DependencyStore()
        store.register(Greeting.self) { _ in FixedGreeting("live") }
        weak var resolved: FixedGreeting?
        weak var firstSet: FixedGreeting?
        weak var lastSet: FixedGreeting?
        var screen: Screen? = store.execute { Screen() }
        do {
            resolved = screen?.greeting as? FixedGreeting
            let first = FixedGreeting("first")
            firstSet = first
            screen?.greeting = first
            let last = FixedGreeting("last")
            lastSet = last
            screen?.greeting = last
        }
        #expect(resolved != nil && firstSet != nil && lastSet != nil)
        #expect(screen?.greeting.text == "last")

        screen = nil

        #expect(resolved == nil)
        #expect(firstSet == nil)
        #expect(lastSet == nil)
    }

    /// Each way a value is destroyed, set into the room and into allocations of their own: the
    /// address sanitizer's run finds a value destroyed twice or never.
    @Test func valuesOfEveryKindAreSetAndDestroyed() {
        let store = DependencyStore()
        store.register(SessionToken.self) { _ in SessionToken() }
        store.register([String].self) { _ in ["live"] }
        store.register(Int.self) { _ in 1 }
        weak var token: SessionToken?
        do {
            let holder = store.execute { SetKindsHolder() }
            holder.words = ["set", "before", "the", "read"]
            #expect(holder.number == 1)
            for round in 0..<3 {
                let set = SessionToken()
                token = set
                holder.instance = set
                holder.words = (0...round).map { "word \($0)" }
                holder.number = round + 2
            }
            #expect(holder.instance === token)
            #expect(holder.words == ["word 0", "word 1", "word 2"])
            #expect(holder.number == 4)
        }
        #expect(token == nil)
    }

    @Test func anOptionalPropertyIsSetToAValueOrToNil() {
        let store = DependencyStore()
        store.register(Greeting.self) { _ in FixedGreeting("live") }
        final class Holder {
            @OptionalInjected var greeting: Greeting?
            @OptionalInjected var clock: Clock?
        }
        let holder = store.execute { Holder() }
        holder.greeting = nil
        holder.clock = FixedClock(7)
        #expect(holder.greeting == nil)
        #expect(holder.clock?.now == 7)
    }

    /// A releasable property holds what was set until `release()`; the next read resolves again.
    @Test func aReleasablePropertyHoldsWhatWasSetUntilItIsReleased() {
        let store = DependencyStore()
        let builds = Counter()
        store.register(Greeting.self) { _ in FixedGreeting("live \(builds.increment())") }
        let holders = store.execute { GreetingHolders() }
        holders.releasable = FixedGreeting("mock")
        #expect(holders.releasable.text == "mock")
        #expect(builds.value == 0)
        holders.$releasable.release()
        #expect(holders.releasable.text == "live 1")
    }

    /// A weak property holds what was set weakly, as it holds what it resolves.
    @Test func aWeakPropertyHoldsWhatWasSetWeakly() {
        let store = DependencyStore()
        store.register(Greeting.self) { _ in FixedGreeting("live") }
        let holders = store.execute { GreetingHolders() }
        let mock = FixedGreeting("mock")
        holders.weakly = mock
        #expect(holders.weakly?.text == "mock")
        #expect(holders.$weakly.isResolved)
        holders.weakly = nil
        #expect(holders.weakly == nil)
        #expect(holders.$weakly.isResolved)
        withExtendedLifetime(mock) {}
    }

    /// A set racing first reads on eight threads: every read returns the resolved value or the set
    /// one, never anything else, and the set is never lost to a first read that publishes after it.
    /// A factory that takes a moment, so that the first read is under way when the set comes.
    @Test(.onThreadsOfItsOwn) func aSetRacingAFirstReadOnEightThreadsIsNeverLost() {
        let store = DependencyStore()
        store.register(Token.self) { _ in
            Thread.sleep(forTimeInterval: 0.000_3)
            return SessionToken()
        }
        expectEverySetRacingFirstReadsKept(in: store, making: TokenHolder.init, read: \.token) { $0.token = $1 }
    }

    /// The same for a releasable property, whose set goes through the gate its reads share
    /// (`EmptiableProperty`): a set outside it is lost to the read under way, which keeps what it
    /// resolved after the set.
    @Test(.onThreadsOfItsOwn) func aSetRacingAFirstReadOfAReleasablePropertyIsNeverLost() {
        let store = DependencyStore()
        store.register(Token.self) { _ in
            Thread.sleep(forTimeInterval: 0.000_3)
            return SessionToken()
        }
        expectEverySetRacingFirstReadsKept(in: store, making: ReleasableTokenHolder.init, read: \.token) {
            $0.token = $1
        }
    }

    /// The same with a singleton built already: the first reads find it without the store's
    /// resolve (`OnceStorage.beginFirstRead`), inside the gate the set waits for.
    @Test(.onThreadsOfItsOwn) func aSetRacingAFirstReadThatFindsABuiltSingletonIsNeverLost() {
        let store = DependencyStore()
        store.register(Token.self, scope: .singleton) { _ in SessionToken() }
        _ = store.resolve(Token.self)
        expectEverySetRacingFirstReadsKept(in: store, making: TokenHolder.init, read: \.token) { $0.token = $1 }
    }

    /// Sets, releases and reads of a releasable property on eight threads at once: what a read
    /// returns is whole (the thread and address sanitizers' runs check it), and after the last
    /// set the property reads what it set.
    @Test(.onThreadsOfItsOwn) func setsReleasesAndReadsOfAReleasablePropertyRaceSafely() {
        let store = DependencyStore()
        let builds = Counter()
        store.register(Token.self) { _ in
            builds.increment()
            return SessionToken()
        }
        let holder = store.execute { ReleasableTokenHolder() }
        let mocks = (0..<8).map { _ in SessionToken() }
        let reads = Counter()
        onManyThreads(threads: 8, rounds: 50) { _, thread in
            switch thread % 3 {
            case 0: holder.token = mocks[thread]
            case 1: holder.$token.release()
            default:
                reads.increment()
                _ = holder.token
            }
        }
        holder.token = mocks[0]
        #expect(holder.token === mocks[0])
        // A read that found the property empty resolved once; one that found a value, not at all.
        #expect(builds.value <= reads.value)
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aSetInsideThePropertysOwnFirstReadTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let holder = Recorded<SelfSettingHolder?>(nil)
                store.register(Greeting.self) { _ in
                    holder.value?.greeting = FixedGreeting("inner")
                    return FixedGreeting("outer")
                }
                holder.set(store.execute { SelfSettingHolder() })
                _ = holder.value?.greeting
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            text.contains(
                "DependencyStore: the @Injected property of 'Greeting' declared at DependencyStoreTests/InjectedSetterTests.swift:"
            ), "\(text)")
        #expect(text.contains("was set inside its own first read"))
        #expect(text.contains("To fix: set the property before its first read or after it"))
    }

    @Test func aWeakPropertySetToAStructTrapsNamingIt() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let holder = WeakGreetingHolder()
                holder.greeting = StructGreeting()
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            text.contains(
                "DependencyStore: the @WeakInjected property declared at DependencyStoreTests/InjectedVariantsTests.swift:\(WeakGreetingHolder.declarationLine) holds 'Greeting' weakly, but it was set to 'StructGreeting', which is not a class instance."
            ), "\(text)")
    }
    #endif
}

/// Eight threads a round, each round on a new property: one sets it, the others read it first and
/// then again. Each read returns the resolved value and then the set one, or the set one only, and
/// after the round the property reads what was set.
private func expectEverySetRacingFirstReadsKept<Holder: Sendable>(
    in store: DependencyStore, making make: () -> Holder, read: @escaping @Sendable (Holder) -> Token,
    sourceLocation: SourceLocation = #_sourceLocation, set: @escaping @Sendable (Holder, Token) -> Void
) {
    let rounds = 40
    let holders = store.execute { (0..<rounds).map { _ in make() } }
    let mocks = (0..<rounds).map { _ in SessionToken() }
    let wrong = Recorded<[String]>([])
    onManyThreads(threads: 8, rounds: rounds, sourceLocation: sourceLocation) { round, thread in
        let holder = holders[round]
        if thread == 3 {
            set(holder, mocks[round])
            if read(holder) !== mocks[round] { wrong.update { $0.append("round \(round): the set was lost") } }
            return
        }
        var seen: [ObjectIdentifier] = []
        for _ in 0..<20 { seen.append(ObjectIdentifier(read(holder))) }
        // At most two values: the resolved one, then the set one; never the resolved one again.
        let distinct = seen.reduce(into: [ObjectIdentifier]()) { if $0.last != $1 { $0.append($1) } }
        if distinct.count > 2 || (distinct.count == 2 && distinct[1] != ObjectIdentifier(mocks[round])) {
            wrong.update { $0.append("round \(round), thread \(thread): read \(distinct.count) values") }
        }
    }
    #expect(wrong.value == [], sourceLocation: sourceLocation)
    #expect(zip(holders, mocks).allSatisfy { read($0) === $1 }, sourceLocation: sourceLocation)
}
