import DependencyStore
import Foundation
import Testing

// `$property` of `@Injected`, and the two variants that can be emptied again: `@ReleasableInjected`
// (strong, released on request) and `@WeakInjected` (weak).

/// A `Sendable` object that says which build it came from.
final class NumberedToken: Token {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// Holds a token strongly, releasably; a struct, so threads can share it.
struct ReleasableTokenHolder: Sendable {
    @ReleasableInjected var token: Token
}

/// Holds a token weakly.
struct WeakTokenHolder: Sendable {
    @WeakInjected var token: Token?
}

/// The three wrappers over one non-class-bound protocol.
final class GreetingHolders {
    @Injected var injected: Greeting
    @ReleasableInjected var releasable: Greeting
    @WeakInjected var weakly: Greeting?
}

/// A struct behind a protocol that is not class-bound: what `@WeakInjected` cannot hold.
struct StructGreeting: Greeting {
    let text = "struct"
}

/// Declares a weak property; the tests find its line in the trap message.
final class WeakGreetingHolder {
    static let declarationLine = #line + 1
    @WeakInjected var greeting: Greeting?
}

/// Declares a releasable property; the tests find its line in the trap message.
final class ReleasableGreetingHolder {
    static let declarationLine = #line + 1
    @ReleasableInjected var greeting: Greeting
}

/// A kept instance (registered as a singleton) with both variants.
final class KeptService {
    @ReleasableInjected var releasable: Session
    @WeakInjected var weakly: FixedGreeting?
}

/// A view model, made in `execute { }`, with both variants.
final class VariantsViewModel {
    @ReleasableInjected var releasable: Session
    @WeakInjected var weakly: FixedGreeting?
}

@Suite struct InjectedVariantsTests {
    // MARK: - $property

    @Test func isResolvedIsFalseUntilTheFirstReadForEachWrapper() {
        let store = DependencyStore()
        let greeting = FixedGreeting("kept")
        store.register(greeting, for: Greeting.self)
        let holders = store.execute { GreetingHolders() }

        #expect(!holders.$injected.isResolved)
        #expect(!holders.$releasable.isResolved)
        #expect(!holders.$weakly.isResolved)

        _ = holders.injected
        _ = holders.releasable
        _ = holders.weakly

        #expect(holders.$injected.isResolved)
        #expect(holders.$releasable.isResolved)
        #expect(holders.$weakly.isResolved)
        #expect(holders.weakly as AnyObject? === greeting, "a protocol that is not class-bound is held weakly")
    }

    @Test func releaseEmptiesAReleasableProperty() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        let holders = store.execute { GreetingHolders() }
        _ = holders.releasable
        _ = holders.weakly

        holders.$releasable.release()
        holders.$weakly.release()

        #expect(!holders.$releasable.isResolved)
        #expect(!holders.$weakly.isResolved)
    }

    // MARK: - Release and resolve again

    @Test func aReleasedUniqueDependencyIsBuiltAgainOnTheNextRead() {
        let store = DependencyStore()
        let built = Counter()
        store.register(Token.self) { _ in NumberedToken(built.increment()) }
        let holder = store.execute { ReleasableTokenHolder() }

        let first = holder.token
        #expect(holder.token === first, "the same value until released")

        holder.$token.release()
        let second = holder.token

        #expect(second !== first)
        #expect(built.value == 2)
    }

    @Test func aReleasedSingletonResolvesToTheInstanceItsStoreKeeps() {
        let store = DependencyStore()
        let built = Counter()
        store.register(Token.self, scope: .singleton) { _ in NumberedToken(built.increment()) }
        let holder = store.execute { ReleasableTokenHolder() }

        let first = holder.token
        holder.$token.release()

        #expect(holder.token === first)
        #expect(built.value == 1)
    }

    @Test func releaseFreesTheValueItsPropertyWasTheLastOwnerOf() {
        let store = DependencyStore()
        store.register(Token.self) { _ in NumberedToken(1) }
        let holder = store.execute { ReleasableTokenHolder() }
        let weakToken = WeakBox(holder.token as AnyObject)
        #expect(weakToken.object != nil)

        holder.$token.release()

        #expect(weakToken.object == nil)
    }

    @Test func aReleasedPropertyResolvesFromTheStoreItWasBoundToNotTheCurrentOne() {
        let bound = DependencyStore()
        bound.register(Token.self) { _ in NumberedToken(1) }
        let other = DependencyStore()
        other.register(Token.self) { _ in NumberedToken(2) }
        let holder = bound.execute { ReleasableTokenHolder() }
        _ = holder.token

        holder.$token.release()

        #expect(other.execute { (holder.token as! NumberedToken).number } == 1)
    }

    // MARK: - Threads

    @Test(.onThreadsOfItsOwn) func manyThreadsReadingAReleasablePropertyFirstResolveExactlyOnce() {
        // 40 rounds of 16 threads released together onto one fresh property, whose factory
        // spins for 1 ms: a read that checked "empty?" and resolved without holding the gate
        // would build several tokens in most rounds.
        expectOneValuePerPropertyReadFirstOnSixteenThreads(
            rounds: 40, factoryWork: { spin(microseconds: 1_000) }, makeHolder: { ReleasableTokenHolder() },
            read: { $0.token })
    }

    @Test(.onThreadsOfItsOwn) func manyThreadsReadingAWeakPropertyFirstResolveExactlyOnce() {
        let store = DependencyStore()
        let built = Recorded<[NumberedToken]>([])  // keeps every token alive, so reads see it
        store.register(Token.self) { _ in
            spin(microseconds: 1_000)
            let token = NumberedToken(0)
            built.update { $0.append(token) }
            return token
        }
        let rounds = 40
        let holders = store.execute { (0..<rounds).map { _ in WeakTokenHolder() } }
        let seen = SeenValues()

        onManyThreads(threads: 16, rounds: rounds) { round, _ in
            seen.insert(round: round, ObjectIdentifier(holders[round].token!))
        }

        #expect(built.value.count == rounds)
        #expect(seen.distinctValuesPerRound.allSatisfy { $0 == 1 })
    }

    @Test(.onThreadsOfItsOwn) func releasesRacingReadsOnManyThreadsAlwaysReadALiveValue() {
        // 20 rounds of 12 threads on one property: 8 read it 30 times each and check what they
        // got, 4 release it 30 times each. The factory spins for 100 µs, so reads find the
        // property empty, resolving, and full. A release that freed the value while a read copied
        // it would crash here, or be reported by the thread sanitizer.
        let store = DependencyStore()
        let built = Counter()
        store.register(Token.self) { _ in
            spin(microseconds: 100)
            return NumberedToken(built.increment())
        }
        let rounds = 20
        let holders = store.execute { (0..<rounds).map { _ in ReleasableTokenHolder() } }
        let badReads = Counter()

        onManyThreads(threads: 12, rounds: rounds) { round, thread in
            let holder = holders[round]
            for _ in 0..<30 {
                if thread < 8 {
                    let token = holder.token as! NumberedToken
                    if token.number < 1 || token.number > built.value { badReads.increment() }
                } else {
                    holder.$token.release()
                }
            }
        }

        #expect(badReads.value == 0)
        #expect(built.value >= rounds, "each round resolved at least once")
    }

    // MARK: - Weak

    @Test func aWeakPropertyIsNilOnceTheObjectIsGoneAndResolvesAgainAfterRelease() {
        let store = DependencyStore()
        let built = Counter()
        store.register(Token.self, scope: .weak) { _ in NumberedToken(built.increment()) }
        var owner: Token? = store.resolve(Token.self)
        let holder = store.execute { WeakTokenHolder() }

        #expect(holder.token === owner)

        owner = nil

        #expect(holder.token == nil)
        #expect(holder.$token.isResolved, "it does not resolve again by itself")
        #expect(built.value == 1)

        holder.$token.release()
        owner = store.resolve(Token.self)

        #expect(holder.token === owner, "after release, the next read resolves the new instance")
        #expect(built.value == 2)
    }

    @Test func aWeakPropertyDoesNotKeepItsObjectAlive() {
        let store = DependencyStore()
        store.register(Token.self) { _ in NumberedToken(1) }
        let holder = store.execute { WeakTokenHolder() }

        // The first read returns the object it built; only that read's caller held it.
        #expect((holder.token as? NumberedToken)?.number == 1)
        #expect(holder.token == nil)
    }

    // MARK: - Lifetimes

    @Test func aViewModelKeepsItsStoreExactlyAsLongAsItLives() {
        weak var weakStore: DependencyStore?
        var model: VariantsViewModel? = {
            let store = DependencyStore()
            store.register(Session.self) { _ in Session() }
            store.register(FixedGreeting.self, scope: .singleton) { _ in FixedGreeting("kept") }
            weakStore = store
            return store.execute { VariantsViewModel() }
        }()
        _ = model?.releasable
        #expect(model?.weakly?.text == "kept")
        #expect(weakStore != nil, "the properties keep their store, to resolve again after a release")

        model?.$releasable.release()
        #expect(model?.releasable != nil)

        model = nil
        #expect(weakStore == nil, "and let go of it with the view model")
    }

    @Test func aSingletonWithTheVariantsDoesNotKeepItsStoreAlive() {
        var stores: [WeakBox<DependencyStore>] = []
        var services: [WeakBox<KeptService>] = []
        for _ in 0..<200 {
            do {
                let store = DependencyStore()
                store.register(Session.self) { _ in Session() }
                store.register(FixedGreeting.self, scope: .singleton) { _ in FixedGreeting("kept") }
                store.register(KeptService(), for: KeptService.self, scope: .singleton)
                let service = store.resolve(KeptService.self)
                _ = service.releasable
                _ = service.weakly
                service.$releasable.release()
                _ = service.releasable
                stores.append(WeakBox(store))
                services.append(WeakBox(service))
            }
        }
        #expect(stores.filter { $0.object != nil }.isEmpty)
        #expect(services.filter { $0.object != nil }.isEmpty)
    }

    @Test func aKeptInstanceWhoseStoreIsGoneStillResolvesAfterARelease() {
        let service: KeptService = {
            let store = DependencyStore()
            store.register(Session.self) { _ in Session(7) }
            store.register(KeptService(), for: KeptService.self, scope: .singleton)
            return store.resolve(KeptService.self)
        }()
        _ = service.releasable
        service.$releasable.release()

        #expect(service.releasable.number == 7)
    }

    // MARK: - Verification

    @Test func verifyRecordsTheVariantsAFactoryDeclaresAsLazyEdgesAndMissingRegistrations() {
        let store = DependencyStore()
        store.register(KeptService(), for: KeptService.self, scope: .singleton)
        store.register(Session(), for: Session.self)

        let report = store.verify()

        let found = report.problems.map { "\($0.kind): " + $0.path.map(\.description).joined(separator: " -> ") }
        #expect(found == ["missing: KeptService -> FixedGreeting"])
        let edges = Set(report.graph.edges.map { "\($0.from) -\($0.isLazy ? "lazy" : "")-> \($0.to)" })
        #expect(edges == ["KeptService -lazy-> Session", "KeptService -lazy-> FixedGreeting"])
    }

    // MARK: - Traps

    // Exit tests need Swift 6.2 (Xcode 26) and a child process, which Swift Testing offers on
    // macOS, Linux and Windows only.
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aWeakPropertyWhoseRegistrationBuildsAStructTrapsNamingDeclarationRegistrationAndFix() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(StructGreeting(), for: Greeting.self)
                _ = store.execute { WeakGreetingHolder() }.greeting
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        let declaration = "DependencyStoreTests/InjectedVariantsTests.swift:\(WeakGreetingHolder.declarationLine)"
        #expect(
            stderr.contains(
                "the @WeakInjected property declared at \(declaration) holds 'DependencyStoreTests.Greeting' weakly, but its registration built 'DependencyStoreTests.StructGreeting', which is not a class instance."
            ), "\(stderr)")
        #expect(stderr.contains("Registered at: DependencyStoreTests/InjectedVariantsTests.swift:"))
        #expect(stderr.contains("with scope .unique"))
        #expect(stderr.contains("To fix: make 'StructGreeting' a class, or declare the property with @Injected"))
        #expect(stderr.contains("\(declaration): Fatal error"))
    }

    @Test func aWeakPropertyWithNothingRegisteredTrapsNamingItsDeclaration() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = DependencyStore().execute { WeakGreetingHolder() }.greeting
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        let declaration = "DependencyStoreTests/InjectedVariantsTests.swift:\(WeakGreetingHolder.declarationLine)"
        #expect(stderr.contains("no registration for 'DependencyStoreTests.Greeting'"))
        #expect(
            stderr.contains(
                "Requested by: the @WeakInjected property declared at \(declaration), on its first read since it was created or released"
            ), "\(stderr)")
        #expect(stderr.contains("An @WeakInjected property resolves from the store that was current"))
        #expect(stderr.contains("\(declaration): Fatal error"))
    }

    @Test func aReleasablePropertyWithNothingRegisteredTrapsNamingItsDeclaration() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = DependencyStore().execute { ReleasableGreetingHolder() }.greeting
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        let declaration =
            "DependencyStoreTests/InjectedVariantsTests.swift:\(ReleasableGreetingHolder.declarationLine)"
        #expect(
            stderr.contains(
                "Requested by: the @ReleasableInjected property declared at \(declaration), on its first read since it was created or released"
            ), "\(stderr)")
        #expect(stderr.contains("To fix: register 'Greeting' in this store"))
        #expect(stderr.contains("\(declaration): Fatal error"))
    }

    @Test func aReleasablePropertyReadDuringItsOwnResolutionTrapsAsACycleInsteadOfDeadlocking() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let holder = store.execute { ReleasableGreetingHolder() }
                store.register(Greeting.self) { _ in FixedGreeting(holder.greeting.text) }
                _ = holder.greeting
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle: DependencyStoreTests.Greeting -> DependencyStoreTests.Greeting"))
        #expect(!stderr.contains("HUNG"))
    }

    @Test func aCycleThroughReleasablePropertiesReadFromTwoThreadsTrapsWithBothChains() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let crossing = Recorded<ReleasableCrossing?>(nil)
                let pingStarted = DispatchSemaphore(value: 0)
                let pongStarted = DispatchSemaphore(value: 0)
                store.register(Ping.self) { _ in
                    pingStarted.signal()
                    pongStarted.waitInChildProcess(for: "Pong's factory to start")
                    return Ping(crossing.value!.pong)
                }
                store.register(Pong.self) { _ in
                    pongStarted.signal()
                    pingStarted.waitInChildProcess(for: "Ping's factory to start")
                    return Pong(crossing.value!.ping)
                }
                crossing.set(store.execute { ReleasableCrossing() })
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { _ = crossing.value!.ping } else { _ = crossing.value!.pong }
                }
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle across threads"))
        #expect(
            stderr.contains(
                "and waits for the first read of the @ReleasableInjected property declared at DependencyStoreTests/InjectedVariantsTests.swift:"
            ), "\(stderr)")
        #expect(!stderr.contains("HUNG"))
    }

    @Test func aDeinitThatResolvesAndReadsThePropertyAgainDuringReleaseCompletes() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            store.register("audit-log", for: String.self)
            store.register(AuditedLease.self) { _ in AuditedLease() }
            let holder = store.execute { LeaseHolder() }
            LeaseHolder.current.set(holder)
            _ = holder.lease

            holder.$lease.release()

            // The released lease's deinit resolved its @Injected property from the store and read
            // the holder's property, which resolved a new lease.
            #expect(AuditedLease.lastAudit.value == "audit-log")
            #expect(holder.$lease.isResolved)
        }
    }
    #endif
}

/// Two releasable properties whose dependencies each read the other property.
final class ReleasableCrossing: @unchecked Sendable {
    @ReleasableInjected var ping: Ping
    @ReleasableInjected var pong: Pong
}

/// Reads an `@Injected` property, and its holder's releasable property, in its `deinit`.
private final class AuditedLease {
    static let lastAudit = Recorded<String?>(nil)
    @Injected var audit: String
    deinit {
        Self.lastAudit.set(audit)
        _ = LeaseHolder.current.value?.lease
    }
}

private final class LeaseHolder: @unchecked Sendable {
    static let current = Recorded<LeaseHolder?>(nil)
    @ReleasableInjected var lease: AuditedLease
}
