import DependencyStore
import Foundation
import Testing

/// A property whose first read lets go of its store's last owner: the read must not end the store
/// and close what it hands out, nor free the store while a read still resolves through it.
@Suite struct FirstReadLifetimeTests {
    @Test func aFirstReadThatWasItsStoresLastOwnerHandsOutAnOpenInstance() {
        let connections = Connections()
        do {
            let model = connections.made { ConnectionModel() }
            #expect(!model.connection.isClosed)
            #expect(connections.closed.value == 0)
            #expect(connections.store.object != nil, "the property keeps the store it was the last owner of")
        }
        connections.expectTheStoreEnded()
    }

    @Test func aFirstReadOfAnInstanceBuiltBeforeKeepsItOpen() {
        let connections = Connections()
        do {
            let model = connections.made(prepare: { _ = $0.resolve(Connection.self) }, { ConnectionModel() })
            #expect(!model.connection.isClosed)
            #expect(connections.closed.value == 0)
        }
        connections.expectTheStoreEnded()
    }

    @Test func aRequestsLastReadDoesNotEndTheAppsStoreUnderIt() {
        let connections = Connections()
        do {
            let model = connections.made(inARequestStore: true) { ConnectionModel() }
            #expect(!model.connection.isClosed)
            #expect(connections.closed.value == 0)
        }
        connections.expectTheStoreEnded()
    }

    /// Every way of reading a property for the first time: `@OptionalInjected`, `tryValue()` and a
    /// `Lazy` handle keep the store they were the last owner of, as `@Injected` does.
    @Test func everyFormOfFirstReadKeepsTheStoreItWasTheLastOwnerOf() throws {
        let each = (0..<3).map { _ in Connections() }
        do {
            let optional = each[0].made { OptionalConnectionModel() }
            let tried = each[1].made { ConnectionModel() }
            let lazy = each[2].made { LazyConnectionModel() }
            #expect(optional.connection?.isClosed == false)
            #expect(try tried.$connection.tryValue().isClosed == false)
            #expect(!lazy.connection.value.isClosed)
            #expect(each.allSatisfy { $0.closed.value == 0 && $0.store.object != nil })
        }
        for connections in each { connections.expectTheStoreEnded() }
    }

    @Test func aFirstReadThatIsNotTheLastOwnerLetsGoOfTheStore() {
        let connections = Connections()
        let model: ConnectionModel
        do {
            var held: DependencyStore?
            model = connections.made(prepare: { held = $0 }, { ConnectionModel() })
            #expect(!model.connection.isClosed)
            withExtendedLifetime(held) {}
        }
        // The caller held the store: the read let go of it, and it ended with its caller.
        connections.expectTheStoreEnded()
        #expect(model.connection.isClosed, "the value is what the store handed out, closed by its end")
    }

    @Test func anObserverThatReadsThePropertyItObservesLeavesTheStoreToTheOuterRead() {
        let connections = Connections()
        let holder = Recorded<ConnectionModel?>(nil)
        let innerReads = Counter()
        do {
            let model = connections.made(
                prepare: { store in
                    store.observeResolves { event in
                        guard event.type == Connection.self, let model = holder.value else { return }
                        // The very property whose first read this resolve is: a read inside its own
                        // resolution, which must leave the binding to the read outside.
                        if !model.connection.isClosed { innerReads.increment() }
                    }
                }, { ConnectionModel() })
            holder.set(model)
            #expect(!model.connection.isClosed)
            #expect(innerReads.value == 1)
            #expect(connections.closed.value == 0)
            holder.set(nil)
        }
        connections.expectTheStoreEnded()
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aFactoryThatReadsThePropertyItBuildsForIsACycle() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let holder = Recorded<ConnectionModel?>(nil)
                let model = Connections().made(
                    prepare: { store in
                        store.register(Connection.self, scope: .singleton) { _ in
                            _ = holder.value?.connection
                            return Connection(closes: Counter())
                        }
                    }, { ConnectionModel() })
                holder.set(model)
                _ = model.connection
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("dependency cycle: "), "\(stderr)")
        #expect(stderr.contains("Connection -> "), "\(stderr)")
    }
    #endif
}

/// A store that keeps a `.singleton` `Connection`, seen only weakly, and the count of the
/// connections it closed.
private struct Connections {
    let store = WeakBox<DependencyStore>(nil)
    let closed = Counter()

    /// What `make` makes in such a store (or in a request's store over it), after `prepare`: once
    /// this returns, only what `make` made holds the store.
    func made<Model>(
        inARequestStore: Bool = false, prepare: (DependencyStore) -> Void = { _ in }, _ make: () -> Model
    ) -> Model {
        let made = DependencyStore()
        made.register(Connection.self, scope: .singleton) { [closed] _ in Connection(closes: closed) }
        prepare(made)
        store.object = made
        return (inARequestStore ? DependencyStore(parent: made) : made).execute(make)
    }

    /// Once the model went, nothing held the store: it ended, and closed the connection then.
    func expectTheStoreEnded(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            store.object == nil, "the store ends with the last property that kept it", sourceLocation: sourceLocation)
        #expect(closed.value == 1, "its end closed the connection once", sourceLocation: sourceLocation)
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
