import DependencyStore
import Foundation
import Testing

private final class Parent {
    var child: Child?
}

private final class Child {
    weak var parent: Parent?
}

private final class Numbered: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// Wraps a greeting, to see the order decorators ran in.
final class LoudGreeting: Greeting {
    let text: String
    init(_ inner: Greeting, mark: String) { text = inner.text + mark }
}

struct DecoratorTests {
    @Test func aDecoratorFinishesEveryInstanceBeforeAnyoneSeesIt() {
        let store = DependencyStore()
        store.register(Parent.self, scope: .singleton) { _ in Parent() }
        store.register(Child.self) { _ in Child() }
        let decorated = Counter()
        store.decorate(Parent.self) { store, parent in
            decorated.increment()
            let child = store.resolve(Child.self)
            child.parent = parent
            parent.child = child
            return parent
        }

        let parent = store.resolve(Parent.self)

        #expect(parent.child?.parent === parent, "the back-reference is set once both exist")
        #expect(store.resolve(Parent.self) === parent)
        #expect(decorated.value == 1, "a kept instance is decorated once")
    }

    @Test func decoratorsWrapInTheOrderAddedParentsFirst() {
        let parent = DependencyStore()
        parent.register(Greeting.self) { _ in FixedGreeting("hi") }
        parent.decorate(Greeting.self) { _, greeting in LoudGreeting(greeting, mark: "!") }
        let child = DependencyStore(parent: parent)
        child.decorate(Greeting.self) { _, greeting in LoudGreeting(greeting, mark: "?") }
        child.decorate(Greeting.self) { _, greeting in LoudGreeting(greeting, mark: "#") }

        #expect(parent.resolve(Greeting.self).text == "hi!")
        #expect(child.resolve(Greeting.self).text == "hi!?#")
    }

    @Test func aDecoratorForOneNameLeavesTheOthersAndEveryCoversAll() {
        let store = DependencyStore()
        store.register(Greeting.self) { _ in FixedGreeting("plain") }
        store.register(Greeting.self, name: "formal") { _ in FixedGreeting("formal") }
        store.contribute(FixedGreeting("element"), to: Greeting.self)
        store.decorate(Greeting.self, name: "formal") { _, greeting in LoudGreeting(greeting, mark: ".") }
        store.decorate(every: Greeting.self) { _, greeting in LoudGreeting(greeting, mark: "*") }

        #expect(store.resolve(Greeting.self).text == "plain*")
        #expect(store.resolve(Greeting.self, name: "formal").text == "formal.*")
        #expect(store.resolveAll(Greeting.self).map(\.text) == ["element*"])
    }

    @Test func aGraphSharesTheDecoratedInstance() {
        let store = DependencyStore()
        store.register(Session.self, scope: .graph) { _ in Session(1) }
        store.decorate(Session.self) { _, _ in Session(2) }
        store.register(SessionPair.self) { store in SessionPair(first: store.resolve(), second: store.resolve()) }
        let pair = store.resolve(SessionPair.self)
        #expect(pair.first === pair.second)
        #expect(pair.first.number == 2)
    }

    @Test func aForwardIsNotDecoratedAgain() {
        let store = DependencyStore()
        store.register(SessionStore.self, scope: .singleton) { _ in SessionStore() }
        store.forward(TokenProviding.self, to: SessionStore.self)
        let runs = Counter()
        store.decorate(every: TokenProviding.self) { _, value in
            runs.increment()
            return value
        }
        _ = store.resolve(TokenProviding.self)
        #expect(runs.value == 0, "decorate the target type instead")
    }

    @Test func aDecoratorAddedLaterReachesAChildMadeEarlier() {
        let parent = DependencyStore()
        parent.register(Greeting.self) { _ in FixedGreeting("hi") }
        let child = DependencyStore(parent: parent)
        #expect(child.resolve(Greeting.self).text == "hi")
        parent.decorate(Greeting.self) { _, greeting in LoudGreeting(greeting, mark: "!") }
        #expect(child.resolve(Greeting.self).text == "hi!")
    }

    @Test func aDecoratorThatResolvesWhatItDecoratesIsACycle() {
        let store = DependencyStore()
        store.register(Parent.self, scope: .singleton) { _ in Parent() }
        store.register(Child.self) { store in
            let child = Child()
            child.parent = store.resolve(Parent.self)
            return child
        }
        store.decorate(Parent.self) { store, parent in
            parent.child = store.resolve(Child.self)
            return parent
        }
        let report = store.verify()
        let cycle = report.problems.first { $0.kind == .cycle }
        #expect(cycle?.path.map(\.type).sorted() == ["Child", "Child", "Parent"], "\(report)")
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aCycleClosedInADecoratorNamesTheDecorator() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(Session.self, scope: .singleton) { _ in Session() }
                store.decorate(Session.self) { store, session in
                    _ = store.resolve(Session.self)
                    return session
                }
                _ = store.resolve(Session.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle: DependencyStoreTests.Session -> DependencyStoreTests.Session"))
        #expect(
            stderr.contains("The chain runs through the decorator added at DependencyStoreTests/DecoratorTests.swift:"))
        #expect(stderr.contains("To fix: let the decorator resolve only what does not need the instance it decorates"))
    }
    #endif

    @Test func asyncFactoriesAreDecoratedToo() async throws {
        let store = DependencyStore()
        store.register(Numbered.self, scope: .singleton) { _ async throws in Numbered(1) }
        store.decorate(Numbered.self) { _, _ in Numbered(7) }
        let numbered = try await store.resolveAsync(Numbered.self)
        #expect(numbered.number == 7)
    }

    @Test(.onThreadsOfItsOwn) func aChildMadeWhileItsParentGetsADecoratorRunsIt() {
        // A store counts the decorators in scope so that a build skips the lookup while there are
        // none. A child copies its parent's count when it is made, and adding a decorator bumps
        // every child's: a child made at the same moment must end up counted once, or its builds
        // would skip the decorator for good.
        let rounds = 300
        let parents = (0..<rounds).map { _ in
            let parent = DependencyStore()
            parent.register(Greeting.self) { _ in FixedGreeting("x") }
            return parent
        }
        let children = Recorded<[DependencyStore]>([])
        onManyThreads(threads: 4, rounds: rounds) { round, thread in
            if thread == 0 {
                parents[round].decorate(Greeting.self) { _, greeting in LoudGreeting(greeting, mark: "!") }
            } else {
                let child = DependencyStore(parent: parents[round])
                children.update { $0.append(child) }
            }
        }
        let texts = children.value.map { $0.resolve(Greeting.self).text }
        #expect(texts.count == 3 * rounds)
        #expect(texts.allSatisfy { $0 == "x!" }, "\(texts.filter { $0 != "x!" }.count) children skipped it")
    }

    @Test(.onThreadsOfItsOwn) func decoratorsRunOnManyThreadsAtOnce() {
        let store = DependencyStore()
        store.register(Greeting.self) { _ in FixedGreeting("hi") }
        store.decorate(Greeting.self) { _, greeting in
            var spin = 0
            for step in 0..<5_000 { spin &+= step }
            return LoudGreeting(greeting, mark: spin == 0 ? "" : "!")
        }
        let wrong = Counter()
        onManyThreads(threads: 8, rounds: 20) { _, _ in
            if store.resolve(Greeting.self).text != "hi!" { wrong.increment() }
        }
        #expect(wrong.value == 0)
    }
}
