import DependencyStore
import Foundation
import Testing

protocol TokenProviding: AnyObject {
    var token: String { get }
}

protocol UserProviding: AnyObject {
    var user: String { get }
}

final class SessionStore: TokenProviding, UserProviding {
    let token = "t-1"
    let user = "ada"
}

struct ForwardingTests {
    @Test func forwardedTypesShareTheTargetsKeptInstance() {
        let store = DependencyStore()
        let built = Counter()
        store.register(SessionStore.self, scope: .singleton) { _ in
            built.increment()
            return SessionStore()
        }
        store.forward(TokenProviding.self, to: SessionStore.self)
        store.forward(UserProviding.self, to: SessionStore.self)

        let tokens = store.resolve(TokenProviding.self)
        let users = store.resolve(UserProviding.self)

        #expect(tokens === users)
        #expect(tokens === store.resolve(SessionStore.self))
        #expect(built.value == 1)
    }

    @Test func theTargetsScopeDecidesAndItIsLookedUpAtEachResolve() {
        let store = DependencyStore()
        store.forward(TokenProviding.self, to: SessionStore.self)
        // Registered after the forward: found at the resolve.
        store.register(SessionStore(), for: SessionStore.self)
        #expect(store.resolve(TokenProviding.self) !== store.resolve(TokenProviding.self), ".unique target")
        // Replacing the target changes what the forward hands out.
        let shared = SessionStore()
        store.register(shared, for: SessionStore.self)
        #expect(store.resolve(TokenProviding.self) === shared)
    }

    @Test func namedForwardsAndTargets() {
        let store = DependencyStore()
        store.register(SessionStore.self, name: "guest", scope: .singleton) { _ in SessionStore() }
        store.forward(TokenProviding.self, name: "guest", to: SessionStore.self, named: "guest")
        #expect(store.resolve(TokenProviding.self, name: "guest") === store.resolve(SessionStore.self, name: "guest"))
        #expect(!store.isRegistered(TokenProviding.self))
    }

    @Test func aChildOverridingTheTargetIsSeenThroughTheParentsForward() {
        let parent = DependencyStore()
        parent.register(SessionStore.self, scope: .singleton) { _ in SessionStore() }
        parent.forward(TokenProviding.self, to: SessionStore.self)
        let child = DependencyStore(parent: parent)
        let mock = SessionStore()
        child.register(mock, for: SessionStore.self)
        #expect(child.resolve(TokenProviding.self) === mock)
        #expect(parent.resolve(TokenProviding.self) !== mock)
    }

    @Test func aForwardToItselfIsACycle() {
        let store = DependencyStore()
        store.forward(TokenProviding.self, to: UserProviding.self)
        store.forward(UserProviding.self, to: TokenProviding.self)
        let report = store.verify()
        #expect(report.problems.contains { $0.kind == .cycle }, "\(report)")
    }

    @Test func theListingAndVerifyShowTheForward() {
        let store = DependencyStore()
        store.register(SessionStore.self, scope: .singleton) { _ in SessionStore() }
        store.forward(TokenProviding.self, to: SessionStore.self)
        let entry = store.registrations.first { $0.type == "TokenProviding" }
        #expect(entry?.forwardsTo == "SessionStore")
        #expect(entry?.description.hasPrefix("TokenProviding, forwards to SessionStore, registered at ") == true)
        let report = store.verify()
        #expect(report.isClean)
        #expect(report.graph.edges.contains { $0.from.type == "TokenProviding" && $0.to.type == "SessionStore" })
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aTargetOfTheWrongTypeTrapsNamingBothAndTheFix() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(FixedGreeting("hi"), for: Greeting.self)
                store.forward(TokenProviding.self, to: Greeting.self)
                _ = store.resolve(TokenProviding.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "the forward of 'DependencyStoreTests.TokenProviding' to 'DependencyStoreTests.Greeting' got a 'DependencyStoreTests.FixedGreeting', which is not a 'TokenProviding'"
            ))
        #expect(stderr.contains("Forward made at: DependencyStoreTests/ForwardingTests.swift:"))
        #expect(stderr.contains("Requested by: resolve at DependencyStoreTests/ForwardingTests.swift:90"), "\(stderr)")
        #expect(stderr.contains("To fix: forward to a registration whose instance conforms to 'TokenProviding'"))
    }
    #endif

    @Test func verifyReportsAForwardOfTheWrongType() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        store.forward(TokenProviding.self, to: Greeting.self)
        let report = store.verify()
        let problem = report.problems.first
        #expect(problem?.kind == .failed)
        #expect(problem?.description.contains("which is not a 'TokenProviding'") == true, "\(report)")
    }
}
