import DependencyStore
import Foundation
import Testing

/// Constructor injection of handles, the way seed 003 prefers it.
private final class SessionFactory {
    let makeSession: Provider<Session>
    init(makeSession: Provider<Session>) { self.makeSession = makeSession }
}

private final class Deferred {
    let session: Lazy<Session>
    init(session: Lazy<Session>) { self.session = session }
}

/// Two services that need each other, each through a lazy handle of the other.
private final class Parent {
    let child: Lazy<Child>
    init(child: Lazy<Child>) { self.child = child }
}

private final class Child {
    let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

private final class Numbered: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

private final class ProviderHolder {
    @Injected var sessions: Provider<Session>
}

private final class LazyHolder {
    @Injected var session: Lazy<Session>
}

@Suite struct ProviderTests {
    @Test func buildsOnEveryCallObeyingTheScope() {
        let store = DependencyStore()
        let built = Counter()
        store.register(Session.self) { _ in Session(built.increment()) }
        store.register(Session.self, name: "kept", scope: .singleton) { _ in Session(built.increment()) }
        store.register(SessionFactory.self) { store in SessionFactory(makeSession: store.resolve()) }

        let factory = store.resolve(SessionFactory.self)
        #expect(built.value == 0, "resolving the provider builds nothing")
        #expect(factory.makeSession().number == 1)
        #expect(factory.makeSession().number == 2)

        let kept = store.resolve(Provider<Session>.self, name: "kept")
        #expect(kept() === kept())
        #expect(built.value == 3)
    }

    @Test func callsResolveFromTheStoreThatResolvedTheProvider() {
        let parent = DependencyStore()
        parent.register(Session(1), for: Session.self)
        parent.register(SessionFactory.self) { store in SessionFactory(makeSession: store.resolve()) }
        let child = DependencyStore(parent: parent)
        child.register(Session(2), for: Session.self)

        #expect(child.resolve(SessionFactory.self).makeSession().number == 2)
        #expect(parent.resolve(SessionFactory.self).makeSession().number == 1)
        #expect(child.execute { ProviderHolder() }.sessions().number == 2, "as an @Injected property too")
    }

    @Test func passesArgumentsToTheFactory() {
        let store = DependencyStore()
        store.register(Session.self) { (_, number: Int) in Session(number) }
        let sessions = store.resolve(Provider<Session>.self)
        #expect(sessions(arguments: 42).number == 42)
    }

    @Test func aCallInsideAResolveSharesItsGraphAndALaterCallIsATopLevelResolve() {
        let store = DependencyStore()
        store.register(Session.self, scope: .graph) { _ in Session() }
        let later = Recorded<Provider<Session>?>(nil)
        store.register(SessionPair.self) { store in
            let sessions: Provider<Session> = store.resolve()
            later.set(sessions)
            return SessionPair(first: store.resolve(), second: sessions())
        }
        let pair = store.resolve(SessionPair.self)
        #expect(pair.first === pair.second, "called while the resolve runs: the same graph")
        #expect(later.value!() !== pair.first, "called after it returned: a graph of its own")
    }

    @Test func theOptionalVariantIsNilForAnUnregisteredType() {
        let store = DependencyStore()
        #expect(store.resolveIfRegistered(Provider<Session>.self) == nil)
        #expect(store.resolveIfRegistered(Lazy<Session>.self) == nil)
        store.register(Session(), for: Session.self)
        #expect(store.resolveIfRegistered(Provider<Session>.self) != nil)
    }

    @Test func verifyFollowsHandlesHeldByInjectedPropertiesToWhatTheyResolve() {
        let store = DependencyStore()
        store.register(Session(), for: Session.self)
        store.register(ProviderHolder(), for: ProviderHolder.self)
        store.register(LazyHolder(), for: LazyHolder.self)

        let report = store.verify()

        #expect(report.isClean, "\(report)")
        let edges = Set(report.graph.edges.map { "\($0.from) -\($0.isLazy ? "lazy" : "")-> \($0.to)" })
        #expect(edges == ["ProviderHolder -lazy-> Session", "LazyHolder -lazy-> Session"])
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aProviderForAnUnregisteredTypeTrapsWhereItIsResolved() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                _ = store.resolve(Provider<Session>.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("no registration for 'DependencyStoreTests.Session'"))
        #expect(stderr.contains("Asked for as: Provider<Session>, which the store makes for any registered 'Session'"))
        #expect(stderr.contains("Requested by: resolve at DependencyStoreTests/HandleTests.swift:"))
    }
    #endif
}

@Suite struct LazyTests {
    /// Unlike Swinject's `Lazy`, which goes back to the graph it was made in, a first use after
    /// the resolve that made the handle has returned is a top-level resolve of its own.
    @Test func aFirstUseInsideAResolveSharesItsGraphAndALaterOneGetsANewGraphInstance() {
        let store = DependencyStore()
        store.register(Session.self, scope: .graph) { _ in Session() }
        let later = Recorded<Lazy<Session>?>(nil)
        store.register(SessionPair.self) { store in
            let now: Lazy<Session> = store.resolve()
            later.set(store.resolve())
            return SessionPair(first: store.resolve(), second: now.value)
        }
        let pair = store.resolve(SessionPair.self)
        #expect(pair.first === pair.second, "used while the resolve runs: the same graph")
        let lazy = later.value!
        #expect(lazy.value !== pair.first, "used after it returned: a graph of its own")
        #expect(lazy.value === lazy.value, "and, once read, the same value")
    }

    @Test func resolvesOnceOnFirstUse() {
        let store = DependencyStore()
        let built = Counter()
        store.register(Session.self) { _ in Session(built.increment()) }
        store.register(Deferred.self) { store in Deferred(session: store.resolve()) }

        let deferred = store.resolve(Deferred.self)
        #expect(built.value == 0)
        let first = deferred.session.value
        #expect(deferred.session.value === first)
        let copy = deferred.session
        #expect(copy.value === first, "copies share the value")
        #expect(built.value == 1)
    }

    @Test(.onThreadsOfItsOwn) func resolvesExactlyOnceWhenManyThreadsUseItFirst() {
        let failures = Counter()
        for _ in 0..<50 {
            let store = DependencyStore()
            let built = Counter()
            store.register(Numbered.self) { _ in Numbered(built.increment()) }
            let lazy = store.resolve(Lazy<Numbered>.self)
            onManyThreads(threads: 8) { _, _ in _ = lazy.value.number }
            if built.value != 1 { failures.increment() }
        }
        #expect(failures.value == 0)
    }

    @Test func breaksACycleInConstructorInjection() {
        let store = DependencyStore()
        store.register(Parent.self, scope: .singleton) { store in Parent(child: store.resolve()) }
        store.register(Child.self) { store in Child(parent: store.resolve()) }

        let parent = store.resolve(Parent.self)
        #expect(parent.child.value.parent === parent)
    }

    @Test func verificationFollowsHandlesAndALazyCycleIsNotACycle() {
        let store = DependencyStore()
        store.register(Parent.self, scope: .singleton) { store in Parent(child: store.resolve()) }
        store.register(Child.self) { store in Child(parent: store.resolve()) }
        store.register(SessionFactory.self) { store in SessionFactory(makeSession: store.resolve()) }

        let report = store.verify()

        let edges = Set(report.graph.edges.map { "\($0.from) -\($0.isLazy ? "lazy" : "")-> \($0.to)" })
        #expect(edges.contains("Parent -lazy-> Child"))
        #expect(edges.contains("Child --> Parent"))
        // SessionFactory's provider needs Session, which nothing registers: reported where the
        // provider is resolved.
        let found = report.problems.map { "\($0.kind): " + $0.path.map(\.description).joined(separator: " -> ") }
        #expect(found == ["missing: SessionFactory -> Session"])
    }
}
