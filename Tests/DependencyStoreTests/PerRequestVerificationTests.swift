import DependencyStore
import Testing

// A server's app store: filled at start-up, with a store per request layered over it that
// registers the request's values. `providedPerRequest` declares which those are.

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
private final class Checkout {
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

@Suite("types provided per request")
struct PerRequestVerificationTests {
    @Test("resolving a declared type from the app's store says it is provided per request, and where to resolve it")
    func resolvingADeclaredTypeFromTheAppStore() throws {
        let app = DependencyStore()
        app.providedPerRequest(RequestID.self)

        let error = try #require(throws: ResolutionError.self) { try app.tryResolve(RequestID.self) }

        #expect(error.kind == .notRegistered)
        let text = error.description
        #expect(text.hasPrefix("DependencyStore: no registration for 'DependencyStoreTests.(unknown context at "))
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

        let error = try #require(throws: ResolutionError.self) {
            try request.execute { try trail.$requestID.tryValue() }
        }

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

        let error = try #require(throws: ResolutionError.self) {
            try request.tryResolve(User.self, name: "current")
        }

        #expect(error.description.contains("declared with providedPerRequest at "))
        #expect(error.description.contains(", in \(app)."))
        #expect(error.description.contains("This store is layered over that one, as a request's store is"))
        #expect(
            error.description.contains(
                "  To fix: register it in this store when the request starts, before anything resolves it:\n"
                    + "      store.register(<the request's User>, for: User.self, name: \"current\")"))
    }
}
