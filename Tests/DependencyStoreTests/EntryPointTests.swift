import DependencyStore
import DependencyStoreTesting
import Testing

/// A view model a view makes itself (`@StateObject private var model = WeatherScreenModel()`):
/// nothing resolves it, so only an entry point gets it checked.
@MainActor final class WeatherScreenModel {
    @Injected var greeting: Greeting
    @Injected var clock: Clock
}

/// Types the app creates itself, named to verify as entry points: created as the app creates them,
/// with every `@Injected` property they declare checked.
@Suite struct EntryPointTests {
    /// The newcomer's case: the view model's `Clock` is registered nowhere, and a check that does
    /// not know the view model exists passes.
    @Test func aMainActorViewModelTheAppCreatesIsCheckedByItsEntryPoint() async {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        #expect(await store.verifyAsync(timeout: poolDeadline).isClean, "not named: not checked")

        let line = #line + 2
        let report = await store.verifyAsync(
            entryPoints: [EntryPoint(WeatherScreenModel.self, on: MainActor.self) { WeatherScreenModel() }],
            timeout: poolDeadline)
        let missing = report.problems.map(\.description).filter { $0.contains("missing: WeatherScreenModel -> Clock") }
        #expect(missing.count == 1, "\(report)")
        #expect(missing.first?.contains("EntryPointTests.swift:9") == true, "names the property: \(report)")
        let node = report.graph.nodes.first { $0.type == "WeatherScreenModel" }
        #expect(node?.registeredAt?.hasSuffix("EntryPointTests.swift:\(line)") == true, "where it was named")

        store.register(FixedClock(1), for: Clock.self)
        let fixed = await store.verifyAsync(
            entryPoints: [EntryPoint(WeatherScreenModel.self, on: MainActor.self) { WeatherScreenModel() }],
            timeout: poolDeadline)
        #expect(fixed.isClean, "\(fixed)")
    }

    @Test func theAsyncAssertionFailsOnWhatAnEntryPointMisses() async {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        await withKnownIssue {
            await expectVerifiedAsync(
                store, entryPoints: [EntryPoint(WeatherScreenModel.self, on: MainActor.self) { WeatherScreenModel() }],
                timeout: poolDeadline)
        } matching: { issue in
            "\(issue)".contains("missing: WeatherScreenModel -> Clock")
        }
    }

    /// The synchronous form cannot create a main-actor type: it fails naming the async form.
    @Test func theSynchronousAssertionFailsOnAMainActorEntryPointNamingTheAsyncForm() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        store.register(FixedClock(1), for: Clock.self)
        withKnownIssue {
            expectVerified(
                store, entryPoints: [EntryPoint(WeatherScreenModel.self, on: MainActor.self) { WeatherScreenModel() }])
        } matching: { issue in
            "\(issue)".contains("was not fully checked: WeatherScreenModel")
                && "\(issue)".contains("await expectVerifiedAsync(store)")
        }
    }

    @Test func aTypeCreatedOffTheMainActorIsCheckedByTheSynchronousForm() {
        let store = DependencyStore()
        let report = store.verify(entryPoints: [EntryPoint(Screen.self) { Screen() }])
        #expect(report.problems.map(\.description).contains { $0.contains("missing: Screen -> Greeting") }, "\(report)")
        store.register(FixedGreeting("hi"), for: Greeting.self)
        #expect(store.verify(entryPoints: [EntryPoint(Screen.self) { Screen() }]).isClean)
    }

    /// A type the store registers is checked through its registration: the entry point is not used.
    @Test func aRegisteredTypeIsCheckedThroughItsRegistration() {
        let store = DependencyStore()
        store.register(FixedGreeting("registered"), for: Greeting.self)
        store.register(Screen.self) { _ in Screen() }
        let created = Counter()
        let report = store.verify(
            entryPoints: [
                EntryPoint(Screen.self) {
                    created.increment()
                    return Screen()
                }
            ])
        #expect(report.isClean, "\(report)")
        #expect(created.value == 0)
    }

    /// The store itself learns nothing: an entry point registers only in verification's copy.
    @Test func anEntryPointLeavesTheStoreAsItWas() {
        let store = DependencyStore()
        store.register(FixedGreeting("hi"), for: Greeting.self)
        _ = store.verify(entryPoints: [EntryPoint(Screen.self) { Screen() }])
        #expect(throws: ResolutionError.self) { try store.tryResolve(Screen.self) }
    }
}
