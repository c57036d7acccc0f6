import Dependencies
import DependencyStore
import Foundation

/// Performs `count` operations of one kind and nothing else, so that running this twice under
/// `valgrind --tool=memcheck` (with two counts) gives the allocations per operation as the
/// difference of the two totals. See `count-allocations.sh`. `floor` is the mutex-dictionary floor, for comparison.
func countAllocations(of kind: String, count: Int) -> Bool {
    let store = DependencyStore()
    store.register(LiveService(), for: Service.self, scope: .singleton)
    store.register(Leaf(), for: Leaf.self)
    store.register(Root.self) { store in Root(left: store.resolve(), right: store.resolve()) }
    store.register(PlainShared.shared, for: (any PlainService).self)
    let seedStore = DependencyStore()
    seedStore.register(Leaf(), for: Leaf.self)
    seedStore.register(Root(left: seedStore.resolve(), right: seedStore.resolve()), for: Root.self)
    _ = store.resolve(Service.self)
    _ = store.resolve(Root.self)
    _ = seedStore.resolve(Root.self)
    _ = store.resolve((any PlainService).self)
    let holder = store.execute { InjectedHolder() }
    _ = holder.service
    let plainHolder = store.execute { PlainInjectedHolder() }
    _ = plainHolder.service
    store.execute { blackHole(0) }
    let floor = Floor()
    floor.store(LiveService(), for: Service.self)
    floor.register(PlainShared.self) { _ in PlainShared.shared }

    // The singleton row, in a store with an observer that reads nothing: what tracing adds to a
    // resolve when nobody reads the event's text.
    let observedStore = DependencyStore()
    observedStore.register(LiveService(), for: Service.self, scope: .singleton)
    _ = observedStore.resolve(Service.self)
    let observation = observedStore.observeResolves { event in blackHole(event.build) }
    defer { withExtendedLifetime(observation) {} }

    let server = Server()
    let handWired = HandWiredServer()
    let floorServer = FloorServer()
    let floorStore = FloorRequestStore()
    floorStore.keep(LiveService() as Service, for: Service.self)

    switch kind {
    case "request":
        for number in 0..<count { blackHole(server.handleThroughAStore(number)) }
    case "asyncrequest":
        // Row 14's request from inside a task, with the async `execute` a server's async handler
        // calls: every request in one task, which the main thread waits for.
        let done = DispatchSemaphore(value: 0)
        Task {
            for number in 0..<count { blackHole(await server.handleThroughAStoreAsync(number)) }
            done.signal()
        }
        done.wait()
    case "handwiredrequest":
        for number in 0..<count { blackHole(handWired.handle(number)) }
    case "floorrequest":
        for number in 0..<count { blackHole(floorServer.handle(number)) }
    case "swinjectrequest":
        let swinjectServer = SwinjectServer()
        for number in 0..<count { blackHole(swinjectServer.handle(number)) }
    case "dependenciesrequest":
        let dependenciesServer = DependenciesServer()
        for number in 0..<count { blackHole(dependenciesServer.handle(number)) }
    case "requestphases":
        // Row 14's request, phase by phase: see RequestPhases.swift and profile-request.sh. One
        // `RequestInFlight` carries every request, so that it allocates nothing per request.
        let phasedServer = PhasedServer()
        let request = RequestInFlight()
        for number in 0..<count { blackHole(phasedServer.handle(number, in: request)) }
    case _ where kind.hasPrefix("requestphases"):
        // requestphases1 to requestphases7: the same request, stopped after that phase. What is
        // still alive then is kept until the process exits, so that memcheck counts neither its
        // end nor its frees. The arrays that keep it are sized beforehand: one allocation each.
        guard let last = Int(kind.dropFirst("requestphases".count)).flatMap(RequestPhase.init(rawValue:)),
            last != .releaseStore
        else { return false }
        let phasedServer = PhasedServer()
        let request = RequestInFlight()
        unfinishedStores.reserveCapacity(count)
        unfinishedHandlers.reserveCapacity(count)
        for number in 0..<count {
            blackHole(phasedServer.handle(number, through: last, in: request))
            if let store = request.store {
                unfinishedStores.append(store)
                request.store = nil
            }
            if let handler = request.handler {
                unfinishedHandlers.append(handler)
                request.handler = nil
            }
        }
    case "observed":
        for _ in 0..<count { blackHole(observedStore.resolve(Service.self)) }
    case "singleton":
        for _ in 0..<count { blackHole(store.resolve(Service.self)) }
    case "graph":
        // The factories build three objects; anything above 3 per resolve is the store's.
        for _ in 0..<count { blackHole(store.resolve(Root.self)) }
    case "injected":
        for _ in 0..<count { blackHole(holder.service) }
    case "seed":
        // register(PlainShared.shared, for: (any PlainService).self): .unique, the closure runs.
        for _ in 0..<count { blackHole(store.resolve((any PlainService).self)) }
    case "seedgraph":
        for _ in 0..<count { blackHole(seedStore.resolve(Root.self)) }
    case "plaininjected":
        for _ in 0..<count { blackHole(plainHolder.service) }
    case "create":
        // One for the holder object itself: the property's own are the rest.
        for _ in 0..<count { blackHole(store.execute { InjectedHolder() }.service) }
    case "createonly":
        for _ in 0..<count { blackHole(store.execute { InjectedHolder() }) }
    case "floorcreate":
        // Row `create` through the floor's store and property (RequestFloor.swift).
        for _ in 0..<count { blackHole(floorStore.execute { FloorInjectedHolder() }.service) }
    case "floorexecute":
        for _ in 0..<count { floorStore.execute { blackHole(count) } }
    case "floor":
        for _ in 0..<count { blackHole(floor.instance(for: Service.self)) }
    case "floorclosure":
        for _ in 0..<count { blackHole(floor.make(PlainShared.self)) }
    case "withdependencies":
        for _ in 0..<count {
            withDependencies { _ in
            } operation: {
                blackHole(count)
            }
        }
    case "execute":
        for _ in 0..<count { store.execute { blackHole(count) } }
    default:
        return false
    }
    return true
}

/// What the requests that `requestphasesN` stopped still had alive, kept until the process exits.
nonisolated(unsafe) var unfinishedStores: [DependencyStore] = []
nonisolated(unsafe) var unfinishedHandlers: [RequestHandler] = []
