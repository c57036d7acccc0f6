import DependencyStore
import Foundation
import Testing

/// Seed 004's screen: built with a window and a date known only at the call site.
protocol Window: AnyObject {
    var title: String { get }
}

final class MainWindow: Window {
    let title = "main"
}

final class Screen2 {
    let window: Window?
    let date: Date
    let greeting: Greeting
    init(window: Window?, date: Date, greeting: Greeting) {
        self.window = window
        self.date = date
        self.greeting = greeting
    }
}

@Suite struct ArgumentTests {
    @Test func oneArgument() {
        let store = DependencyStore()
        store.register(Greeting.self) { (_, name: String) in FixedGreeting("Hello, \(name)") }

        #expect(store.resolve(Greeting.self, arguments: "Ada").text == "Hello, Ada")
    }

    @Test func twoArgumentsAndTheStore() {
        let store = DependencyStore()
        store.register(FixedGreeting("Hi"), for: Greeting.self)
        store.register(Screen2.self) { (store, window: Window?, date: Date) in
            Screen2(window: window, date: date, greeting: store.resolve())
        }
        let date = Date(timeIntervalSince1970: 0)

        let screen = store.resolve(Screen2.self, arguments: MainWindow(), date)

        #expect(screen.window?.title == "main", "a MainWindow is accepted for a Window?")
        #expect(screen.date == date)
        #expect(screen.greeting.text == "Hi")
        #expect(store.resolve(Screen2.self, arguments: nil as Window?, date).window == nil)
    }

    @Test func threeArgumentsWithANameAndAScope() {
        let store = DependencyStore()
        store.register(Greeting.self, name: "full", scope: .singleton) { (_, first: String, last: String, age: Int) in
            FixedGreeting("\(first) \(last), \(age)")
        }

        let greeting = store.resolve(Greeting.self, name: "full", arguments: "Ada", "Lovelace", 36)

        #expect(greeting.text == "Ada Lovelace, 36")
        #expect(
            store.resolve(Greeting.self, name: "full", arguments: "Alan", "Turing", 41).text == greeting.text,
            "a cached scope keeps what the first resolve's arguments built"
        )
    }

    @Test func fourToNineArgumentsReachTheFactoryInOrder() {
        let store = DependencyStore()
        store.register(Greeting.self, name: "4") { (_, a: String, b: Int, c: Double, d: Bool) in
            FixedGreeting("\(a) \(b) \(c) \(d)")
        }
        store.register(Greeting.self, name: "5", scope: .singleton) { (_, a: Int, b: Int, c: Int, d: Int, e: String) in
            FixedGreeting("\(a + b + c + d) \(e)")
        }
        store.register(Greeting.self, name: "9") {
            (store, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Window?) in
            FixedGreeting(
                "\([a, b, c, d, e, f, g, h].map(String.init).joined()) \(i == nil) \(store.resolve(Clock.self).now)")
        }
        store.register(FixedClock(7), for: Clock.self)

        #expect(store.resolve(Greeting.self, name: "4", arguments: "a", 2, 3.5, true).text == "a 2 3.5 true")
        #expect(store.resolve(Greeting.self, name: "5", arguments: 1, 2, 3, 4, "x").text == "10 x")
        #expect(store.resolve(Greeting.self, name: "5", arguments: 9, 9, 9, 9, "y").text == "10 x", "kept by its scope")
        #expect(
            store.resolve(Greeting.self, name: "9", arguments: 1, 2, 3, 4, 5, 6, 7, 8, nil as Window?).text
                == "12345678 true 7")
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func sixArgumentsOfTheWrongTypesTrapWithExpectedAndGiven() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(Greeting.self) { (_, a: String, b: Int, c: Int, d: Int, e: Int, f: Int) in
                    FixedGreeting(a)
                }
                _ = store.resolve(Greeting.self, arguments: "x", 1, 2, 3, 4, "5")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "wrong arguments for 'DependencyStoreTests.Greeting': expected (Swift.String, Swift.Int, Swift.Int, Swift.Int, Swift.Int, Swift.Int), "
                    + "given (Swift.String, Swift.Int, Swift.Int, Swift.Int, Swift.Int, Swift.String)."
            ))
        #expect(stderr.contains("resolve(Greeting.self, arguments: <String>, <Int>, <Int>, <Int>, <Int>, <Int>)"))
    }

    @Test func argumentsOfTheWrongTypesTrapWithExpectedAndGiven() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(Greeting.self) { (_, name: String, times: Int) in FixedGreeting(name) }
                _ = store.resolve(Greeting.self, arguments: 3, "Ada")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "wrong arguments for 'DependencyStoreTests.Greeting': expected (Swift.String, Swift.Int), given (Swift.Int, Swift.String)."
            ))
        #expect(stderr.contains("Registered at: DependencyStoreTests/ArgumentTests.swift:"))
        #expect(stderr.contains("Requested by: resolve at DependencyStoreTests/ArgumentTests.swift:"))
        #expect(stderr.contains("resolve(Greeting.self, arguments: <String>, <Int>)"))
    }

    @Test func aWrongArgumentCountTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(Greeting.self) { (_, name: String) in FixedGreeting(name) }
                _ = store.resolve(Greeting.self, arguments: "Ada", 2)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("expected (Swift.String), given (Swift.String, Swift.Int)."))
    }

    @Test func resolvingWithoutTheArgumentsTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(Greeting.self) { (_, name: String) in FixedGreeting(name) }
                _ = store.resolve(Greeting.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("expected (Swift.String), given no arguments."))
        #expect(stderr.contains("An @Injected property cannot pass arguments"))
    }

    @Test func passingArgumentsToAFactoryThatTakesNoneTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(FixedGreeting("Hi"), for: Greeting.self)
                _ = store.resolve(Greeting.self, arguments: "Ada")
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("expected no arguments, given (Swift.String)."))
    }
    #endif

    @Test func tryResolveReportsAMissingArgumentAsAnError() {
        let store = DependencyStore()
        store.register(Greeting.self) { (_, name: String) in FixedGreeting(name) }

        #expect {
            _ = try store.tryResolve(Greeting.self)
        } throws: { error in
            (error as? ResolutionError)?.kind == .wrongArguments
        }
    }
}
