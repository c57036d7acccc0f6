import DependencyStore
import Foundation
import Testing

// Back-references closed by a completion step (`complete`), as Swinject apps close them with
// `initCompleted`: a parent builds a child, and the child's step sets its weak `parent` by
// resolving the parent, which the same resolve is building.

private final class Parent: @unchecked Sendable {
    let child: Child
    init(child: Child) { self.child = child }
}

private final class Child: @unchecked Sendable {
    weak var parent: Parent?
}

private func registerFamily(
    in store: DependencyStore, parent: Scope, child: Scope, parents: Counter? = nil, children: Counter? = nil
) {
    store.register(Parent.self, scope: parent) { store in
        parents?.increment()
        spin(microseconds: 200)
        return Parent(child: store.resolve())
    }
    store.register(Child.self, scope: child) { _ in
        children?.increment()
        spin(microseconds: 200)
        return Child()
    }
    store.complete(Child.self) { store, child in
        child.parent = store.resolve(Parent.self)
    }
}

@Suite struct BackReferenceTests {
    @Test(arguments: [Scope.graph, .singleton])
    func aChildsCompletionStepGetsTheParentBeingBuilt(scope: Scope) {
        let store = DependencyStore()
        let parents = Counter()
        registerFamily(in: store, parent: scope, child: .graph, parents: parents)
        let parent = store.resolve(Parent.self)
        #expect(parent.child.parent === parent)
        #expect(parents.value == 1, "the step got the parent being built, not a second one")
    }

    @Test func stepsRunChildFirstAndOnlyAfterTheOutermostFactoryReturned() {
        let store = DependencyStore()
        let events = Recorded<[String]>([])
        store.register(Parent.self, scope: .graph) { store in
            let child: Child = store.resolve()
            events.update { $0.append("parent factory returns") }
            return Parent(child: child)
        }
        store.register(Child.self, scope: .graph) { _ in Child() }
        store.complete(Child.self) { _, _ in events.update { $0.append("child step") } }
        store.complete(Parent.self) { _, _ in events.update { $0.append("parent step") } }
        _ = store.resolve(Parent.self)
        #expect(events.value == ["parent factory returns", "child step", "parent step"])
    }

    @Test(.onThreadsOfItsOwn) func aParentAndChildResolvedFromEightThreadsAreBuiltOnceAndSeenComplete() {
        let store = DependencyStore()
        let parents = Counter()
        let children = Counter()
        registerFamily(in: store, parent: .singleton, child: .singleton, parents: parents, children: children)
        let seen = Recorded<[ObjectIdentifier]>([])
        let incomplete = Counter()
        onManyThreads(threads: 8) { _, _ in
            let parent = store.resolve(Parent.self)
            // Checked at once: no thread may get the parent before its child's step ran.
            if parent.child.parent !== parent { incomplete.increment() }
            seen.update { $0.append(ObjectIdentifier(parent)) }
        }
        #expect(incomplete.value == 0)
        #expect(Set(seen.value).count == 1)
        #expect(parents.value == 1)
        #expect(children.value == 1)
    }

    @Test func whatTheResolveBuiltIsFreedWithItsLastReference() {
        let store = DependencyStore()
        registerFamily(in: store, parent: .graph, child: .graph)
        weak var parent: Parent?
        weak var child: Child?
        do {
            let built = store.resolve(Parent.self)
            parent = built
            child = built.child
            #expect(child?.parent === built)
        }
        #expect(parent == nil)
        #expect(child == nil)
    }

    @Test func verifyRunsTheStepsAndFindsNothingWrong() {
        let store = DependencyStore()
        registerFamily(in: store, parent: .singleton, child: .graph)
        let report = store.verify()
        #expect(report.isClean, "\(report)")
    }

    @Test func anObservedStoreCompletesToo() {
        let store = DependencyStore()
        registerFamily(in: store, parent: .graph, child: .graph)
        let reports = Counter()
        let observation = store.observeResolves { _ in reports.increment() }
        let parent = store.resolve(Parent.self)
        #expect(parent.child.parent === parent)
        #expect(reports.value >= 2)
        withExtendedLifetime(observation) {}
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aUniqueParentResolvedFromAChildsStepIsACycleWithTheChain() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                registerFamily(in: store, parent: .unique, child: .graph)
                _ = store.resolve(Parent.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle: "))
        #expect(stderr.contains("Parent -> "))
        #expect(stderr.contains("Child -> "))
        #expect(stderr.contains("is .unique: a resolve builds a new one"))
        #expect(stderr.contains("To fix: give 'Parent' a scope that keeps its instance"))
    }
    #endif
}

/// What the review of completion steps found: nested `.unique` parents, forwards, and verify().
private final class Root: @unchecked Sendable {
    let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

@Suite struct BackReferenceEdgeTests {
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aNestedUniqueParentResolvedFromAStepIsACycleNotASecondParent() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Root.self) { store in Root(parent: store.resolve()) }
                registerFamily(in: store, parent: .unique, child: .graph)
                _ = store.resolve(Root.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("is .unique: a resolve builds a new one"))
        #expect(stderr.contains("Root -> "))
    }
    #endif

    @Test func aUniqueDependencyOffTheChainIsBuiltAnewNotACycle() {
        let store = DependencyStore()
        let logs = Counter()
        store.register(Clock.self) { _ in
            logs.increment()
            return FixedClock(logs.value)
        }
        store.register(Parent.self, scope: .graph) { store in
            _ = store.resolve(Clock.self)
            return Parent(child: store.resolve())
        }
        store.register(Child.self, scope: .graph) { _ in Child() }
        store.complete(Child.self) { store, child in
            _ = store.resolve(Clock.self)  // .unique, but not what built the child
            child.parent = store.resolve(Parent.self)
        }
        let parent = store.resolve(Parent.self)
        #expect(parent.child.parent === parent)
        #expect(logs.value == 2)
    }

    @Test func aStepResolvingAParentThroughAForwardGetsTheParentBeingBuilt() {
        let store = DependencyStore()
        registerFamily(in: store, parent: .singleton, child: .graph)
        store.forward(AnyObject.self, to: Parent.self)
        let forwarded = Recorded<[ObjectIdentifier]>([])
        store.complete(Child.self) { store, _ in
            let viaForward: AnyObject = store.resolve(AnyObject.self)
            forwarded.update { $0.append(ObjectIdentifier(viaForward)) }
        }
        let parent = store.resolve(AnyObject.self) as! Parent
        #expect(parent.child.parent === parent)
        #expect(forwarded.value == [ObjectIdentifier(parent)], "the forward gets the parent being built")
    }

    @Test func verifyReportsTheCycleOfAUniqueParentInsteadOfCrashing() {
        let store = DependencyStore()
        registerFamily(in: store, parent: .unique, child: .graph)
        let report = store.verify()
        #expect(report.problems.contains { $0.kind == .cycle }, "\(report)")
    }
}
