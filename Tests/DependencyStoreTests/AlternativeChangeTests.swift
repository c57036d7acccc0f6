import Foundation
import Testing

@testable import DependencyStore

// What a Factory user does with alternatives in a test's setup: give `on` again for a context to
// replace its alternative, add one to a registration made elsewhere by type and name, remove them
// (all, or one context's) and ask which are left (RegistrationEntry+Contexts).

@Suite struct AlternativeChangeTests {
    /// The app's wiring, as `registerAll()` would make it, far from the tests that change it.
    private static func appStore(log: CloseLog = CloseLog()) -> DependencyStore {
        let store = DependencyStore()
        store.register(Transport.self, scope: .singleton) { _ in ClosableTransport("live", log: log) }
            .on(.test) { _ in ClosableTransport("app mock", log: log) }
        store.register(Transport.self, name: "backup") { _ in NamedTransport("backup") }
        return store
    }

    @Test func aSecondOnForTheSameContextReplacesTheFirstWhereItStood() {
        let store = DependencyStore()
        store.register(Transport.self) { _ in URLSessionTransport() }
            .on(.argument("-a")) { _ in NamedTransport("a") }
            .on(.argument("-b")) { _ in NamedTransport("b") }
            .on(.test) { _ in NamedTransport("one") }
            .on(.test) { _ in NamedTransport("two") }
            .on(.argument("-a")) { _ in NamedTransport("a again") }

        #expect(store.alternatives(of: Transport.self) == [.argument("-a"), .argument("-b"), .test])
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Transport.self).kind == "two")
        }
        // Of two arguments in force, the one given first: the replaced one kept its place.
        DependencyContext.withActive([.argument("-b"), .argument("-a")]) {
            #expect(store.resolve(Transport.self).kind == "a again")
        }
    }

    @Test func replacingAnAlternativeLetsGoOfAndClosesWhatTheRegistrationKeptForIt() {
        let log = CloseLog()
        let store = Self.appStore(log: log)
        weak var kept: Transport?
        DependencyContext.withActive([.test]) {
            let first = store.resolve(Transport.self)
            #expect(first.kind == "app mock")
            kept = first
        }
        #expect(kept != nil)

        store.on(.test, for: Transport.self) { _ in NamedTransport("this test's mock") }

        #expect(kept == nil)
        #expect(log.names == ["app mock"])
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Transport.self).kind == "this test's mock")
        }
        #expect(store.alternatives(of: Transport.self) == [.test])
    }

    @Test func anAlternativeIsAddedByTypeAndNameFarFromTheRegistration() {
        let store = Self.appStore()
        store.on(.preview, for: Transport.self) { _ in NamedTransport("preview") }
            .on(.debug) { _ in NamedTransport("debug") }
        store.on(.test, for: Transport.self, name: "backup") { _ in NamedTransport("backup mock") }

        #expect(store.alternatives(of: Transport.self) == [.test, .preview, .debug])
        #expect(store.alternatives(of: Transport.self, name: "backup") == [.test])
        DependencyContext.withActive([.test, .debug]) {
            #expect(store.resolve(Transport.self).kind == "app mock")
            #expect(store.resolve(Transport.self, name: "backup").kind == "backup mock")
        }
        // The singleton built in `.test` stays until reset.
        store.reset(Transport.self)
        DependencyContext.withActive([.preview]) {
            #expect(store.resolve(Transport.self).kind == "preview")
        }
        // A store over this one sees the registration, alternatives included.
        let child = DependencyStore(parent: store)
        #expect(child.alternatives(of: Transport.self) == [.test, .preview, .debug])
    }

    @Test func removingAlternativesKeepsTheRegistrationAndSaysWhatWent() {
        let log = CloseLog()
        let store = Self.appStore(log: log)
        let entry = store.on(.preview, for: Transport.self) { _ in NamedTransport("preview") }
        DependencyContext.withActive([.test]) { _ = store.resolve(Transport.self) }

        #expect(store.removeAlternatives(of: Transport.self, for: .test) == [.test])
        // What the registration kept was built by the alternative that went: let go of, closed.
        #expect(log.names == ["app mock"])
        #expect(store.alternatives(of: Transport.self) == [.preview])
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Transport.self).kind == "live")
        }

        #expect(store.removeAlternatives(of: Transport.self) == [.preview])
        #expect(store.alternatives(of: Transport.self) == [])
        DependencyContext.withActive([.preview]) {
            #expect(store.resolve(Transport.self).kind == "live")
        }
        // Nothing left to remove: nothing changes, and the instance the store keeps stays.
        let kept = store.resolve(Transport.self)
        #expect(store.removeAlternatives(of: Transport.self) == [])
        #expect(store.resolve(Transport.self) === kept)
        // An entry returned before still adds to the registration in force.
        entry.on(.test) { _ in NamedTransport("again") }
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Transport.self).kind == "again")
        }
    }

    @Test func theListingAndVerifyShowAlternativesAddedAndRemovedByType() {
        let store = Self.appStore()
        store.on(.preview, for: Transport.self) { _ in NamedTransport("preview") }
        let listed = store.registrations.first { $0.name == nil && $0.type == "Transport" }
        #expect(listed?.contexts == [.test, .preview])
        let report = DependencyContext.withActive([.preview]) { store.verify() }
        #expect(report.isClean, "\(report)")
        #expect(report.alternatives.map(\.contextInForce) == [.preview])
        #expect(report.description.contains(": .preview in force, of .test, .preview"))

        store.removeAlternatives(of: Transport.self)
        #expect(store.registrations.first { $0.name == nil && $0.type == "Transport" }?.contexts == [])
        let after = store.verify()
        #expect(after.alternatives.isEmpty)
        #expect(!after.description.contains("in force, of"))
    }

    /// A value given with `provide` takes alternatives as a registration does: they build from
    /// the resolving store, not from the root one.
    @Test func anAlternativeOfAProvidedValueBuildsFromTheResolvingStore() {
        let store = DependencyStore()
        store.provide(FixedGreeting("provided") as Greeting, for: Greeting.self)
        store.provide(FixedGreeting("named") as Greeting, for: Greeting.self, name: "formal")
        store.on(.test, for: Greeting.self) { resolving in
            FixedGreeting(resolving === store ? "from this store" : "from another store")
        }
        store.on(.test, for: Greeting.self, name: "formal") { resolving in
            FixedGreeting(resolving === store ? "named, from this store" : "named, from another store")
        }
        DependencyContext.withActive([.test]) {
            #expect(store.resolve(Greeting.self).text == "from this store")
            #expect(store.resolve(Greeting.self, name: "formal").text == "named, from this store")
        }
        DependencyContext.withActive([]) {
            #expect(store.resolve(Greeting.self).text == "provided")
        }
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func anAlternativeForATypeThisStoreDoesNotRegisterTrapsNamingTypeAndFix() async throws {
        let missing = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Transport.self) { _ in URLSessionTransport() }
                store.on(.test, for: Transport.self, name: "backup") { _ in NamedTransport("never") }
            })
        let text = String(decoding: missing.standardErrorContent, as: UTF8.self)
        #expect(
            text.contains(
                "DependencyStore: on(.test, for: Transport.self, name: \"backup\") found no registration to change the alternatives of."
            ), "\(text)")
        #expect(text.contains("'Transport' is registered under: no name"))
        #expect(
            text.contains("To fix: register 'Transport' in this store first, or name the registration as it was made."))

        let inParent = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let app = DependencyStore()
                app.register(Transport.self) { _ in URLSessionTransport() }
                DependencyStore(parent: app).removeAlternatives(of: Transport.self)
            })
        let parentText = String(decoding: inParent.standardErrorContent, as: UTF8.self)
        #expect(parentText.contains("removeAlternatives(of: Transport.self) found no registration"), "\(parentText)")
        #expect(parentText.contains("'Transport' is registered in "), "\(parentText)")
        #expect(parentText.contains("a parent of this store, and not in it"))
        #expect(
            parentText.contains("To fix: register 'Transport' in this store (it wins over the parent's registration"))
    }

    @Test func removingAnAlternativeTheRegistrationDoesNotHaveTrapsNamingThoseItHas() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(Transport.self) { _ in URLSessionTransport() }
                    .on(.test) { _ in NamedTransport("mock") }
                    .on(.preview) { _ in NamedTransport("preview") }
                store.removeAlternatives(of: Transport.self, for: .debug)
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            text.contains(
                "removeAlternatives(of: Transport.self, for: .debug) on 'DependencyStoreTests.Transport' cannot remove the alternative: it has no alternative for .debug; it has alternatives for .test, .preview."
            ), "\(text)")
        #expect(text.contains("To fix: remove one of those"))
    }

    @Test func anAlternativeForAForwardTrapsNamingTheTypeItForwardsTo() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(NamedTransport.self) { _ in NamedTransport("live") }
                store.forward(Transport.self, to: NamedTransport.self)
                store.on(.test, for: Transport.self) { _ in NamedTransport("never") }
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("cannot add the alternative: it forwards to 'NamedTransport'"), "\(text)")
        #expect(
            text.contains(
                "To fix: give the alternative to the registration it forwards to: store.on(.test, for: NamedTransport.self)"
            ))
    }
    #endif
}
