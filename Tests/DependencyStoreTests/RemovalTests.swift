import DependencyStore
import Foundation
import Testing

/// Seed 002's session: what the user's repository is, after login.
private final class UserRepository {
    let user: String
    init(user: String) { self.user = user }
}

/// An object that lives for a while, to see when it is released.
private final class Tracked {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void = {}) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

private struct LoginAssembly: Assembly {
    let user: String

    func assemble(into store: DependencyStore) {
        store.register(UserRepository.self, scope: .singleton) { [user] _ in UserRepository(user: user) }
        store.contribute(NamedPlugin("session-plugin"), to: Plugin.self)
        store.decorate(every: Greeting.self) { _, greeting in FixedGreeting(greeting.text + " (signed in)") }
        store.require(Clock.self)
    }
}

private struct BaseAssembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.register(Greeting.self) { _ in FixedGreeting("hello") }
        store.contribute(NamedPlugin("base-plugin"), to: Plugin.self)
    }
}

/// Holds the repository through a property, as a view model would.
private final class AccountModel {
    @Injected var repository: UserRepository
}

struct RemovalTests {
    @Test func unregisterRemovesTheRegistrationAndReleasesItsInstance() {
        let store = DependencyStore()
        weak var released: Tracked?
        store.register(Tracked.self, scope: .singleton) { _ in Tracked() }
        do {
            let instance = store.resolve(Tracked.self)
            released = instance
        }
        #expect(released != nil, "kept by the store")
        #expect(store.unregister(Tracked.self))
        #expect(released == nil, "released with the registration")
        #expect(!store.isRegistered(Tracked.self))
        #expect(!store.unregister(Tracked.self), "nothing left to remove")
    }

    @Test func aResolveAfterRemovalNamesTheRemoval() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        store.unregister(Greeting.self)
        do {
            _ = try store.tryResolve(Greeting.self)
            Issue.record("resolved after unregister")
        } catch {
            #expect(error.kind == .notRegistered)
            #expect(error.description.contains("It was registered at DependencyStoreTests/RemovalTests.swift:"))
            #expect(
                error.description.contains("and removed by unregister(_:) at DependencyStoreTests/RemovalTests.swift:"))
        }
        // Registering again forgets the removal.
        store.register(FixedGreeting("again"), for: Greeting.self)
        store.unregister(Greeting.self, name: "other")
        #expect(store.resolve(Greeting.self).text == "again")
    }

    @Test func unregisteringInAChildUncoversTheParentsRegistration() {
        let parent = DependencyStore()
        parent.register(FixedGreeting("live"), for: Greeting.self)
        let child = DependencyStore(parent: parent)
        child.register(FixedGreeting("mock"), for: Greeting.self)
        #expect(child.resolve(Greeting.self).text == "mock")
        child.unregister(Greeting.self)
        #expect(child.resolve(Greeting.self).text == "live")
        #expect(!child.unregister(Greeting.self), "the parent's is not the child's to remove")
    }

    @Test func unloadRemovesEverythingTheAssemblyMadeAndNothingElse() {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)
        store.apply(BaseAssembly(), LoginAssembly(user: "ada"))
        #expect(store.resolve(UserRepository.self).user == "ada")
        #expect(store.resolveAll(Plugin.self).map(\.id) == ["base-plugin", "session-plugin"])
        #expect(store.resolve(Greeting.self).text == "hello (signed in)")
        weak var repository: UserRepository?
        do { repository = store.resolve(UserRepository.self) }

        let removed = store.unload(LoginAssembly.self)

        #expect(removed.removed == 2, "the registration and the element")
        #expect(removed.wasApplied)
        #expect(repository == nil, "the kept instance is released")
        #expect(!store.isRegistered(UserRepository.self))
        #expect(store.resolveAll(Plugin.self).map(\.id) == ["base-plugin"])
        #expect(store.resolve(Greeting.self).text == "hello", "its decorator went too")
        #expect(store.resolve(Clock.self).now == 1)
        let again = store.unload(LoginAssembly.self)
        #expect(again.removed == 0, "unloading again removes nothing")
        #expect(!again.wasApplied)
        #expect(again.description.contains("LoginAssembly was unloaded from the store created at"))

        // The next login starts from scratch.
        store.apply(LoginAssembly(user: "grace"))
        #expect(store.resolve(UserRepository.self).user == "grace")
    }

    @Test func aStrayResolveAfterLogoutIsNamedInsteadOfRebuildingThePreviousUsersRepository() {
        let store = DependencyStore()
        store.apply(LoginAssembly(user: "ada"))
        store.unload(LoginAssembly.self)
        do {
            _ = try store.tryResolve(UserRepository.self)
            Issue.record("the previous user's repository was rebuilt")
        } catch {
            #expect(
                error.description.contains(
                    "removed by unload(LoginAssembly.self) at DependencyStoreTests/RemovalTests.swift:"))
        }
    }

    @Test func anInjectedPropertyKeepsWhatItReadAndOneNotYetReadResolvesWhatIsThereAtItsFirstRead() {
        let store = DependencyStore()
        store.apply(LoginAssembly(user: "ada"))
        let readBefore = store.execute { AccountModel() }
        let notReadYet = store.execute { AccountModel() }
        #expect(readBefore.repository.user == "ada")

        store.unload(LoginAssembly.self)
        store.apply(LoginAssembly(user: "grace"))

        #expect(readBefore.repository.user == "ada", "a read property keeps its value")
        #expect(notReadYet.repository.user == "grace", "an unread one resolves at its first read")
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func anInjectedPropertyReadAfterUnloadTrapsNamingTheUnload() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.apply(LoginAssembly(user: "ada"))
                let model = store.execute { AccountModel() }
                store.unload(LoginAssembly.self)
                _ = model.repository
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("no registration for 'DependencyStoreTests.UserRepository'"))
        #expect(stderr.contains("removed by unload(LoginAssembly.self)"))
        #expect(
            stderr.contains("Requested by: the @Injected property declared at DependencyStoreTests/RemovalTests.swift:")
        )
    }
    #endif

    @Test func unloadTakesWhatAnAssemblyItAppliedRegisteredToo() {
        struct Cart: Assembly {
            func assemble(into store: DependencyStore) {
                store.register(Session.self, name: "cart", scope: .singleton) { _ in Session(1) }
            }
        }
        struct Shop: Assembly {
            func assemble(into store: DependencyStore) {
                store.register(FixedGreeting("shop"), for: Greeting.self)
                store.apply(Cart())
            }
        }
        let store = DependencyStore()
        store.apply(Shop())
        weak var cart: Session?
        do { cart = store.resolve(Session.self, name: "cart") }
        let assembly: any Assembly = Shop()
        #expect(store.unload(type(of: assembly)).removed == 2, "an `any Assembly` unloads by its type")
        #expect(cart == nil)
        #expect(!store.isRegistered(Session.self, name: "cart"))
    }

    @Test func unloadDiscardsKeptInstancesItsDecoratorsWrapped() {
        struct Tagging: Assembly {
            let user: String
            func assemble(into store: DependencyStore) {
                store.decorate(every: Greeting.self) { [user] _, greeting in
                    FixedGreeting("\(greeting.text) for \(user)")
                }
            }
        }
        let store = DependencyStore()
        store.register(Greeting.self, scope: .singleton) { _ in FixedGreeting("hi") }
        store.apply(Tagging(user: "ada"))
        let child = DependencyStore(parent: store)
        #expect(store.resolve(Greeting.self).text == "hi for ada")
        #expect(child.resolve(Greeting.self).text == "hi for ada")
        store.unload(Tagging.self)
        #expect(store.resolve(Greeting.self).text == "hi", "rebuilt without the decorator")
        #expect(child.resolve(Greeting.self).text == "hi", "in stores layered over it too")
    }

    @Test func anAssemblyAppliedTwiceDecoratesOnceAndRequiresOnce() {
        struct Decorating: Assembly {
            func assemble(into store: DependencyStore) {
                store.require(Clock.self)
                store.decorate(Greeting.self) { _, greeting in FixedGreeting(greeting.text + "!") }
            }
        }
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        store.apply(Decorating(), Decorating())
        #expect(store.resolve(Greeting.self).text == "hi!")
        #expect(store.verify().problems.filter { $0.kind == .unmetRequirement }.count == 1)
        store.unload(Decorating.self)
        #expect(store.resolve(Greeting.self).text == "hi")
    }

    @Test func unloadForgetsTheOverridesItsRegistrationsTookPartIn() {
        let store = DependencyStore()
        store.apply(LoginAssembly(user: "ada"), LoginAssembly(user: "grace"))
        #expect(!store.verify().overrides.isEmpty)
        store.unload(LoginAssembly.self)
        #expect(store.verify().overrides.isEmpty)
    }

    @Test func aDeinitThatResolvesDuringUnloadCompletes() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        let resolvedInDeinit = Recorded<String?>(nil)
        struct Resolving: Assembly {
            let record: Recorded<String?>
            func assemble(into store: DependencyStore) {
                store.register(Tracked.self, scope: .singleton) { [record] store in
                    Tracked { record.set(store.resolve(Greeting.self).text) }
                }
            }
        }
        store.apply(Resolving(record: resolvedInDeinit))
        _ = store.resolve(Tracked.self)
        store.unload(Resolving.self)
        #expect(resolvedInDeinit.value == "hi")
    }

    @Test func removalsReachStoresLayeredOver() {
        let parent = DependencyStore()
        parent.register(Tracked.self, scope: .singleton) { _ in Tracked() }
        let child = DependencyStore(parent: parent)
        weak var childInstance: Tracked?
        do { childInstance = child.resolve(Tracked.self) }
        #expect(childInstance != nil)
        parent.unregister(Tracked.self)
        #expect(childInstance == nil, "the child forgot what it built from the removed registration")
        #expect(!child.isRegistered(Tracked.self))
    }

    @Test(.onThreadsOfItsOwn) func removalRacingResolvesNeverHandsOutARemovedRegistrationsInstanceAfterward() {
        // Some threads register and unregister a singleton whose factory does real work; others
        // resolve it, by the forms that give nil for a missing registration. After each unregister returns, the remover's own next check must not see it,
        // and nothing crashes or deadlocks (a build in flight during the removal keeps nothing).
        let store = DependencyStore()
        let stale = Counter()
        onManyThreads(threads: 6, rounds: 1) { _, thread in
            for index in 0..<150 {
                if thread < 2 {
                    let name = "n\(thread)"
                    store.register(Session.self, name: name, scope: .singleton) { _ in
                        var spin = 0
                        for step in 0..<2_000 { spin &+= step }
                        return Session(spin == 0 ? -1 : index)
                    }
                    store.unregister(Session.self, name: name)
                    if store.isRegistered(Session.self, name: name) { stale.increment() }
                } else {
                    // Every form that answers "absent" must say so, not trap, when the removal
                    // comes between its lookup and its build: the optional forms check first and
                    // resolve after.
                    let name = "n\(index % 2)"
                    switch index % 3 {
                    case 0: _ = store.resolveIfRegistered(Session.self, name: name)
                    case 1: _ = store.resolve(Session?.self, name: name)
                    default: _ = store.resolveIfRegistered(Session?.self, name: name)
                    }
                }
            }
        }
        #expect(stale.value == 0)
        #expect(store.registrations.isEmpty)
    }
}

/// An unload that removes nothing says why, and a collection emptied by one names it.
@Suite struct UnloadReportTests {
    private struct NeverApplied: Assembly {
        func assemble(into store: DependencyStore) {
            store.register(FixedClock(1), for: Clock.self)
        }
    }

    private struct Plugins: Assembly {
        func assemble(into store: DependencyStore) {
            store.contribute(FixedClock(1), to: Clock.self)
            store.contribute(FixedClock(2), to: Clock.self)
        }
    }

    private struct Empty: Assembly {
        func assemble(into store: DependencyStore) {}
    }

    @Test func unloadingAnAssemblyNeverAppliedSaysSo() {
        let store = DependencyStore()
        let result = store.unload(NeverApplied.self)
        #expect(result.removed == 0)
        #expect(!result.wasApplied)
        #expect(result.description.contains("NeverApplied was never applied to the store created at"))
    }

    /// A logout that runs twice with the wrong type must keep naming the typo, not say the
    /// assembly was unloaded already.
    @Test func unloadingAnAssemblyNeverAppliedTwiceSaysNeverAppliedBothTimes() {
        let store = DependencyStore()
        store.unload(NeverApplied.self)
        let second = store.unload(NeverApplied.self)
        #expect(!second.wasApplied)
        #expect(second.description.contains("NeverApplied was never applied to the store created at"))
    }

    @Test func unloadingAnAppliedAssemblyTwiceSaysItWasUnloadedAlready() {
        let store = DependencyStore()
        store.apply(NeverApplied())
        #expect(store.unload(NeverApplied.self).removed == 1)
        let second = store.unload(NeverApplied.self)
        #expect(second.removed == 0)
        #expect(second.description.contains("NeverApplied was unloaded from the store created at"))
        #expect(second.description.contains("already"))
    }

    @Test func unloadingFromAChildWhatTheParentAppliedSaysItWasNeverAppliedThere() {
        let parent = DependencyStore()
        parent.apply(NeverApplied())
        let child = DependencyStore(parent: parent)
        #expect(!child.unload(NeverApplied.self).wasApplied)
        #expect(parent.unload(NeverApplied.self).removed == 1)
    }

    @Test func anAssemblyThatRegisteredNothingIsAppliedButRemovesNothing() {
        let store = DependencyStore()
        store.apply(Empty())
        let result = store.unload(Empty.self)
        #expect(result.wasApplied)
        #expect(result.description.contains("Empty registered nothing in"))
    }

    private struct Decorating: Assembly {
        func assemble(into store: DependencyStore) {
            store.decorate(Greeting.self) { _, greeting in FixedGreeting(greeting.text + "!") }
        }
    }

    private struct Outer: Assembly {
        func assemble(into store: DependencyStore) {
            store.apply(Decorating())
        }
    }

    @Test func anAssemblyThatOnlyDecoratedSaysWhatItRemoved() {
        let store = DependencyStore()
        store.register(FixedGreeting("Hi"), for: Greeting.self)
        store.apply(Decorating())
        #expect(store.resolve(Greeting.self).text == "Hi!")
        let result = store.unload(Decorating.self)
        #expect(result.removed == 0, "no registration or contribution")
        #expect(result.description.contains("removed 1 decorator or completion step of Decorating from"))
        #expect(store.resolve(Greeting.self).text == "Hi")
    }

    @Test func anAssemblyAppliedByAnotherIsUnloadedWithIt() {
        let store = DependencyStore()
        store.register(FixedGreeting("Hi"), for: Greeting.self)
        store.apply(Outer())
        #expect(store.unload(Outer.self).wasApplied)
        let inner = store.unload(Decorating.self)
        #expect(inner.description.contains("Decorating was unloaded from"))
    }

    @Test func aCollectionWhoseElementsWereUnloadedNamesTheUnload() throws {
        let store = DependencyStore()
        store.apply(Plugins())
        #expect(store.resolve([Clock].self).count == 2)
        store.unload(Plugins.self)
        let error = try #require(thrownError(ResolutionError.self) { try store.tryResolve([Clock].self) })
        #expect(error.description.contains("Its elements were contributed (the first at"))
        #expect(error.description.contains("and removed by unload(Plugins.self) at"))
        store.contribute(FixedClock(3), to: Clock.self)
        #expect(store.resolve([Clock].self).count == 1, "a new element clears the note")
    }
}
