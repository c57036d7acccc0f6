import DependencyStore
import Foundation
import Testing

private struct CheckoutAssembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.require(Clock.self)
        store.require(Greeting.self, name: "receipt")
        store.register(Banner.self) { store in Banner(greeting: store.resolve(), clock: store.resolve()) }
    }
}

private struct LiveAssembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.register(FixedClock(1), for: Clock.self)
        store.register(FixedGreeting("hi"), for: Greeting.self)
    }
}

private struct MockAssembly: Assembly {
    func assemble(into store: DependencyStore) {
        store.register(FixedClock(2), for: Clock.self)
    }
}

struct RequirementTests {
    @Test func verifyListsUnmetRequirementsWithWhoDeclaredThem() {
        let store = DependencyStore()
        store.apply(CheckoutAssembly(), LiveAssembly())

        let report = store.verify()

        let unmet = report.problems.filter { $0.kind == .unmetRequirement }
        #expect(unmet.count == 1, "Clock is registered, Greeting \"receipt\" is not")
        #expect(
            unmet.first?.description.hasPrefix(
                "unmet requirement: Greeting (named \"receipt\") is required by CheckoutAssembly (at DependencyStoreTests/RequirementTests.swift:"
            ) == true, "\(report)")
        #expect(unmet.first?.path.first?.isRegistered == false)
    }

    @Test func aRequirementIsMetByAParentOrALaterRegistrationOrAContribution() {
        let parent = DependencyStore()
        parent.register(FixedClock(1), for: Clock.self)
        let store = DependencyStore(parent: parent)
        store.require(Clock.self)
        store.require([Plugin].self)
        store.require(Greeting.self)
        store.register(FixedGreeting("later"), for: Greeting.self)
        store.contribute(NamedPlugin("p"), to: Plugin.self)
        let report = store.verify()
        #expect(report.isClean, "\(report)")
    }

    @Test func anUnmetRequirementThatAFactoryAlsoNeedsIsReportedWithItsDeclarerAndItsPath() {
        let store = DependencyStore()
        store.require([Plugin].self)
        store.require(Clock.self)
        store.register(Greeting.self) { store in
            _ = store.resolve(Clock.self)
            return FixedGreeting("hi")
        }
        let report = store.verify()
        let unmet = report.problems.filter { $0.kind == .unmetRequirement }
        #expect(unmet.count == 2, "each requirement names who declared it: \(report)")
        #expect(
            unmet.first?.description.hasPrefix(
                "unmet requirement: [Plugin] is required by DependencyStoreTests/RequirementTests.swift:") == true)
        #expect(unmet.first?.description.contains("nothing contributes to it. Fix: contribute a Plugin to it") == true)
        #expect(
            unmet.last?.description.hasPrefix(
                "unmet requirement: Clock is required by DependencyStoreTests/RequirementTests.swift:") == true)
        // The factory that needs it is reported too, with the path.
        #expect(report.problems.contains { $0.kind == .missing && $0.path.map(\.type) == ["Greeting", "Clock"] })
    }

    @Test func theTrapOfAMissingRequiredTypeNamesTheRequirement() {
        let store = DependencyStore()
        store.apply(CheckoutAssembly())
        do {
            _ = try store.tryResolve(Clock.self)
            Issue.record("resolved")
        } catch {
            #expect(
                error.description.contains(
                    "Required by: CheckoutAssembly (at DependencyStoreTests/RequirementTests.swift:"))
        }
    }

    @Test func overridesAreListedWithBothPlacesAndBothAssemblies() {
        let store = DependencyStore()
        store.apply(LiveAssembly(), MockAssembly())
        store.register(FixedGreeting("a"), for: Greeting.self, name: "x")
        store.unregister(Greeting.self, name: "x")
        store.register(FixedGreeting("b"), for: Greeting.self, name: "x")  // after a removal: no override

        let report = store.verify()

        #expect(report.isClean, "listed, not a problem, by default")
        #expect(report.overrides.count == 1)
        let override = report.overrides.first
        #expect(override?.type == "Clock")
        #expect(override?.replacedAssembly == "LiveAssembly")
        #expect(override?.replacementAssembly == "MockAssembly")
        #expect(override?.replacedAt.hasPrefix("DependencyStoreTests/RequirementTests.swift:") == true)
        #expect(
            report.description.contains(
                "Replaced by a later registration of the same store (verify(overrides: .forbidden) makes each a problem):"
            ))
        #expect(report.description.contains("- Clock: registered at DependencyStoreTests/RequirementTests.swift:"))
    }

    @Test func theStrictRuleMakesEachOverrideAProblem() {
        let store = DependencyStore()
        store.apply(LiveAssembly(), MockAssembly())
        store.contribute(NamedPlugin("a"), to: Plugin.self, name: "p")
        store.contribute(NamedPlugin("b"), to: Plugin.self, name: "p")

        let report = store.verify(overrides: .forbidden)

        let problems = report.problems.filter { $0.kind == .override }
        #expect(problems.count == 2, "\(report)")
        #expect(problems.contains { $0.description.hasPrefix("override: Clock: registered at ") })
        #expect(problems.contains { $0.description.hasPrefix("override: [Plugin] element (named \"p\"): ") })
        #expect(!report.description.contains("Replaced by a later registration"), "each is listed once, as a problem")
    }

    /// The override of a named element names the place of the element it replaced (it named the
    /// replacement's twice).
    @Test func aReplacedNamedElementIsListedWithThePlaceOfTheOneItReplaced() {
        let store = DependencyStore()
        let first = #line + 1
        store.contribute(NamedPlugin("a"), to: Plugin.self, name: "p")
        let second = #line + 1
        store.contribute(NamedPlugin("b"), to: Plugin.self, name: "p")

        let override = store.verify().overrides.first
        #expect(override?.isContribution == true)
        #expect(override?.replacedAt == "DependencyStoreTests/RequirementTests.swift:\(first)")
        #expect(override?.replacementAt == "DependencyStoreTests/RequirementTests.swift:\(second)")
    }

    @Test func aChildOverridingItsParentIsNotAnOverride() {
        let parent = DependencyStore()
        parent.apply(LiveAssembly())
        let child = DependencyStore(parent: parent)
        child.register(FixedClock(3), for: Clock.self)
        let report = child.verify(overrides: .forbidden)
        #expect(report.isClean, "\(report)")
        #expect(report.overrides.isEmpty)
    }

    @Test func theSameReplacementRepeatedIsOneEntryWithACount() {
        let store = DependencyStore()
        for _ in 0..<3 {
            store.apply(LiveAssembly(), MockAssembly())
        }
        let clock = store.verify().overrides.filter { $0.type == "Clock" }
        // Live over Mock twice (the second and third apply), Mock over Live three times.
        #expect(clock.map(\.count).sorted() == [2, 3])
    }

    @Test func unloadTakesTheAssemblysRequirementsWithIt() {
        let store = DependencyStore()
        store.apply(CheckoutAssembly())
        #expect(!store.verify().isClean)
        store.unload(CheckoutAssembly.self)
        #expect(store.verify().isClean)
    }
}
