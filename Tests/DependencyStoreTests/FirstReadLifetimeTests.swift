import DependencyStore
import Foundation
import Testing

/// A property whose first read lets go of its store's last owner: the read must not end the store
/// and close what it hands out, nor free the store while a read still resolves through it.
@Suite struct FirstReadLifetimeTests {
    @Test func aFirstReadThatWasItsStoresLastOwnerHandsOutAnOpenInstance() {
        let store = WeakBox<DependencyStore>(nil)
        let closed = Counter()
        do {
            let model: ConnectionModel = {
                let made = DependencyStore()
                made.register(Connection.self, scope: .singleton) { _ in Connection(closes: closed) }
                store.object = made
                return made.execute { ConnectionModel() }
            }()
            #expect(!model.connection.isClosed)
            #expect(closed.value == 0)
            #expect(store.object != nil, "the property keeps the store it was the last owner of")
        }
        expectTheStoreEnded(store, closed: closed)
    }

    @Test func aFirstReadOfAnInstanceBuiltBeforeKeepsItOpen() {
        let store = WeakBox<DependencyStore>(nil)
        let closed = Counter()
        do {
            let model: ConnectionModel = {
                let made = DependencyStore()
                made.register(Connection.self, scope: .singleton) { _ in Connection(closes: closed) }
                _ = made.resolve(Connection.self)
                store.object = made
                return made.execute { ConnectionModel() }
            }()
            #expect(!model.connection.isClosed)
            #expect(closed.value == 0)
        }
        expectTheStoreEnded(store, closed: closed)
    }

    @Test func aRequestsLastReadDoesNotEndTheAppsStoreUnderIt() {
        let app = WeakBox<DependencyStore>(nil)
        let closed = Counter()
        do {
            let model: ConnectionModel = {
                let appStore = DependencyStore()
                appStore.register(Connection.self, scope: .singleton) { _ in Connection(closes: closed) }
                app.object = appStore
                let request = DependencyStore(parent: appStore)
                return request.execute { ConnectionModel() }
            }()
            #expect(!model.connection.isClosed)
            #expect(closed.value == 0)
        }
        expectTheStoreEnded(app, closed: closed)
    }

    /// Every way of reading a property for the first time: `@OptionalInjected`, `tryValue()` and a
    /// `Lazy` handle keep the store they were the last owner of, as `@Injected` does.
    @Test func everyFormOfFirstReadKeepsTheStoreItWasTheLastOwnerOf() throws {
        let closed = Counter()
        let stores = (0..<3).map { _ in WeakBox<DependencyStore>(nil) }
        func made<Model>(_ box: WeakBox<DependencyStore>, _ make: () -> Model) -> Model {
            let store = DependencyStore()
            store.register(Connection.self, scope: .singleton) { _ in Connection(closes: closed) }
            box.object = store
            return store.execute(make)
        }
        do {
            let optional = made(stores[0]) { OptionalConnectionModel() }
            let tried = made(stores[1]) { ConnectionModel() }
            let lazy = made(stores[2]) { LazyConnectionModel() }
            #expect(optional.connection?.isClosed == false)
            #expect(try tried.$connection.tryValue().isClosed == false)
            #expect(!lazy.connection.value.isClosed)
            #expect(closed.value == 0)
            #expect(stores.allSatisfy { $0.object != nil })
        }
        #expect(stores.allSatisfy { $0.object == nil }, "each store ended with its model")
        #expect(closed.value == 3)
    }

    @Test func aFirstReadThatIsNotTheLastOwnerLetsGoOfTheStore() {
        let store = WeakBox<DependencyStore>(nil)
        let closed = Counter()
        let model: ConnectionModel
        do {
            let made = DependencyStore()
            made.register(Connection.self, scope: .singleton) { _ in Connection(closes: closed) }
            store.object = made
            model = made.execute { ConnectionModel() }
            #expect(!model.connection.isClosed)
            withExtendedLifetime(made) {}
        }
        // The caller held the store: the read let go of it, and it ended with its caller.
        expectTheStoreEnded(store, closed: closed)
        #expect(model.connection.isClosed, "the value is what the store handed out, closed by its end")
    }

    @Test func anObserverThatReadsThePropertyItObservesLeavesTheStoreToTheOuterRead() {
        let store = WeakBox<DependencyStore>(nil)
        let closed = Counter()
        let holder = Recorded<ConnectionModel?>(nil)
        let innerReads = Counter()
        do {
            let model: ConnectionModel = {
                let made = DependencyStore()
                made.register(Connection.self, scope: .singleton) { _ in Connection(closes: closed) }
                made.observeResolves { event in
                    guard event.type == Connection.self, let model = holder.value else { return }
                    // The very property whose first read this resolve is: a read inside its own
                    // resolution, which must leave the binding to the read outside.
                    if !model.connection.isClosed { innerReads.increment() }
                }
                store.object = made
                return made.execute { ConnectionModel() }
            }()
            holder.set(model)
            #expect(!model.connection.isClosed)
            #expect(innerReads.value == 1)
            #expect(closed.value == 0)
            holder.set(nil)
        }
        expectTheStoreEnded(store, closed: closed)
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aFactoryThatReadsThePropertyItBuildsForIsACycle() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let holder = Recorded<ConnectionModel?>(nil)
                let model: ConnectionModel = {
                    let made = DependencyStore()
                    made.register(Connection.self, scope: .singleton) { _ in
                        _ = holder.value?.connection
                        return Connection(closes: Counter())
                    }
                    return made.execute { ConnectionModel() }
                }()
                holder.set(model)
                _ = model.connection
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle: "), "\(stderr)")
        #expect(stderr.contains("Connection -> "), "\(stderr)")
    }
    #endif

    /// Once the model went, nothing held the store: it ended, and closed the connection then.
    private func expectTheStoreEnded(_ store: WeakBox<DependencyStore>, closed: Counter) {
        #expect(store.object == nil, "the store ends with the last property that kept it")
        #expect(closed.value == 1, "its end closed the connection once")
    }
}

/// A connection its store closes at its end.
private final class Connection: Closable, @unchecked Sendable {
    private let closes: Counter
    private let closedFlag = Recorded(false)
    init(closes: Counter) { self.closes = closes }
    var isClosed: Bool { closedFlag.value }
    func close() {
        closedFlag.set(true)
        closes.increment()
    }
}

private final class ConnectionModel: @unchecked Sendable {
    @Injected var connection: Connection
}

private final class OptionalConnectionModel {
    @OptionalInjected var connection: Connection?
}

private final class LazyConnectionModel {
    let connection = Lazy<Connection>()
}
