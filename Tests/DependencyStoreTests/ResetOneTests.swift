import DependencyStore
import Foundation
import Testing

/// Two kinds of closable instance, to reset one and keep the other.
final class RevokedToken: Closable, Sendable {
    let closes = Counter()
    func close() { closes.increment() }
}

final class ProfileCache: Closable, Sendable {
    let closes = Counter()
    func close() { closes.increment() }
}

@Suite struct ResetOneTests {
    @Test func resettingOneRegistrationClosesItsInstanceAndLeavesAnotherOfTheSameScope() {
        let store = DependencyStore()
        store.register(RevokedToken.self, scope: .singleton) { _ in RevokedToken() }
        store.register(ProfileCache.self, scope: .singleton) { _ in ProfileCache() }
        let token = store.resolve(RevokedToken.self)
        let cache = store.resolve(ProfileCache.self)

        #expect(store.reset(RevokedToken.self) == 1)

        #expect(token.closes.value == 1)
        #expect(cache.closes.value == 0)
        #expect(store.resolve(RevokedToken.self) !== token)
        #expect(store.resolve(ProfileCache.self) === cache)
    }

    @Test func itResetsTheNamedRegistrationItIsGivenAndCountsNothingWhenNothingIsKept() {
        let store = DependencyStore()
        store.register(RevokedToken.self, scope: .session) { _ in RevokedToken() }
        store.register(RevokedToken.self, name: "backup", scope: .session) { _ in RevokedToken() }
        let plain = store.resolve(RevokedToken.self)
        let backup = store.resolve(RevokedToken.self, name: "backup")

        #expect(store.reset(RevokedToken.self, name: "backup") == 1)
        #expect(store.reset(RevokedToken.self, name: "backup") == 0)

        #expect(backup.closes.value == 1)
        #expect(plain.closes.value == 0)
        #expect(store.resolve(RevokedToken.self) === plain)
    }

    @Test func aStoreThatKeepsItsOwnCopyResetsThatCopyAndNotTheParents() {
        let app = DependencyStore()
        app.register(RevokedToken.self, scope: .singleton) { _ in RevokedToken() }
        app.register("live", for: String.self)
        let test = DependencyStore(parent: app)
        test.register("mock", for: String.self)  // an override: the test keeps its own copies
        let appToken = app.resolve(RevokedToken.self)
        let testToken = test.resolve(RevokedToken.self)
        #expect(testToken !== appToken)

        #expect(test.reset(RevokedToken.self) == 1)

        #expect(testToken.closes.value == 1)
        #expect(appToken.closes.value == 0)
        #expect(app.resolve(RevokedToken.self) === appToken)
    }

    @Test func aStoreThatSharesTheParentsInstanceResetsNothing() {
        let app = DependencyStore()
        app.register(RevokedToken.self, scope: .singleton) { _ in RevokedToken() }
        let request = DependencyStore(parent: app)
        let token = request.resolve(RevokedToken.self)

        #expect(request.reset(RevokedToken.self) == 0)
        #expect(token.closes.value == 0)
        #expect(app.reset(RevokedToken.self) == 1)
        #expect(token.closes.value == 1)
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aTypeNotRegisteredTrapsWithTheCloseMatches() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(RevokedToken.self, name: "backup", scope: .singleton) { _ in RevokedToken() }
                store.register(RevokedToken?.self, scope: .singleton) { _ in RevokedToken() }
                store.reset(RevokedToken.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("DependencyStore: reset(RevokedToken.self) found no registration to reset."))
        #expect(stderr.contains("'RevokedToken' is registered under: \"backup\""))
        #expect(stderr.contains("Registered, and close to what was asked for:\n    - "))
        #expect(stderr.contains("Reset it as it was registered: reset(RevokedToken?.self)."), "\(stderr)")
        #expect(!stderr.contains("or ask for the optional"), "a resolve's advice")
    }

    @Test func aRegistrationWhoseScopeKeepsNothingTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(RevokedToken.self, scope: .graph) { _ in RevokedToken() }
                store.reset(RevokedToken.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "reset of 'DependencyStoreTests.RevokedToken' has nothing to discard: a .graph instance is never kept in a store."
            ))
    }
    #endif
}

@Suite struct NilResultTests {
    @Test func aNilResultOfACachedRegistrationIsNotKeptSoTheNextResolveAsksAgain() {
        let store = DependencyStore()
        let calls = Counter()
        store.register(RevokedToken?.self, scope: .singleton) { _ in
            calls.increment() < 3 ? nil : RevokedToken()
        }

        #expect(store.resolve(RevokedToken?.self) == nil)
        #expect(store.registrations.first?.hasKeptInstance == false)
        #expect(store.resolve(RevokedToken?.self) == nil)
        let token = store.resolve(RevokedToken?.self)

        #expect(token != nil)
        #expect(store.resolve(RevokedToken?.self) === token)
        #expect(calls.value == 3)
        #expect(store.registrations.first?.hasKeptInstance == true)
    }

    @Test func anAsyncFactorysNilIsNotKeptEither() async throws {
        let store = DependencyStore()
        let calls = Counter()
        store.register(RevokedToken?.self, scope: .singleton) { _ async in
            calls.increment() < 2 ? nil : RevokedToken()
        }

        #expect(try await store.resolveAsync(RevokedToken?.self) == nil)
        let token = try await store.resolveAsync(RevokedToken?.self)

        #expect(token != nil)
        #expect(try await store.resolveAsync(RevokedToken?.self) === token)
        #expect(calls.value == 2)
    }

    @Test func aNilIsNotKeptByAnExpiringOrPerArgumentCacheEither() {
        let store = DependencyStore()
        let calls = Counter()
        store.register(RevokedToken?.self, scope: .singleton) { (_, id: Int) in
            calls.increment()
            return id == 0 ? nil : RevokedToken()
        }
        .cachedPerArgument()
        .expiring(after: 60)

        #expect(store.resolve(RevokedToken?.self, arguments: 0) == nil)
        #expect(store.resolve(RevokedToken?.self, arguments: 0) == nil)
        let one = store.resolve(RevokedToken?.self, arguments: 1)

        #expect(store.resolve(RevokedToken?.self, arguments: 1) === one)
        #expect(calls.value == 3)
        #expect(store.registrations.first?.keptInstances == 1)
    }
}
