import DependencyStore
import Testing

// A server's app store: filled at start-up, with a store per request layered over it that
// registers the request's values. `providedPerRequest` tells verify() which those are.

private struct RequestID {
    let value: String
}
private struct User {
    let name: String
}
private final class OrderDatabase {}
private final class Logger {}
/// Built per request on purpose (`.unique`): takes the request's id and user.
private final class OrderHandler {
    init(_: RequestID, _: User, _: Logger) {}
}
/// Reads the request's id through a property, on first use.
private final class AuditTrail {
    @Injected var requestID: RequestID
}
private final class RequestContext: Sendable {
    init(_: RequestID) {}
}
private final class OrderRepository: Sendable {
    init(_: RequestContext) {}
}
private final class OrderService {
    init(_: OrderRepository) {}
}
private final class Storefront {
    init(_: OrderService) {}
}
private final class Greeter {
    init(_: Logger) {}
}
private final class Signature {
    init(_: User) {}
}

/// The app's store: a logger for the app, and handlers that take the request's values.
private func makeApp() -> DependencyStore {
    let app = DependencyStore()
    app.register(Logger.self, scope: .singleton) { _ in Logger() }
    app.register(OrderHandler.self) { store in
        OrderHandler(store.resolve(), store.resolve(name: "current"), store.resolve())
    }
    app.register(AuditTrail(), for: AuditTrail.self)
    app.register(RequestContext.self) { store in RequestContext(store.resolve()) }
    app.register(Signature.self) { store in Signature(store.resolve(name: "current")) }
    return app
}

@Suite("verify() with types provided per request")
struct PerRequestVerificationTests {
    @Test("declared per request, the request's values are no longer reported missing")
    func declaredTypesAreNotMissing() {
        let app = makeApp()
        // Undeclared, every per-request value is missing: what the declaration changes.
        let before = app.verify()
        #expect(
            before.problems.map(\.summaryForTests).sorted() == [
                "missing: AuditTrail -> RequestID",
                "missing: OrderHandler -> RequestID",
                "missing: RequestContext -> RequestID",
                "missing: Signature -> User (named \"current\")",
            ])

        app.providedPerRequest(RequestID.self)
        app.providedPerRequest(User.self, name: "current")
        let report = app.verify()

        #expect(report.isClean, "\(report)")
        #expect(report.verifiedCount == 5)
        #expect(
            Set(report.graph.nodes.filter(\.isProvidedPerRequest).map(\.description)) == [
                "RequestID", "User (named \"current\")",
            ])
        let edges = report.graph.edges.filter(\.to.isProvidedPerRequest).map {
            "\($0.from) -\($0.isLazy ? "lazy" : "")-> \($0.to)"
        }
        #expect(
            Set(edges) == [
                "OrderHandler --> RequestID", "AuditTrail -lazy-> RequestID", "RequestContext --> RequestID",
                "Signature --> User (named \"current\")",
            ])
        // OrderHandler's factory stopped at RequestID, its first, as satisfied: what it asks
        // for after it (User, Logger) is not followed from there.
        #expect(!report.graph.edges.contains { $0.from.description == "OrderHandler" && $0.to.type == "User" })
    }

    @Test("an undeclared missing type is still reported, beside the declared ones")
    func undeclaredMissingTypeIsReported() {
        let app = makeApp()
        app.providedPerRequest(RequestID.self)
        app.providedPerRequest(User.self, name: "current")
        app.register(OrderRepository.self) { store in
            _ = store.resolve(OrderDatabase.self)
            return OrderRepository(store.resolve())
        }
        // The name matters: the unnamed User is not the one declared.
        app.register(Greeter.self) { store in
            _ = store.resolve(User.self)
            return Greeter(store.resolve())
        }

        let report = app.verify()

        #expect(
            report.problems.map(\.summaryForTests) == [
                "missing: Greeter -> User", "missing: OrderRepository -> OrderDatabase",
            ])
    }

    @Test("an app-wide instance whose graph reaches a per-request type is reported with its chain")
    func appWideInstanceReachingARequestValue() throws {
        let app = DependencyStore()
        app.providedPerRequest(RequestContext.self)
        app.register(OrderRepository.self, scope: .singleton) { store in OrderRepository(store.resolve()) }

        let report = app.verify()

        let problem = try #require(report.problems.only)
        #expect(problem.kind == .perRequestDependency)
        #expect(problem.path.map(\.description) == ["OrderRepository", "RequestContext"])
        #expect(
            problem.description
                == "per-request dependency: OrderRepository (.singleton) -> RequestContext (per request): "
                + "OrderRepository is an app-wide instance, but it depends on RequestContext, which only a request's "
                + "store provides. So it is not one instance for the app: each request's store builds its own, with "
                + "that request's RequestContext, and built in this store it has no RequestContext. Fix: register "
                + "OrderRepository as .unique (or .graph), so that each resolve builds one; or pass RequestContext in "
                + "as an argument, or resolve it per call, instead of keeping it; or, for one OrderRepository per "
                + "request, register it in each request's store and declare it with providedPerRequest.")
        #expect(report.description.contains("- per-request dependency: OrderRepository (.singleton) -> RequestContext"))
    }

    @Test("the chain runs through unique instances, other app-wide ones and @Injected properties")
    func chainsThroughTheGraph() {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)
        app.register(RequestContext.self) { store in RequestContext(store.resolve()) }
        app.register(OrderRepository.self) { store in OrderRepository(store.resolve()) }
        app.register(OrderService.self, scope: .singleton) { store in OrderService(store.resolve()) }
        // Roots are built in the order of their names: OrderRepository's build stops at
        // RequestID first, then OrderService's and Storefront's need what it left unfinished.
        // They stop there too, with no "failed" line, and each is reported for its own chain.
        app.register(Storefront.self, scope: .session) { store in Storefront(store.resolve()) }
        app.register(AuditTrail.self, scope: .weak) { _ in AuditTrail() }

        let report = app.verify()

        #expect(report.problems.allSatisfy { $0.kind == .perRequestDependency }, "\(report)")
        #expect(
            Set(report.problems.map { $0.path.map(\.labelWithScopeForTests).joined(separator: " -> ") }) == [
                "AuditTrail (.weak) -> RequestID (per request)",
                "Storefront (Scope(\"session\")) -> OrderService (.singleton) -> OrderRepository (.unique) "
                    + "-> RequestContext (.unique) -> RequestID (per request)",
                "OrderService (.singleton) -> OrderRepository (.unique) -> RequestContext (.unique) "
                    + "-> RequestID (per request)",
            ])
        // The graph shows the edges a stopped build had recorded.
        #expect(report.mermaid().contains(":::perRequest"))
        #expect(report.mermaid().contains("RequestID<br/>per request"))
    }

    @Test("app-wide instances that reach no per-request type, and unique ones that do, are not reported")
    func singletonsThatDoNotReachRequestValuesAreClean() {
        let app = makeApp()
        app.providedPerRequest(RequestID.self)
        app.providedPerRequest(User.self, name: "current")
        app.register(Greeter.self, scope: .singleton) { store in Greeter(store.resolve()) }
        app.register(OrderRepository.self, scope: .graph) { store in OrderRepository(store.resolve()) }

        let report = app.verify()

        #expect(report.isClean, "\(report)")
        #expect(report.graph.nodes.contains { $0.description == "Greeter" && $0.scope == .singleton })
    }

    @Test("a type declared per request that the app's store, or a parent, registers too is a conflict")
    func declaredAndRegisteredIsAConflict() throws {
        let base = DependencyStore()
        base.register(User.self) { _ in User(name: "base") }
        let app = DependencyStore(parent: base)
        app.providedPerRequest(RequestID.self)
        app.providedPerRequest(User.self)
        app.register(RequestID.self) { _ in RequestID(value: "app") }

        let report = app.verify()

        #expect(report.problems.map(\.kind) == [.perRequestConflict, .perRequestConflict])
        let requestID = try #require(report.problems.first { $0.path.first?.type == "RequestID" })
        #expect(requestID.description.hasPrefix("per-request conflict: RequestID is declared provided per request at "))
        #expect(
            requestID.description.contains("and registered at DependencyStoreTests/PerRequestVerificationTests.swift:"))
        #expect(requestID.description.contains("in the same store: that store resolves its own RequestID"))
        #expect(
            requestID.description.hasSuffix(
                "Fix: remove the registration and register RequestID in each request's store; or, if it is app-wide "
                    + "after all, remove the declaration."))
        let user = try #require(report.problems.first { $0.path.first?.type == "User" })
        #expect(user.description.contains("in \(base)"))

        // A store layered over the app's that registers them, as a request's store does, is no
        // conflict: there they are provided.
        let clean = DependencyStore()
        clean.providedPerRequest(RequestID.self)
        clean.register(RequestContext.self) { store in RequestContext(store.resolve()) }
        let request = DependencyStore(parent: clean)
        request.register(RequestID(value: "r-1"), for: RequestID.self)
        #expect(request.verify().isClean)
        #expect(clean.verify().isClean)
    }

    @Test("resolving a declared type from the app's store says it is provided per request, and where to resolve it")
    func resolvingADeclaredTypeFromTheAppStore() throws {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)

        let error = try #require(thrownError(ResolutionError.self) { try app.tryResolve(RequestID.self) })

        #expect(error.kind == .notRegistered)
        let text = error.description
        #expect(text.hasPrefix("DependencyStore: no registration for 'DependencyStoreTests.RequestID'"))
        #expect(
            text.contains(
                "  'RequestID' is provided per request: declared with providedPerRequest at "
                    + "DependencyStoreTests/PerRequestVerificationTests.swift:"))
        #expect(
            text.contains(
                "  Each request's store (a store layered over this one) registers it; this store never does, and an "
                    + "object\n  bound to this store (one made at start-up, say) does not see a request's values."))
        #expect(
            text.contains(
                "  To fix: resolve it from the request's store, inside its execute { } or with its "
                    + "resolve(RequestID.self)."))
        #expect(text.contains("make that object .unique, so that each request's store builds its"))
        // Not the advice for an app that forgot a registration.
        #expect(!text.contains("register 'RequestID' before it is first resolved"))
        #expect(!text.contains("resolveIfRegistered"))
    }

    @Test("an object made at start-up reading a declared type says so too, even once a request's store registers it")
    func anObjectBoundToTheAppStoreReadingARequestValue() throws {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)
        let trail = app.execute { AuditTrail() }  // made at start-up, bound to the app's store
        let request = DependencyStore(parent: app)
        request.register(RequestID(value: "r-1"), for: RequestID.self)

        let error = try #require(
            thrownError(ResolutionError.self) {
                try request.execute { try trail.$requestID.tryValue() }
            })

        #expect(error.description.contains("'RequestID' is provided per request"))
        // The declaration says it all: the note on stores over this one is left out.
        #expect(!error.description.contains("layered over this store. An object bound to this store"))
        #expect(error.description.contains("An @Injected property resolves from the store that was current"))
        withExtendedLifetime(request) {}
    }

    @Test("a request's store that does not register a declared type is told to register it")
    func aRequestStoreThatForgotTheValue() throws {
        let app = DependencyStore()
        app.providedPerRequest(User.self, name: "current")
        let request = DependencyStore(parent: app)

        let error = try #require(
            thrownError(ResolutionError.self) {
                try request.tryResolve(User.self, name: "current")
            })

        #expect(error.description.contains("declared with providedPerRequest at "))
        #expect(error.description.contains(", in \(app)."))
        #expect(error.description.contains("This store is layered over that one, as a request's store is"))
        #expect(
            error.description.contains(
                "  To fix: register it in this store when the request starts, before anything resolves it:\n"
                    + "      store.register(<the request's User>, for: User.self, name: \"current\")"))
    }

    @Test("a declaration meets a requirement, is unloaded with its assembly, and a decorator of it is no orphan")
    func declarationsAmongRequirementsAndDecorators() {
        struct ServerAssembly: Assembly {
            func assemble(into store: DependencyStore) {
                store.providedPerRequest(RequestID.self)
            }
        }
        let app = DependencyStore()
        app.apply(ServerAssembly())
        app.require(RequestID.self)
        app.decorate(RequestID.self) { _, id in RequestID(value: "[\(id.value)]") }
        #expect(app.verify().isClean, "\(app.verify())")

        let result = app.unload(ServerAssembly.self)

        #expect(result.description.contains("1 requirement"))
        let kinds = app.verify().problems.map(\.kind)
        #expect(kinds == [.unmetRequirement, .unmatchedDecorator])
    }

    @Test("verifyAsync() treats a per-request type resolved in an async factory as given")
    func verifyAsyncStopsAtDeclaredTypes() async {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)
        app.register(RequestContext.self, scope: .singleton) { store async throws in
            RequestContext(try await store.resolveAsync(RequestID.self))
        }

        let report = await app.verifyAsync(timeout: poolDeadline)

        #expect(
            report.problems.map(\.summaryForTests) == ["perRequestDependency: RequestContext -> RequestID"],
            "\(report)")
        #expect(report.skippedForIsolation.isEmpty)
    }

    /// A main-actor factory that resolves a per-request type cannot go on, and its frames can be
    /// neither parked nor left on the main actor: verification ends the process, saying so.
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aMainActorFactoryThatResolvesAPerRequestTypeEndsVerifyAsync() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let app = DependencyStore()
                app.providedPerRequest(RequestID.self)
                app.register(OrderRepository.self, scope: .singleton, on: MainActor.self) { store in
                    OrderRepository(RequestContext(store.resolve()))
                }
                _ = await app.verifyAsync(timeout: poolDeadline)
            })
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("the main-actor factory of OrderRepository stopped"), "\(stderr)")
        #expect(stderr.contains("RequestID (per request)"), "\(stderr)")
        #expect(stderr.contains("A main-actor factory may not resolve a type provided per request"), "\(stderr)")
    }
    #endif
}

extension Collection {
    /// The one element, if there is exactly one.
    fileprivate var only: Element? { count == 1 ? first : nil }
}

extension VerificationProblem {
    /// `missing: A -> B`: the kind and the path.
    fileprivate var summaryForTests: String {
        "\(kind): " + path.map(\.description).joined(separator: " -> ")
    }
}

extension DependencyGraph.Node {
    /// What the report's lines show: `Presenter (.singleton)`, `RequestID (per request)`.
    fileprivate var labelWithScopeForTests: String {
        "\(self) (\(scope.map(\.description) ?? (isProvidedPerRequest ? "per request" : "not registered")))"
    }
}
