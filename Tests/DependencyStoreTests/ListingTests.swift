import DependencyStore
import Testing

@Suite struct ListingTests {
    @Test func aStoreListsWhatItResolvesWithScopesArgumentsPlacesKeptInstancesAndOrigins() {
        // Each `…Line` is the line of the statement after it.
        let parentLine = #line + 1
        let parent = DependencyStore()
        let sessionLine = #line + 1
        parent.register(Session.self, scope: .singleton) { _ in Session() }
        let greetingLine = #line + 1
        parent.register(Greeting.self, name: "formal") { (_, a: String, b: Int) in FixedGreeting(a) }
        let hiddenClockLine = #line + 1
        parent.register(FixedClock(0), for: Clock.self)
        let childLine = #line + 1
        let child = DependencyStore(parent: parent)
        let clockLine = #line + 1
        child.register(FixedClock(1), for: Clock.self, scope: .singleton)
        _ = child.resolve(Clock.self)
        _ = child.resolve(Session.self)

        let file = "DependencyStoreTests/ListingTests.swift"
        let parentName = "the store created at \(file):\(parentLine)"
        #expect(
            child.debugDescription == """
                the store created at \(file):\(childLine) (over \(parentName)): 3 registrations
                - Clock, .singleton, registered at \(file):\(clockLine), instance kept
                - Greeting (named "formal"), .unique, arguments (String, Int), registered at \(file):\(greetingLine), from \(parentName)
                - Session, .singleton, registered at \(file):\(sessionLine), instance kept, from \(parentName)
                """)
        #expect(!child.debugDescription.contains(":\(hiddenClockLine)"), "the parent's Clock is overridden")

        let entries = child.registrations
        #expect(entries.map(\.type) == ["Clock", "Greeting", "Session"])
        #expect(entries[1].argumentTypes == ["String", "Int"])
        #expect(entries[1].inheritedFrom == parentName)
        #expect(entries.map(\.hasKeptInstance) == [true, false, true])
        #expect(
            parent.registrations.map(\.hasKeptInstance) == [false, false, false], "the child's instances are its own")
        #expect(
            child.description == "the store created at \(file):\(childLine) (over \(parentName))",
            "print(store) names it")
    }
}
