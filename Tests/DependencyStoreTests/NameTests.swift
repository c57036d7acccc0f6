import DependencyStore
import Testing

/// Needs two greetings of one type, told apart by name.
final class Reception {
    @Injected(name: "formal") var formal: Greeting
    @Injected(name: "casual") var casual: Greeting
}

@Suite struct NameTests {
    @Test func namedRegistrationsOfOneTypeAreToldApart() {
        let store = DependencyStore()
        store.register(FixedGreeting("Good morning"), for: Greeting.self, name: "formal")
        store.register(FixedGreeting("Hi"), for: Greeting.self, name: "casual")
        store.register(FixedGreeting("Hello"), for: Greeting.self)

        #expect(store.resolve(Greeting.self, name: "formal").text == "Good morning")
        #expect(store.resolve(Greeting.self, name: "casual").text == "Hi")
        #expect(store.resolve(Greeting.self).text == "Hello")
        #expect(store.isRegistered(Greeting.self, name: "formal"))
        #expect(!store.isRegistered(Greeting.self, name: "rude"))
    }

    @Test func injectedTakesAName() {
        let store = DependencyStore()
        store.register(FixedGreeting("Good morning"), for: Greeting.self, name: "formal")
        store.register(FixedGreeting("Hi"), for: Greeting.self, name: "casual")

        let reception = store.execute { Reception() }

        #expect(reception.formal.text == "Good morning")
        #expect(reception.casual.text == "Hi")
    }

    @Test func aWrongNameListsTheNamesThatExist() throws {
        let store = DependencyStore()
        store.register(FixedGreeting("Good morning"), for: Greeting.self, name: "formal")
        store.register(FixedGreeting("Hi"), for: Greeting.self, name: "casual")
        store.register(FixedGreeting("Hello"), for: Greeting.self)

        let error = try #require(
            thrownError(ResolutionError.self) {
                try store.tryResolve(Greeting.self, name: "fromal")
            })

        #expect(error.kind == .notRegistered)
        #expect(error.typeName == "DependencyStoreTests.Greeting (named \"fromal\")")
        #expect(error.description.contains("no registration for 'DependencyStoreTests.Greeting (named \"fromal\")'"))
        #expect(error.description.contains("'Greeting' is registered under: \"casual\", \"formal\", no name"))
        #expect(error.description.contains("To fix: ask for one of the names above"))
        #expect(
            !error.description.contains("close to what was asked for"),
            "other names of the same type are not close matches")
    }

    @Test func oneNameOfATypeMayDependOnAnotherWithoutBeingACycle() {
        let store = DependencyStore()
        store.register(FixedGreeting("Hello"), for: Greeting.self, name: "plain")
        store.register(Greeting.self, name: "loud") { store in
            FixedGreeting(store.resolve(Greeting.self, name: "plain").text.uppercased())
        }

        #expect(store.resolve(Greeting.self, name: "loud").text == "HELLO")
    }

    @Test func aNamedCycleNamesTheNamesInTheChain() {
        let store = DependencyStore()
        let chain = Recorded<[String]>([])
        store.register(Greeting.self, name: "a") { store in store.resolve(Greeting.self, name: "b") }
        store.register(Greeting.self, name: "b") { store in
            // tryResolve, so the cycle is an error this test can read instead of a trap.
            do throws(ResolutionError) {
                return try store.tryResolve(Greeting.self, name: "a")
            } catch {
                chain.set(error.chain)
                return FixedGreeting("cycle")
            }
        }

        #expect(store.resolve(Greeting.self, name: "a").text == "cycle")
        #expect(
            chain.value == [
                "DependencyStoreTests.Greeting (named \"a\")",
                "DependencyStoreTests.Greeting (named \"b\")",
                "DependencyStoreTests.Greeting (named \"a\")",
            ])
    }
}
