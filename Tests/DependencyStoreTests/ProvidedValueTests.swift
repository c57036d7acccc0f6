import DependencyStore
import Foundation
import Testing

/// A request's own values, as a server's store per request holds them.
private struct RequestID: Equatable, Sendable {
    let value: String
}

private final class RequestUser: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// A value the store must never close: it did not build it.
private final class Connection: Closable, @unchecked Sendable {
    var closed = 0
    func close() { closed += 1 }
}

private final class Handler {
    @Injected var id: RequestID
    @Injected var user: RequestUser
    @Injected var greeting: Greeting
}

private final class Tracked {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// A value provided as an existential: five words.
private protocol Holding {
    var tracked: Tracked { get }
}

private struct TrackedHolder: Holding {
    let tracked: Tracked
}

struct ProvidedValueTests {
    @Test func everyResolveHandsOutTheValueItselfAndRunsNothing() throws {
        let store = DependencyStore()
        let user = RequestUser(name: "ada")
        store.provide(RequestID(value: "r-1"), for: RequestID.self)
        store.provide(user)

        #expect(store.resolve(RequestID.self) == RequestID(value: "r-1"))
        #expect(store.resolve(RequestUser.self) === user)
        #expect(store.resolve(RequestUser.self) === user, "the same instance at every resolve")
        #expect(try store.tryResolve(RequestID.self).value == "r-1")
        #expect(store.resolveIfRegistered(RequestUser.self) === user)
        #expect(store.isRegistered(RequestID.self))
    }

    @Test func aRequestStoreOverTheAppsFeedsInjectedProperties() {
        let app = DependencyStore()
        app.register(FixedGreeting("hello"), for: Greeting.self, scope: .singleton)
        let request = DependencyStore(parent: app)
        request.provide(RequestID(value: "r-2"))
        request.provide(RequestUser(name: "grace"))

        let handler = request.execute { Handler() }

        #expect(handler.id.value == "r-2")
        #expect(handler.user.name == "grace")
        #expect(handler.greeting.text == "hello")
        #expect(!app.isRegistered(RequestID.self), "the app's store is untouched")
        // A store that only provides values shares the app's singletons.
        #expect(handler.greeting as AnyObject === app.resolve(Greeting.self) as AnyObject)
    }

    /// Features meet: the sharing rule finds a provided value as it finds a registered one, so an
    /// app singleton whose factory reads a request's value is built per request.
    @Test func anAppSingletonThatReadsAProvidedValueIsBuiltPerRequest() {
        final class Report: Sendable {
            let id: RequestID
            init(id: RequestID) { self.id = id }
        }
        let app = DependencyStore()
        app.register(Report.self, scope: .singleton) { store in Report(id: store.resolve(RequestID.self)) }
        let first = DependencyStore(parent: app)
        first.provide(RequestID(value: "a"))
        let second = DependencyStore(parent: app)
        second.provide(RequestID(value: "b"))

        #expect(first.resolve(Report.self).id.value == "a")
        #expect(second.resolve(Report.self).id.value == "b", "not the first request's instance")
        #expect(first.resolve(Report.self) === first.resolve(Report.self), "one instance per request")
        #expect(app.resolveIfRegistered(RequestID.self) == nil, "the app's store kept no request's value")
    }

    @Test func namedValuesAreToldApart() {
        let store = DependencyStore()
        store.provide(RequestID(value: "outer"), name: "outer")
        store.provide(RequestID(value: "inner"), name: "inner")

        #expect(store.resolve(RequestID.self, name: "outer").value == "outer")
        #expect(store.resolve(RequestID.self, name: "inner").value == "inner")
        #expect(store.resolveIfRegistered(RequestID.self) == nil, "no unnamed one")
    }

    @Test func theListingSaysItIsAProvidedValue() throws {
        let store = DependencyStore()
        store.provide(RequestID(value: "r-3"), for: RequestID.self)
        store.register(FixedGreeting("hi"), for: Greeting.self)

        let entries = store.registrations
        let provided = try #require(entries.first { $0.type == "RequestID" })
        #expect(provided.isProvidedValue)
        #expect(provided.description.hasPrefix("RequestID, provided value, provided at DependencyStoreTests/"))
        #expect(entries.first { $0.type == "Greeting" }?.isProvidedValue == false)
    }

    @Test func aRequestStoreThatProvidesWhatTheAppDeclaresPerRequestVerifies() {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)
        app.register(Greeting.self) { store in FixedGreeting("for \(store.resolve(RequestID.self).value)") }
        #expect(app.verify().isClean, "the declaration stands in for the value")

        let request = DependencyStore(parent: app)
        request.provide(RequestID(value: "r-4"))
        #expect(request.verify().isClean, "the provided value satisfies the declaration")
        #expect(request.resolve(Greeting.self).text == "for r-4")
    }

    @Test func aMissingValueIsReportedByVerificationAsAMissingRegistrationIs() {
        let store = DependencyStore()
        store.register(Greeting.self) { store in FixedGreeting(store.resolve(RequestID.self).value) }
        #expect(!store.verify().isClean)
        store.provide(RequestID(value: "r-5"))
        #expect(store.verify().isClean)
    }

    @Test func unregisterRemovesItAndAResolveAfterNamesTheRemoval() {
        let store = DependencyStore()
        store.provide(RequestID(value: "r-6"))
        #expect(store.unregister(RequestID.self))
        #expect(!store.isRegistered(RequestID.self))
        do {
            _ = try store.tryResolve(RequestID.self)
            Issue.record("resolved a removed value")
        } catch {
            #expect("\(error)".contains("unregister"), "names the removal: \(error)")
        }
    }

    @Test func providingAgainOrRegisteringReplacesIt() {
        let store = DependencyStore()
        store.provide(RequestID(value: "first"))
        store.provide(RequestID(value: "second"))
        #expect(store.resolve(RequestID.self).value == "second")
        store.register(RequestID(value: "registered"), for: RequestID.self)
        #expect(store.resolve(RequestID.self).value == "registered")
        store.provide(RequestID(value: "provided"))
        #expect(store.resolve(RequestID.self).value == "provided")
    }

    @Test func aDecoratorInScopeDecoratesItAtEachResolve() {
        let app = DependencyStore()
        let decorations = Counter()
        app.decorate(Greeting.self) { _, greeting in
            decorations.increment()
            return FixedGreeting(greeting.text + "!")
        }
        let request = DependencyStore(parent: app)
        request.provide(FixedGreeting("hi"), for: Greeting.self)

        #expect(request.resolve(Greeting.self).text == "hi!")
        #expect(request.resolve(Greeting.self).text == "hi!", "decorated from the value, not from the last result")
        #expect(decorations.value == 2)
    }

    @Test func observersSeeEveryResolve() {
        let store = DependencyStore()
        store.provide(RequestID(value: "r-7"))
        let events = Counter()
        let observation = store.observeResolves { event in
            if event.type == RequestID.self { events.increment() }
        }
        _ = store.resolve(RequestID.self)
        _ = store.resolve(RequestID.self)
        withExtendedLifetime(observation) {}
        #expect(events.value == 2)
    }

    // MARK: - The value kept as it is, until something needs its registration

    /// A store keeps an unnamed provided value in a box of its own until anything but a resolve
    /// reads it (see `ProvidedValue`). Each of these comes after resolves that read the box, and
    /// finds the value as it finds a registration, with the same value afterwards.
    @Test func anObserverOrADecoratorAddedAfterResolvesSeesTheValue() {
        let store = DependencyStore()
        store.provide(FixedGreeting("hi"), for: Greeting.self)
        #expect(store.resolve(Greeting.self).text == "hi")

        let events = Counter()
        let observation = store.observeResolves { event in
            if event.type == Greeting.self { events.increment() }
        }
        #expect(store.resolve(Greeting.self).text == "hi")
        #expect(events.value == 1, "the resolve after the observer is reported")
        observation.cancel()

        store.decorate(Greeting.self) { _, greeting in FixedGreeting(greeting.text + "!") }
        #expect(store.resolve(Greeting.self).text == "hi!")
        #expect(store.resolve(Greeting.self).text == "hi!", "decorated from the value each time")
    }

    private struct RequestValues: Assembly {
        func assemble(into store: DependencyStore) {
            store.provide(RequestID(value: "from-assembly"))
        }
    }

    @Test func aValueProvidedByAnAssemblyIsListedAndUnloadedWithIt() throws {
        let store = DependencyStore()
        store.apply(RequestValues())
        #expect(store.resolve(RequestID.self).value == "from-assembly")
        let listed = try #require(store.registrations.first { $0.type == "RequestID" })
        #expect(listed.isProvidedValue)
        #expect("\(listed)".contains("ProvidedValueTests.swift"), "listed where it was provided: \(listed)")

        store.unload(RequestValues.self)
        #expect(!store.isRegistered(RequestID.self))
        #expect(store.resolveIfRegistered(RequestID.self) == nil)
    }

    @Test func aStoreOverARequestStoreAndVerificationSeeItsValues() {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)
        app.register(Greeting.self) { store in FixedGreeting(store.resolve(RequestID.self).value) }
        let request = DependencyStore(parent: app)
        request.provide(RequestID(value: "r-9"))
        #expect(request.resolve(RequestID.self).value == "r-9")

        let nested = DependencyStore(parent: request)
        #expect(nested.resolve(RequestID.self).value == "r-9", "found in the parent's registry")
        #expect(nested.resolve(Greeting.self).text == "r-9")
        #expect(request.verify().problems.isEmpty)
        #expect(request.resolve(RequestID.self).value == "r-9", "and still resolved after")
    }

    /// The box and its registration race: eight threads resolve the value while another thread
    /// lists the store, which turns the value into its registration at some point among the
    /// resolves. Every resolve gets the value, before and after.
    @Test(.onThreadsOfItsOwn) func resolvesRacingTheTurnIntoARegistrationAllGetTheValue() {
        for _ in 0..<50 {
            let store = DependencyStore()
            let user = RequestUser(name: "ada")
            store.provide(user)
            let wrong = Counter()
            onManyThreads(threads: 9) { _, thread in
                if thread == 8 {
                    _ = store.registrations
                    return
                }
                for _ in 0..<200 where store.resolve(RequestUser.self) !== user {
                    wrong.increment()
                }
            }
            #expect(wrong.value == 0)
        }
    }

    private struct Numbered<Marker>: Equatable {
        let value: Int
    }
    private enum One {}
    private enum Two {}
    private enum Three {}
    private enum Four {}

    /// A store keeps its first two values in rooms of its core and any more in boxes, in a table:
    /// values beyond two, and one removed and provided again among them, are all found.
    @Test func moreValuesThanTheRegistryHoldsInlineAreAllFound() {
        let store = DependencyStore()
        store.provide(Numbered<One>(value: 1))
        store.provide(Numbered<Two>(value: 2))
        store.provide(Numbered<Three>(value: 3))
        store.provide(Numbered<Four>(value: 4))
        #expect(store.resolve(Numbered<One>.self).value == 1)
        #expect(store.resolve(Numbered<Two>.self).value == 2)
        #expect(store.resolve(Numbered<Three>.self).value == 3)
        #expect(store.resolve(Numbered<Four>.self).value == 4)

        #expect(store.unregister(Numbered<One>.self))
        #expect(store.resolveIfRegistered(Numbered<One>.self) == nil)
        #expect(store.resolve(Numbered<Two>.self).value == 2, "the other inline value stays")
        store.provide(Numbered<One>(value: 10))
        #expect(store.resolve(Numbered<One>.self).value == 10)
        #expect(store.resolve(Numbered<Four>.self).value == 4)
        #expect(store.registrations.filter(\.isProvidedValue).count == 4)
    }

    @Test func theStoreNeverClosesNorResetsAValueItDidNotBuild() {
        let connection = Connection()
        do {
            let store = DependencyStore()
            store.provide(connection)
            _ = store.reset(.singleton)
            #expect(store.resolve(Connection.self) === connection, "a reset leaves it")
        }
        #expect(connection.closed == 0, "the store's end does not close it")
    }

    @Test func theValueIsReleasedWithItsStore() {
        let released = Counter()
        var store: DependencyStore? = DependencyStore()
        store?.provide(Tracked { released.increment() })
        _ = store?.resolve(Tracked.self)
        #expect(released.value == 0)
        store = nil
        #expect(released.value == 1, "the store held the value, and only it")
    }

    @Test func resolveAsyncHandsItOutToo() async throws {
        let store = DependencyStore()
        store.provide(RequestID(value: "r-8"))
        let id = try await store.resolveAsync(RequestID.self)
        #expect(id.value == "r-8")
    }

    /// A value in a room (see `ProvidedValueRoom`: the first two that fit) is moved out of it when
    /// something takes its place, and released with the registration it moved into; those still
    /// in rooms are released with their store. (Not checked after `unregister`: a removal keeps
    /// what it removed until no resolve begun before it runs, any test's; see `Tombstones`.)
    @Test func aValueInARoomIsReleasedWhenReplacedOrWithItsStore() {
        let store = DependencyStore()
        weak var replaced: Tracked?
        weak var kept: Tracked?
        weak var inAnExistential: Tracked?
        do {
            let first = Tracked {}
            let second = Tracked {}
            let third = Tracked {}
            (replaced, kept, inAnExistential) = (first, second, third)
            store.provide(first)
            #expect(store.resolve(Tracked.self) === first)
            store.provide(second)
            #expect(store.resolve(Tracked.self) === second)
            // Five words, the widest value a room takes.
            store.provide(TrackedHolder(tracked: third) as any Holding)
            #expect(store.resolve((any Holding).self).tracked === third)
        }
        #expect(MemoryLayout<any Holding>.size == 5 * MemoryLayout<Int>.size)
        #expect(replaced == nil, "the value that replaced it released it")
        #expect(kept != nil && inAnExistential != nil, "the store holds the values it has")
        withExtendedLifetime(store) {}
        _ = consume store
        #expect(kept == nil && inAnExistential == nil, "the store's end released them")
    }

    /// Resolves copy a value out of its room under the store's lock, while another thread takes
    /// it away (`unregister`) and provides another: every resolve gets a whole value or none,
    /// never one being moved out. A copy made after the lock is released fails here: it crashed
    /// in most plain runs, and the thread sanitizer reported it as a race with the move in every
    /// run, when `handOut` was made to unlock first.
    @Test(.onThreadsOfItsOwn) func resolvesRacingARemovalOfTheValueGetAWholeValueOrNone() {
        let store = DependencyStore()
        store.provide(RequestUser(name: "user-0"))
        let wrong = Counter()
        let found = Counter()
        let writerDone = Counter()
        let lastRound = Recorded(0)
        onManyThreads(threads: 3) { _, thread in
            if thread == 2 {
                // 5,000 rounds at least, and on until the readers have read beside them: when they
                // start is the scheduler's (on a busy machine the rounds once ended first).
                let deadline = Date().addingTimeInterval(testDeadline)
                var round = 0
                while round < 5_000 || (found.value < 100 && Date() < deadline) {
                    round += 1
                    _ = store.unregister(RequestUser.self)
                    store.provide(RequestUser(name: "user-\(round)"))
                }
                lastRound.set(round)
                writerDone.increment()
                return
            }
            // Until the writer is done: the readers overlap every one of its rounds.
            while writerDone.value == 0 {
                guard let user = store.resolveIfRegistered(RequestUser.self) else { continue }
                found.increment()
                if !user.name.hasPrefix("user-") { wrong.increment() }
            }
        }
        #expect(wrong.value == 0)
        #expect(found.value > 0, "the readers ran while the values came and went")
        #expect(store.resolve(RequestUser.self).name == "user-\(lastRound.value)")
    }

    /// The first read of an `@Injected` property looks for a value of its store in the store's
    /// rooms first, under the store's lock (`ownValueLeavingLockHeld`), and takes the
    /// resolve's path when a build must be seen: it finds what a resolve finds.
    @Test func anInjectedPropertyFindsAValueAsAResolveDoes() {
        let app = DependencyStore()
        app.register(FixedGreeting("hello"), for: Greeting.self)
        app.decorate(Greeting.self) { _, greeting in FixedGreeting(greeting.text + "!") }
        let request = DependencyStore(parent: app)
        request.provide(RequestID(value: "r-3"))
        request.provide(FixedGreeting("hi"), for: Greeting.self)
        let events = Counter()
        let observation = request.observeResolves { event in
            if event.type == RequestID.self { events.increment() }
        }
        let handler = request.execute { Handler() }
        #expect(handler.greeting.text == "hi!", "the app's decorator is in scope")
        #expect(handler.id == RequestID(value: "r-3"))
        #expect(events.value == 1, "the observer saw the property's read")
        withExtendedLifetime(observation) {}

        let plain = DependencyStore(parent: app)
        plain.provide(RequestUser(name: "ada"))
        let user = plain.execute { Handler() }.user
        #expect(user.name == "ada")
        #expect(plain.resolve(RequestUser.self) === user, "the value itself, as a resolve hands it out")
    }

    /// First reads of `@Injected` properties copy a value out of its room, under the store's lock,
    /// while another thread moves the value out (providing another replaces it) and puts a value
    /// of another type in the room it left: every read gets a whole value of its type, the one
    /// before or the one after. Each round, the writer waits (0.1 ms at most) for a reader to take
    /// the round's store before it replaces the value. A copy made after the lock is
    /// released crashed here in three plain runs of four. (The thread sanitizer does not see that
    /// race: the copy and the move run in the runtime's value witnesses, which it does not
    /// instrument.)
    @Test(.onThreadsOfItsOwn) func propertiesReadingAValueRacingItsReplacementGetAWholeValue() {
        let current = Recorded<(round: Int, store: DependencyStore)?>(nil)
        let taken = Recorded(0)
        let wrong = Counter()
        let read = Counter()
        let writerDone = Counter()
        onManyThreads(threads: 3) { _, thread in
            if thread == 2 {
                // At most 20,000 rounds and 2 s: in a parallel run of the suite, where the readers
                // are slow to take a round, the waits alone took 19 s at a millisecond each and
                // starved the tests around it. But on until a reader has read beside them, within
                // the test's deadline: when the readers start is the scheduler's.
                let budget = Date().addingTimeInterval(2)
                let deadline = Date().addingTimeInterval(testDeadline)
                var round = 0
                while Date() < deadline, read.value == 0 || (round < 20_000 && Date() < budget) {
                    round += 1
                    let store = DependencyStore()
                    store.provide(RequestUser(name: "first-\(round)"))
                    current.set((round, store))
                    let giveUp = Date().addingTimeInterval(0.000_1)
                    while taken.value < round, Date() < giveUp {}
                    store.provide(RequestUser(name: "second-\(round)"))
                    store.provide(RequestID(value: "other-\(round)"))
                }
                writerDone.increment()
                return
            }
            // Until the writer is done: the readers overlap every one of its rounds.
            while writerDone.value == 0 {
                guard let (round, store) = current.value else { continue }
                let handler = store.execute { Handler() }
                taken.update { $0 = max($0, round) }
                let name = handler.user.name
                read.increment()
                if !name.hasPrefix("first-") && !name.hasPrefix("second-") { wrong.increment() }
            }
        }
        #expect(wrong.value == 0)
        #expect(read.value > 0, "the readers ran while the values came and went")
    }

    @Test func aValueWiderThanFiveWordsOrOveralignedSurvivesTheBox() {
        struct Wide: Equatable {
            let a: Int, b: Int, c: Int, d: Int, e: String
        }
        let store = DependencyStore()
        let wide = Wide(a: 1, b: 2, c: 3, d: 4, e: String(repeating: "x", count: 40))
        store.provide(wide)
        store.provide(SIMD4<Double>(1, 2, 3, 4))
        #expect(store.resolve(Wide.self) == wide)
        #expect(store.resolve(SIMD4<Double>.self) == SIMD4<Double>(1, 2, 3, 4))
    }
}
