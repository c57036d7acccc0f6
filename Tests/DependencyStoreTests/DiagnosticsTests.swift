import DependencyStore
import Testing

/// The trap messages, checked in a child process (exit tests), and the close-match hints, checked
/// through `tryResolve`, which carries the same text.
@Suite struct DiagnosticsTests {
    // Exit tests need Swift 6.2 (Xcode 26) and a child process, which Swift Testing offers on
    // macOS, Linux and Windows only.
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func missingRegistrationTrapNamesTypeCallerStoreAndFix() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                _ = store.resolve(Greeting.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("no registration for 'DependencyStoreTests.Greeting'"))
        #expect(stderr.contains("Requested by: resolve at DependencyStoreTests/DiagnosticsTests.swift:"))
        #expect(stderr.contains("Store: the store created at DependencyStoreTests/DiagnosticsTests.swift:"))
        #expect(stderr.contains("(0 registrations)"))
        #expect(stderr.contains("To fix: register 'Greeting' in this store"))
    }

    @Test func missingRegistrationThroughInjectedNamesThePropertyDeclaration() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let screen = DependencyStore().execute { Screen() }
                _ = screen.greeting
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        // Screen's @Injected greeting is declared in Fixtures.swift, line 39.
        #expect(
            stderr.contains(
                "Requested by: the @Injected property declared at DependencyStoreTests/Fixtures.swift:39, on its first read"
            ))
        #expect(stderr.contains("DependencyStoreTests/Fixtures.swift:39: Fatal error"))
    }

    @Test func missingRegistrationInTheRootStoreSaysSoAndSuggestsRegisterAll() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = DependencyStore.shared.resolve(Clock.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("Store: the root store"))
        #expect(stderr.contains("for example in registerAll()"))
        #expect(stderr.contains("register(LiveClock(), for: Clock.self)"))
    }

    @Test func cycleTrapsWithTheWholeChainInsteadOfOverflowingTheStack() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(Greeting.self) { store in
                    _ = store.resolve(Clock.self)
                    return FixedGreeting("")
                }
                store.register(Clock.self) { store in
                    _ = store.resolve(Banner.self)
                    return FixedClock(0)
                }
                store.register(Banner.self) { store in
                    Banner(greeting: store.resolve(), clock: FixedClock(0))
                }
                _ = store.resolve(Greeting.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "dependency cycle: DependencyStoreTests.Greeting -> DependencyStoreTests.Clock -> DependencyStoreTests.Banner -> DependencyStoreTests.Greeting"
            ))
        #expect(stderr.contains("To fix: break the cycle"))
    }

    @Test func anInjectedPropertyReadDuringItsOwnResolutionTrapsAsACycleInsteadOfDeadlocking() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                let screen = store.execute { Screen() }
                // The Greeting factory reads the very property that is resolving it.
                store.register(Greeting.self) { _ in FixedGreeting(screen.greeting.text) }
                _ = screen.greeting
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle: DependencyStoreTests.Greeting -> DependencyStoreTests.Greeting"))
    }

    @Test func resettingAScopeThatKeepsNothingTrapsAndSaysWhichScopesCanBeReset() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                DependencyStore().reset(.graph)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("DependencyStore: reset(.graph) has nothing to discard."))
        #expect(stderr.contains("Called at: DependencyStoreTests/DiagnosticsTests.swift:"))
        #expect(stderr.contains("To fix: reset .singleton or a custom scope"))
    }

    @Test func aMissingNamedRegistrationInjectedTrapsWithTheNameAndTheProperty() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.register(FixedGreeting("Hi"), for: Greeting.self, name: "casual")
                _ = store.execute { Reception() }.formal
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("no registration for 'DependencyStoreTests.Greeting (named \"formal\")'"))
        #expect(stderr.contains("the @Injected property declared at DependencyStoreTests/NameTests.swift:6"))
        #expect(stderr.contains("'Greeting' is registered under: \"casual\""))
    }
    #endif

    private final class PrivateToken {}

    /// A private type's context is named by its address at run time; the message leaves it out.
    @Test func aPrivateTypeIsNamedWithoutTheAddressOfItsContext() throws {
        let store = DependencyStore()
        let error = try #require(thrownError(ResolutionError.self) { try store.tryResolve(PrivateToken.self) })

        #expect(!error.description.contains("unknown context"), "\(error)")
        #expect(error.description.contains("'DependencyStoreTests.DiagnosticsTests.PrivateToken'"), "\(error)")
    }

    @Test func closeMatchesPointAtTheConcreteTypeRegisteredInsteadOfItsProtocol() throws {
        let store = DependencyStore()
        store.register(LiveGreetingService(), for: LiveGreetingService.self)

        let error = try #require(
            thrownError(ResolutionError.self) { try store.tryResolve(GreetingServiceType.self) })

        #expect(
            error.description.contains(
                "'DependencyStoreTests.LiveGreetingService' (registered at DependencyStoreTests/DiagnosticsTests.swift:"
            ))
        #expect(error.description.contains("has a similar name"))
        #expect(error.description.contains("register it with 'for: GreetingServiceType.self'"))
    }

    /// Asking for `Clock?` is no mistake (it finds the `Clock`); asking for `Greeting` when only
    /// `Greeting?` is registered is, and the message says why.
    @Test func closeMatchesExplainAnOptionalRegisteredForItsWrappedType() throws {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)
        store.register(nil, for: Greeting?.self)

        #expect(try store.tryResolve(Clock?.self)?.now == 1)
        let askedPlain = try #require(thrownError(ResolutionError.self) { try store.tryResolve(Greeting.self) })

        #expect(askedPlain.description.contains("'Swift.Optional<DependencyStoreTests.Greeting>'"))
        #expect(askedPlain.description.contains("an Optional is a different type from what it wraps"))
    }

    @Test func closeMatchesNameTheSameTypeNameFromAnotherNamespace() throws {
        let store = DependencyStore()
        store.register(Elsewhere.Greeting(), for: Elsewhere.Greeting.self)

        let error = try #require(thrownError(ResolutionError.self) { try store.tryResolve(Greeting.self) })

        #expect(error.description.contains("'DependencyStoreTests.Elsewhere.Greeting'"))
        #expect(error.description.contains("has the same name but is a different type"))
    }

    @Test func unrelatedRegistrationsAreNotSuggested() throws {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)

        let error = try #require(thrownError(ResolutionError.self) { try store.tryResolve(Greeting.self) })

        #expect(!error.description.contains("close to what was asked for"))
        #expect(!error.description.contains("Clock'"))
    }
}

protocol GreetingServiceType {}
struct LiveGreetingService: GreetingServiceType {}

enum Elsewhere {
    struct Greeting {}
}
