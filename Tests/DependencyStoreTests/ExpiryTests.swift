import DependencyStore
import Foundation
import Testing

/// A token that counts its closes: what an expiring cache keeps.
final class ExpiringToken: Closable, Sendable {
    let number: Int
    let closes = Counter()

    init(_ number: Int) { self.number = number }

    func close() { closes.increment() }
}

/// A singleton that keeps the token it was built with: a captive of an expiring token.
private final class TokenUser: Sendable {
    let token: ExpiringToken
    init(token: ExpiringToken) { self.token = token }
}

/// A singleton that asks for the token each time: no captive.
private final class TokenAsker: Sendable {
    let tokens: Provider<ExpiringToken>
    init(tokens: Provider<ExpiringToken>) { self.tokens = tokens }
}

@Suite struct ExpiryTests {
    @Test func anExpiredTokenIsRebuiltAndTheOldOneClosed() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        let builds = Counter()
        store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(builds.increment()) }
            .expiring(after: 300)

        let first = store.resolve(ExpiringToken.self)
        clock.advance(by: 299)
        #expect(store.resolve(ExpiringToken.self) === first)
        #expect(first.closes.value == 0)

        clock.advance(by: 1)
        let second = store.resolve(ExpiringToken.self)

        #expect(second !== first)
        #expect(builds.value == 2)
        #expect(first.closes.value == 1)
        #expect(second.closes.value == 0)
        #expect(store.resolve(ExpiringToken.self) === second)
    }

    @Test func eachExpiryIsTimedFromWhenTheNewInstanceWasKept() {
        let clock = ManualCacheClock(start: 1_000)
        let store = DependencyStore()
        store.useCacheClock(clock)
        store.register(ExpiringToken.self, scope: .session) { _ in ExpiringToken(0) }.expiring(after: 10)
        let first = store.resolve(ExpiringToken.self)
        clock.advance(by: 15)
        let second = store.resolve(ExpiringToken.self)
        clock.advance(by: 9)

        #expect(second !== first)
        #expect(store.resolve(ExpiringToken.self) === second)
    }

    @Test(.onThreadsOfItsOwn) func expiryRacingResolvesOnEightThreadsBuildsOncePerExpiry() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        let builds = Counter()
        let made = Recorded<[ExpiringToken]>([])
        store.register(ExpiringToken.self, scope: .singleton) { _ in
            spin(microseconds: 200)
            let token = ExpiringToken(builds.increment())
            made.update { $0.append(token) }
            return token
        }
        .expiring(after: 5)
        let rounds = 40
        let seen = Recorded<[Set<ObjectIdentifier>]>(Array(repeating: [], count: rounds))
        for round in 0..<rounds {
            // Every round starts past the expiry of the last round's token.
            clock.advance(by: 6)
            onManyThreads(threads: 8) { _, _ in
                let token = store.resolve(ExpiringToken.self)
                seen.update { _ = $0[round].insert(ObjectIdentifier(token)) }
            }
        }

        #expect(builds.value == rounds)
        #expect(seen.value.allSatisfy { $0.count == 1 })
        let tokens = made.value
        // Every token but the last expired and was closed exactly once; the last is still kept.
        #expect(tokens.dropLast().allSatisfy { $0.closes.value == 1 })
        #expect(tokens.last?.closes.value == 0)
    }

    @Test func aStoreThatSharesTheParentsInstanceSeesItExpireByTheParentsClock() {
        let clock = ManualCacheClock()
        let app = DependencyStore()
        app.useCacheClock(clock)
        app.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }.expiring(after: 60)
        let request = DependencyStore(parent: app)

        let first = request.resolve(ExpiringToken.self)
        #expect(app.resolve(ExpiringToken.self) === first)
        clock.advance(by: 60)
        let second = request.resolve(ExpiringToken.self)

        #expect(second !== first)
        #expect(app.resolve(ExpiringToken.self) === second)
        #expect(first.closes.value == 1)
        // The app's store keeps it; the request's shares it and keeps nothing.
        #expect(app.registrations.first?.hasKeptInstance == true)
        #expect(request.registrations.first?.hasKeptInstance == false)
    }

    @Test func anExpiredInstanceStaysKeptUntilAResolveOrAResetLetsGoOfIt() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }.expiring(after: 1)
        let token = store.resolve(ExpiringToken.self)
        clock.advance(by: 2)

        #expect(store.registrations.first?.hasKeptInstance == true)
        #expect(store.reset(.singleton) == 1)
        #expect(token.closes.value == 1)
        #expect(store.registrations.first?.hasKeptInstance == false)
    }

    @Test func theStoresEndClosesAnExpiringInstanceOnce() {
        let token: ExpiringToken
        do {
            let store = DependencyStore()
            store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }.expiring(after: 60)
            token = store.resolve(ExpiringToken.self)
        }
        #expect(token.closes.value == 1)
    }

    @Test func theSystemClockIsReadWhenNoStoreHasOne() {
        let store = DependencyStore()
        store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }.expiring(after: 3_600)

        #expect(store.resolve(ExpiringToken.self) === store.resolve(ExpiringToken.self))
    }

    @Test func expiryIsTimedFromTheKeepNotFromBeforeTheBuild() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        store.register(ExpiringToken.self, scope: .singleton) { _ in
            clock.advance(by: 10)  // a fetch that takes as long as the token is good for
            return ExpiringToken(0)
        }
        .expiring(after: 10)

        let token = store.resolve(ExpiringToken.self)
        clock.advance(by: 9)
        #expect(store.resolve(ExpiringToken.self) === token, "good for its whole lifetime after the fetch")
    }

    @Test func aFactoryThatHandsOutTheSameObjectAgainDoesNotHaveItClosedAtItsExpiry() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        let shared = ExpiringToken(7)
        store.register(shared, for: ExpiringToken.self, scope: .singleton).expiring(after: 1)

        _ = store.resolve(ExpiringToken.self)
        clock.advance(by: 1)
        #expect(store.resolve(ExpiringToken.self) === shared)
        #expect(shared.closes.value == 0, "it is handed out again, so it was not let go of")
        #expect(store.reset(.singleton) == 1)
        #expect(shared.closes.value == 1, "a reset still closes it, as it does any kept instance")
    }

    @Test func installingAnotherClockExpiresWhatTheOldOneTimed() {
        let store = DependencyStore()
        store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }.expiring(after: 300)
        let timedBySystem = store.resolve(ExpiringToken.self)

        let clock = ManualCacheClock()
        store.useCacheClock(clock)
        let timedByTest = store.resolve(ExpiringToken.self)
        #expect(timedByTest !== timedBySystem, "its age cannot be told on the new clock")
        #expect(timedBySystem.closes.value == 1)
        clock.advance(by: 300)
        #expect(store.resolve(ExpiringToken.self) !== timedByTest, "and the new clock decides from then on")
    }

    @Test func verifyReportsASingletonThatKeepsAnExpiringInstance() {
        let store = DependencyStore()
        store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }.expiring(after: 300)
        store.register(TokenUser.self, scope: .singleton) { store in TokenUser(token: store.resolve()) }
        store.register(TokenAsker.self, scope: .singleton) { store in TokenAsker(tokens: store.resolve()) }

        let report = store.verify()
        let captives = report.problems.filter { $0.kind == .captive }
        #expect(captives.count == 1)
        #expect(
            captives.first?.description.contains(
                "TokenUser (.singleton) holds ExpiringToken (.singleton, expiring after 300.0 s), so it keeps using that instance after its expiry"
            ) == true, "\(captives)")
        #expect(captives.first?.description.contains("inject a Provider<ExpiringToken>") == true)
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func expiringAUniqueRegistrationTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(ExpiringToken.self) { _ in ExpiringToken(0) }.expiring(after: 300)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "expiring(after: 300.0) on 'DependencyStoreTests.ExpiringToken' cannot apply: the store never keeps a .unique instance"
            ))
        #expect(stderr.contains("To fix: register it with .singleton or a custom scope"))
    }

    @Test func expiringARegistrationAlreadyResolvedTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let entry = store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }
                _ = store.resolve(ExpiringToken.self)
                entry.expiring(after: 300)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("the registration was resolved before the call"))
        #expect(stderr.contains("in the same statement, before anything resolves it"))
    }

    @Test func aDurationThatIsNotPositiveTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }.expiring(after: 0)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("cannot apply: The duration 0.0 is not positive"))
    }

    @Test func expiringAMainActorRegistrationTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(ExpiringToken.self, scope: .singleton, on: MainActor.self) { _ in ExpiringToken(0) }
                    .expiring(after: 300)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("its factory runs on the main actor"))
    }
    @Test func expiringOnTheEntryOfARegistrationReplacedSinceTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                let first = store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(0) }
                store.register(ExpiringToken.self, scope: .singleton) { _ in ExpiringToken(1) }
                first.expiring(after: 1)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("the store no longer holds this registration"))
        #expect(stderr.contains("To fix: call expiring(after: 1.0) on the entry the registration in force returned"))
    }
    #endif
}
