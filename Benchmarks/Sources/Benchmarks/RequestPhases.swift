import DependencyStore

// Row 14's request (`Server.handleThroughAStore`) cut into its phases, for `profile-request.sh`.
// Each phase is a function of its own that is never inlined, so that callgrind can count one
// phase at a time (`--toggle-collect`), and a run can stop after any phase for memcheck. The
// phases call the library as the row does, on the same app store (a `Server`'s), with the same
// handler; row 14 itself is not touched.

/// What one request has alive between its phases. The slots are only touched by the thread that
/// runs the request, so the run-time exclusivity checks are left out, as in `Floor`: they are not
/// part of any phase.
final class RequestInFlight {
    @exclusivity(unchecked) var store: DependencyStore?
    @exclusivity(unchecked) var handler: RequestHandler?
}

/// The phases, in the order the request runs them; `--allocations requestphasesN` stops after
/// the Nth (`createHandler` is made inside `execute`).
enum RequestPhase: Int, CaseIterable {
    case createStore = 1
    case register
    case execute
    case createHandler
    case readSingletons
    case readValues
    case releaseHandler
    case releaseStore
}

@inline(never)
func requestPhaseCreateStore(_ request: RequestInFlight, over app: DependencyStore) {
    request.store = DependencyStore(parent: app)
}

/// Takes the server, as `handleThroughAStore` reads `user` from its `self`.
@inline(never)
func requestPhaseRegister(_ request: RequestInFlight, number: Int, server: Server) {
    let store = request.store!
    store.provide(RequestID(value: number), for: RequestID.self)
    store.provide(server.user, for: RequestUser.self)
}

/// Enters and leaves `execute`, and makes the handler inside: `profile-request.sh` subtracts
/// `requestPhaseCreateHandler` for the cost of `execute` alone.
@inline(never)
func requestPhaseExecute(_ request: RequestInFlight) {
    request.handler = request.store!.execute { requestPhaseCreateHandler() }
}

/// `execute` with nothing made inside, for the runs that stop after it: what allocating the
/// handler adds is then the next run's difference. Returns a handler made once, beforehand, so that
/// `execute` is called with the same type as in the request.
@inline(never)
func requestPhaseExecuteAlone(_ request: RequestInFlight, returning placeholder: RequestHandler) {
    blackHole(request.store!.execute { placeholder })
}

/// The handler and its four `@Injected` properties, which bind to the store `execute` made
/// current.
@inline(never)
func requestPhaseCreateHandler() -> RequestHandler {
    RequestHandler()
}

@inline(never)
func requestPhaseReadSingletons(_ request: RequestInFlight) -> Int {
    let handler = request.handler!
    return handler.service.number + handler.repository.number
}

@inline(never)
func requestPhaseReadValues(_ request: RequestInFlight) -> Int {
    let handler = request.handler!
    return handler.request.value + handler.user.name.utf8.count
}

@inline(never)
func requestPhaseReleaseHandler(_ request: RequestInFlight) {
    request.handler = nil
}

@inline(never)
func requestPhaseReleaseStore(_ request: RequestInFlight) {
    request.store = nil
}

/// Row 14's server, its request run phase by phase.
struct PhasedServer {
    let server = Server()
    /// What `requestPhaseExecuteAlone` returns; never read.
    let placeholder = RequestHandler()

    init() {
        _ = handle(0, in: RequestInFlight())
    }

    /// Runs the request's phases up to `last` and returns what the handler's reads have summed
    /// so far (row 14's sum once both reads have run). What is still alive after `last` stays in
    /// `request`.
    func handle(_ number: Int, through last: RequestPhase = .releaseStore, in request: RequestInFlight) -> Int {
        requestPhaseCreateStore(request, over: server.app)
        if last == .createStore { return 0 }
        requestPhaseRegister(request, number: number, server: server)
        if last == .register { return 0 }
        if last == .execute {
            requestPhaseExecuteAlone(request, returning: placeholder)
            return 0
        }
        requestPhaseExecute(request)
        if last == .createHandler { return 0 }
        var sum = requestPhaseReadSingletons(request)
        if last == .readSingletons { return sum }
        sum += requestPhaseReadValues(request)
        if last == .readValues { return sum }
        requestPhaseReleaseHandler(request)
        if last == .releaseHandler { return sum }
        requestPhaseReleaseStore(request)
        return sum
    }
}
