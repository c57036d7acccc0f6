import DependencyStore
import Testing

@Suite struct ListingTests {
    @Test func aStoreListsWhatItResolvesWithScopesArgumentsPlacesKeptInstancesAndOrigins() {
        let parent = DependencyStore(); let parentLine = #line
        parent.register(Session.self, scope: .singleton) { _ in Session() }; let sessionLine = #line
        parent.register(Greeting.self, name: "formal") { (_, a: String, b: Int) in FixedGreeting(a) }; let greetingLine = #line
        parent.register(FixedClock(0), for: Clock.self); let hiddenClockLine = #line
        let child = DependencyStore(parent: parent); let childLine = #line
        child.register(FixedClock(1), for: Clock.self, scope: .singleton); let clockLine = #line
        _ = child.resolve(Clock.self)
        _ = child.resolve(Session.self)

        let file = "DependencyStoreTests/ListingTests.swift"
        let parentName = "the store created at \(file):\(parentLine)"
        #expect(child.debugDescription == """
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
        #expect(parent.registrations.map(\.hasKeptInstance) == [false, false, false], "the child's instances are its own")
        #expect(child.description == "the store created at \(file):\(childLine) (over \(parentName))", "print(store) names it")
    }
}
