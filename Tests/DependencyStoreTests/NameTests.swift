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

/// Names made at run time (their text lives on the heap), for properties whose values are wider
/// than a few words or aligned beyond them: a property keeps its name after its value's room.
enum RuntimeNames {
    static let wide = String(repeating: "wide-", count: 8)
    static let aligned = String(repeating: "aligned-", count: 8)
    static let absent = String(repeating: "absent-", count: 8)
}

struct NineWords: Equatable {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int)
    static func == (lhs: NineWords, rhs: NineWords) -> Bool {
        withUnsafeBytes(of: lhs.words) { left in withUnsafeBytes(of: rhs.words) { left.elementsEqual($0) } }
    }
}

final class NamedWideValues {
    @Injected(name: RuntimeNames.wide) var wide: NineWords
    @Injected(name: RuntimeNames.aligned) var aligned: SIMD4<Double>
    @OptionalInjected(name: RuntimeNames.absent) var absent: NineWords?
}

extension NameTests {
    @Test func namedPropertiesOfWideAndAlignedValuesResolveByTheirNames() {
        let store = DependencyStore()
        let nine = NineWords(words: (1, 2, 3, 4, 5, 6, 7, 8, 9))
        store.register(nine, for: NineWords.self, name: RuntimeNames.wide)
        store.register(NineWords(words: (0, 0, 0, 0, 0, 0, 0, 0, 0)), for: NineWords.self)
        store.register(SIMD4<Double>(1, 2, 3, 4), for: SIMD4<Double>.self, name: RuntimeNames.aligned)
        store.register(SIMD4<Double>(0, 0, 0, 0), for: SIMD4<Double>.self)

        let values = store.execute { NamedWideValues() }

        #expect(values.wide == nine)
        #expect(values.aligned == SIMD4<Double>(1, 2, 3, 4))
        #expect(values.absent == nil)
        // Read again: the published values, which the names sit after, are whole.
        #expect(values.wide == nine)
        #expect(values.aligned == SIMD4<Double>(1, 2, 3, 4))
    }
}
