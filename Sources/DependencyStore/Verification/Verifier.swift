import Dispatch

#if canImport(Darwin)
import Darwin  // the C library, as Glibc or Musl is on Linux
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `DependencyStore.verify()`: builds every registration of a throw-away copy of a store and
/// records what the factories resolve.
///
/// Each registration is built on a thread of the verifier's own (a *worker*). A factory that asks
/// for something missing, closes a cycle or passes wrong arguments would trap; on a worker, the
/// store calls ``abort(_:subject:)`` instead, which records the problem, releases the waiting
/// `verify()` and parks the worker for good (see `park`): the factory cannot return (it is waiting
/// for a value nobody can give it), must not trap, and Swift has no defined way to leave its
/// frames without running them to their end. Everything else about resolution is the store's
/// ordinary code.
final class Verifier {
    private let state = Lock(State())
    /// The timeout for one registration's build, in seconds.
    let timeout: Double
    /// Which captive dependencies the report lists.
    private let captiveRule: CaptiveRule

    private struct State {
        /// Every node, in the order first met, and where each key's is in it.
        var nodes: [DependencyGraph.Node] = []
        var nodeIndex: [NodeKey: Int] = [:]
        /// Every edge, in the order first seen, and the same as a set: a node is made once for its
        /// key, so an edge is equal to another exactly when their ends' keys and kinds are.
        var edges: [DependencyGraph.Edge] = []
        var edgeSet: Set<DependencyGraph.Edge> = []
        var problems: [VerificationProblem] = []
        /// Registrations whose build was abandoned, with the problem that stopped it: a later
        /// resolve of one stops too, at once, reporting that cause (it would otherwise wait on a
        /// gate the stopped worker holds).
        var poisoned: [ObjectIdentifier: String] = [:]
        /// Registrations resolved at least once: their factory ran (or their kept instance was
        /// returned) and its edges are recorded, so verifying them again as a root would repeat
        /// the work. Skipping them keeps verification linear in registrations and edges.
        var resolved: Set<ObjectIdentifier> = []
        /// Registrations not verified because they (or what they resolve) must run on the main
        /// actor or be awaited, with the reason.
        var skippedForIsolation: [(node: DependencyGraph.Node, reason: String)] = []
        /// The causes of builds stopped at a type declared provided per request: no problem, so
        /// a build that needs what one of them holds stops too, as satisfied, without reporting.
        var perRequestCauses: Set<String> = []
        /// The registrations whose build stopped at such a type, with the cause.
        var perRequestStops: [TypeAndName: String] = [:]
        var finished = false

        /// Records `problem`, once, unless the report was made.
        mutating func add(_ problem: VerificationProblem?) {
            if let problem, !finished, !problems.contains(problem) { problems.append(problem) }
        }
    }

    typealias NodeKey = DependencyGraph.Node.Key

    /// Set by `verifyAsync()`: main-actor factories run on the main actor and `async` ones in
    /// tasks, instead of being skipped.
    let runsIsolatedFactories: Bool

    /// The types declared provided per request in the store verified and its parents: a resolve
    /// of one that finds no registration stops its build as satisfied, without a problem, and an
    /// `@Injected` property for one is no missing registration.
    let perRequest: [TypeAndName: PerRequestDeclaration]

    init(
        timeout: Double, captiveRule: CaptiveRule, runsIsolatedFactories: Bool = false,
        perRequest: [TypeAndName: PerRequestDeclaration] = [:]
    ) {
        self.timeout = timeout
        self.captiveRule = captiveRule
        self.runsIsolatedFactories = runsIsolatedFactories
        self.perRequest = perRequest
    }

    // MARK: - Running

    /// Verifies `roots` (registrations of `copy`) one at a time, in order.
    func run(
        _ roots: [(registration: AnyRegistration, arguments: GivenArguments)],
        in copy: DependencyStore
    ) {
        for root in roots where !isSettled(root.registration) {
            // The root's node before those its build meets.
            _ = state.withLock { node(root.registration, in: &$0) }
            let done = DispatchSemaphore(value: 0)
            let worker = VerificationWorker(verifier: self) { done.signal() }
            start(worker) { root.registration.verifiable.resolveForVerification(in: copy, arguments: root.arguments) }
            if done.wait(timeout: .now() + timeout) == .timedOut {
                timedOut(root.registration, cause: worker)
            }
        }
    }

    /// Starts a thread of the verifier's own that runs `build` as `worker`'s.
    func start(_ worker: VerificationWorker, _ build: @escaping () -> Void) {
        startWorker {
            let stack = ResolutionStack.current
            stack.verificationWorker = worker
            WaitGraph.workerStarted(worker, on: stack)
            build()
            // A build that stopped on a problem never gets here: `park` ended the worker and
            // parked this thread for good.
            WaitGraph.workerFinished(worker)
            worker.end()
        }
    }

    /// Records that the build of `registration` ran past the timeout. A worker's build still
    /// holds its gates: a later build that needs one is told at once.
    func timedOut(_ registration: AnyRegistration, cause worker: VerificationWorker?) {
        let problem: VerificationProblem = state.withLock { state in
            let problem = VerificationProblem.timedOut(node(registration, in: &state), seconds: timeout)
            state.poisoned[ObjectIdentifier(registration)] = problem.summary
            state.problems.append(problem)
            return problem
        }
        if let worker { WaitGraph.workerStopped(worker, cause: problem.summary, keeping: nil) }
    }

    /// Whether `registration` needs no build of its own: it was built already (as a dependency of
    /// another), or its build was abandoned.
    func isSettled(_ registration: AnyRegistration) -> Bool {
        let id = ObjectIdentifier(registration)
        return state.withLock { $0.poisoned[id] != nil || $0.resolved.contains(id) }
    }

    /// The graph, the problems and the skipped registrations, once `run` has returned: `found`'s
    /// problems (the store's own, not met by a build) after those the builds met and before those
    /// read from the graph (captive and per-request dependencies), and `found`'s overrides.
    func report(
        store: DependencyStore, skipped: [AnyRegistration], isolated: [AnyRegistration], verifiedCount: Int,
        alternatives: [RegisteredDependency],
        found: (problems: [VerificationProblem], overrides: [VerificationReport.Override])
    ) -> VerificationReport {
        state.withLock { state in
            // A build still running past its timeout adds nothing from now on.
            state.finished = true
            let skippedNodes = skipped.map { node($0, in: &state) }
            let isolatedRoots = isolated.map { registration in
                (
                    node: node(registration, in: &state),
                    reason: registration.isolation == .mainActor
                        ? "its factory runs on the main actor" : "its factory is async"
                )
            }
            let graph = DependencyGraph(nodes: state.nodes, edges: state.edges)
            return VerificationReport(
                storeDescription: store.description,
                // Those skipped on the way (they resolve a main-actor or async registration) were
                // not verified either.
                verifiedCount: verifiedCount - Set(state.skippedForIsolation.map(\.node)).count,
                problems: state.problems + found.problems + Self.captives(in: graph, rule: captiveRule)
                    + Self.perRequestDependencies(in: graph),
                skipped: skippedNodes,
                graph: graph,
                isolationSkips: isolatedRoots + state.skippedForIsolation,
                overrides: found.overrides,
                alternatives: alternatives
            )
        }
    }

    // MARK: - Hooks the store calls on a verification copy

    /// A resolve of `registration` is starting: records the edge from the registration being built
    /// on this thread, and stops here, reporting the cause, when `registration` was abandoned
    /// before.
    func willResolve(
        _ registration: AnyRegistration,
        requestedBy requester: AnyRegistration? = Verifier.innermostBuild()
    ) {
        // What a completion step resolves is still verified as a root of its own: built first, it
        // may close a cycle through the step that building it inside the step cannot show.
        let inStep = ResolutionStack.currentIfCreated?.completion?.isRunning ?? false
        let cause: String? = state.withLock { state in
            guard !state.finished else { return nil }
            let to = node(registration, in: &state)
            if let requester {
                addEdge(from: node(requester, in: &state), to: to, isLazy: false, in: &state)
            }
            if !inStep { state.resolved.insert(ObjectIdentifier(registration)) }
            return state.poisoned[ObjectIdentifier(registration)]
        }
        if let cause, isWorkerThread {
            abort(blockedOn: (registration.type, registration.name), by: cause)
        }
    }

    /// An `@Injected` (or `@OptionalInjected`) property was created while a factory ran: records
    /// the edge it will resolve on first read, and a missing registration unless it is optional.
    func declared(
        _ declaredType: Any.Type, name: String?, optional: Bool, in store: DependencyStore, at location: SourceLocation,
        resolvedEachUse: Bool = false
    ) {
        guard let requester = ResolutionStack.current.frames.last?.registration else { return }
        // A property holding a Provider or Lazy depends on what the handle resolves.
        let handle = declaredType as? any DependencyHandle.Type
        let type = handle?.valueType ?? declaredType
        let eachUse = resolvedEachUse || (handle?.resolvesEachUse ?? false)
        // A collection the store assembles depends on every element (the copy has no parent).
        let targets: [AnyRegistration] =
            if let target = store.ownRegistration(for: ObjectIdentifier(type), name: name) {
                [target]
            } else if name == nil, let collection = type as? any ContributedCollection.Type {
                collection.elements(in: store).map(\.registration)
            } else { [] }
        state.withLock { state in
            guard !state.finished else { return }
            let from = node(requester, in: &state)
            if !targets.isEmpty {
                for target in targets {
                    addEdge(
                        from: from, to: node(target, in: &state), isLazy: true, resolvesEachUse: eachUse, in: &state)
                }
            } else if isProvidedPerRequest(type, name: name) {
                // Optional or not: what it reads in a request's store is a request's value.
                addEdge(
                    from: from, to: node(unregistered: .perRequest(type, name: name), in: &state), isLazy: true,
                    in: &state)
            } else if !optional {
                let missing = node(unregistered: .missing(type, name: name), in: &state)
                addEdge(from: from, to: missing, isLazy: true, in: &state)
                let chain = ResolutionStack.current.registrations().map { node($0, in: &state) }
                state.problems.append(.missing(chain + [missing], lazyAt: location))
            }
        }
    }

    /// Whether this thread is one of this verifier's workers, so a trap may become `abort`.
    var isWorkerThread: Bool {
        ResolutionStack.currentIfCreated?.verificationWorker?.verifier === self
    }

    /// Records `error` (a resolve of `subject` failed on this worker) and stops the worker. A
    /// type declared provided per request stops it too, as satisfied: no problem is recorded.
    func abort(_ error: ResolutionError, subject: (type: Any.Type, name: String?)) -> Never {
        let chain = Self.buildsOnThisWorker()
        if let cause = perRequestStop(error, subject: subject, chain: chain) {
            park(problem: nil, perRequestCause: cause)
        }
        park(problem: problem(for: error, subject: subject, chain: chain))
    }

    /// Whether `type` (under `name`) is declared provided per request.
    private func isProvidedPerRequest(_ type: Any.Type, name: String?) -> Bool {
        perRequest[TypeAndName(type: ObjectIdentifier(type), name: name)] != nil
    }

    /// When `error` is a missing registration of a type declared provided per request (asked for
    /// as itself, or as a `Provider` or `Lazy` of it): records the edge to it from the innermost
    /// build of `chain`, and returns the cause that build stops with, which is not a problem.
    /// `nil` for any other failure.
    private func perRequestStop(
        _ error: ResolutionError, subject: (type: Any.Type, name: String?), chain: [AnyRegistration]
    ) -> String? {
        guard error.kind == .notRegistered else { return nil }
        let handle = subject.type as? any DependencyHandle.Type
        let type = handle?.valueType ?? subject.type
        guard isProvidedPerRequest(type, name: subject.name) else { return nil }
        return state.withLock { state in
            let value = node(unregistered: .perRequest(type, name: subject.name), in: &state)
            if let last = chain.last, !state.finished {
                addEdge(from: node(last, in: &state), to: value, isLazy: handle != nil, in: &state)
            }
            let cause = "it needs \(value.labelWithScope), which verify() treats as given"
            state.perRequestCauses.insert(cause)
            return cause
        }
    }

    /// What the worker on this thread is building, outermost first: the `async` factories around
    /// it, then the factories on this thread.
    static func buildsOnThisWorker() -> [AnyRegistration] {
        let stack = ResolutionStack.current
        return (stack.verificationWorker?.asyncChain ?? []) + stack.completionChain + stack.registrations()
    }

    /// The registration being built innermost on this worker, if any: what a resolve made now is
    /// a dependency of.
    static func innermostBuild() -> AnyRegistration? {
        let stack = ResolutionStack.current
        return stack.frames.last?.registration ?? stack.completion?.running?.registration
            ?? stack.verificationWorker?.asyncChain.last
    }

    /// Records `error`, which a resolve of `subject` made in an `async` chain failed with, while
    /// `verifyAsync()` runs `async` factories: the caller throws, and the factories above it
    /// rethrow it.
    func record(_ error: ResolutionError, subject: (type: Any.Type, name: String?), chain: [AnyRegistration]) {
        // A type provided per request ends the `async` factories as satisfied, with its edge.
        if perRequestStop(error, subject: subject, chain: chain) != nil { return }
        let problem = problem(for: error, subject: subject, chain: chain)
        state.withLock { $0.add(problem) }
    }

    /// The problem `error` is, in a resolve of `subject` made while `chain` was being built; `nil`
    /// for one that only means the registration cannot be verified here (see `.wrongIsolation`).
    private func problem(
        for error: ResolutionError,
        subject: (type: Any.Type, name: String?),
        chain: [AnyRegistration]
    ) -> VerificationProblem? {
        state.withLock { state in
            guard !state.finished else { return nil }
            let nodes = chain.map { node($0, in: &state) }
            switch error.kind {
            case .notRegistered:
                // For a Provider or Lazy, what is missing is what it resolves.
                let type = (subject.type as? any DependencyHandle.Type)?.valueType ?? subject.type
                let missing = node(unregistered: .missing(type, name: subject.name), in: &state)
                if let last = nodes.last {
                    addEdge(from: last, to: missing, isLazy: false, in: &state)
                }
                return .missing(nodes + [missing], lazyAt: nil)
            case .cycle:
                guard !nodes.isEmpty else {
                    let node = withRegistrationOf(subject, appendedTo: [], in: &state)
                    return .cycle(node + node)
                }
                let start =
                    chain.firstIndex {
                        $0.type == subject.type && $0.name == subject.name
                    } ?? 0
                return .cycle(Array(nodes[start...]) + [nodes[start]])
            case .wrongIsolation where !runsIsolatedFactories || Self.isOnMainActor(error):
                // Not wrong: verify() builds on threads of its own, where a main-actor or async
                // factory cannot run. The registration being verified is listed as skipped.
                if let root = chain.first {
                    let how = Self.isOnMainActor(error) ? "runs on the main actor" : "is async"
                    let reason = "it needs \(Diagnostics.shortName(of: subject.type)), whose factory \(how)"
                    state.skippedForIsolation.append((node(root, in: &state), reason))
                }
                return nil
            default:
                // Wrong arguments, an invalid scope; in verifyAsync(), a synchronous resolve of an
                // async registration, which traps wherever it runs. The registration whose resolve
                // failed is not on the chain (it was refused before its factory ran, or after it
                // returned): it ends the path, after its dependent.
                return .failed(withRegistrationOf(subject, appendedTo: nodes, in: &state), message: error.description)
            }
        }
    }

    /// Whether `error` is a main-actor registration resolved off the main actor (rather than an
    /// `async` one resolved synchronously): asked of its reason, not of its text.
    private static func isOnMainActor(_ error: ResolutionError) -> Bool {
        if case .wrongIsolation(_, let onMainActor, _) = error.diagnosis { return onMainActor }
        return false
    }

    /// Records that this worker needs `subject`, which a stopped worker holds (or whose build was
    /// abandoned), because of `cause`, and parks the worker. When that build stopped at a type
    /// provided per request, this one stops the same way, reporting nothing: what it needs
    /// depends on a request's value.
    func abort(blockedOn subject: (type: Any.Type, name: String?), by cause: String) -> Never {
        let perRequestCause: String? = state.withLock { state in
            state.perRequestCauses.contains(cause)
                ? cause : state.perRequestStops[TypeAndName(type: ObjectIdentifier(subject.type), name: subject.name)]
        }
        if let perRequestCause { park(problem: nil, perRequestCause: perRequestCause) }
        let chain = Self.buildsOnThisWorker()
        // With nothing built on this worker, `subject` is the root whose own build stopped (a
        // main-actor factory, on the main actor): the problem that stopped it is in the report,
        // and "X needs X, whose build stopped" would only repeat it.
        let problem: VerificationProblem? = state.withLock { state in
            guard !state.finished, !chain.isEmpty else { return nil }
            let nodes = withRegistrationOf(subject, appendedTo: chain.map { node($0, in: &state) }, in: &state)
            return .blocked(nodes, by: cause)
        }
        park(problem: problem)
    }

    /// `path`, ending with the node of the registration for `subject` (once), if one was met.
    private func withRegistrationOf(
        _ subject: (type: Any.Type, name: String?),
        appendedTo path: [DependencyGraph.Node],
        in state: inout State
    ) -> [DependencyGraph.Node] {
        let type = Diagnostics.shortName(of: subject.type)
        let registered = state.nodes.first { $0.scope != nil && $0.type == type && $0.name == subject.name }
        guard let registered, path.last != registered else { return path }
        return path + [registered]
    }

    // MARK: - Private

    /// Ends this worker's part: records `problem`, marks the chain abandoned, releases `verify()`
    /// and stops the build. Every stopped build has a problem of its own in the report, and a
    /// later build that needs what it holds is reported at once, with its cause. A build stopped
    /// at a type provided per request (`perRequestCause`) has none: a later build that needs what
    /// it holds stops the same way.
    ///
    /// A worker's own thread is parked for good: its frames, the factories' included, are never
    /// run to their end and never abandoned, so whatever they hold stays held (the copy's gates, a
    /// lock of the factory's own, a task-local binding, an `inout` access), and what they retain is
    /// never released. One thread per stopped build outlives `verify()`, asleep. The main actor,
    /// which `verifyAsync()` borrows for a main-actor factory, can be neither parked (the app's
    /// or the test's main actor would stop) nor left (Swift defines no way out of a frame but its
    /// end): a main-actor build that stops ends the process, with every problem found so far.
    private func park(problem: VerificationProblem?, perRequestCause: String? = nil) -> Never {
        let stack = ResolutionStack.current
        let chain = Self.buildsOnThisWorker()
        let cause = perRequestCause ?? problem?.summary ?? "an earlier problem"
        state.withLock { state in
            state.add(problem)
            for registration in chain where state.poisoned[ObjectIdentifier(registration)] == nil {
                state.poisoned[ObjectIdentifier(registration)] = cause
                if let perRequestCause {
                    let key = TypeAndName(type: ObjectIdentifier(registration.type), name: registration.name)
                    state.perRequestStops[key] = perRequestCause
                }
            }
        }
        guard let worker = stack.verificationWorker else {
            preconditionFailure("DependencyStore.verify(): a problem was recorded outside a verified build")
        }
        if worker.ownsThread {
            // The stack, and so this thread's name in `WaitGraph`, lives as long as the gates this
            // thread holds: for good.
            WaitGraph.workerStopped(worker, cause: cause, keeping: stack)
            stack.withdrawForParking()
            worker.end()
            Self.parkForever()
        }
        // The main actor's thread: the factory can never return, and the thread can be neither
        // parked nor left.
        let found = state.withLock { $0.problems }
        fatalError(Self.mainActorStop(cause: cause, chain: chain, problem: problem, found: found))
    }

    /// What a main-actor build that stopped ends the process with: the stopped build first, then
    /// every problem found before it, and what to do.
    private static func mainActorStop(
        cause: String, chain: [AnyRegistration], problem: VerificationProblem?, found: [VerificationProblem]
    ) -> String {
        let build =
            chain.last { $0.isolation == .mainActor }.map { Diagnostics.shortName(of: $0.type) } ?? "a registration"
        let others = found.filter { $0 != problem }.map { "  - \($0)" }
        return
            ([
                "DependencyStore.verifyAsync(): the main-actor factory of \(build) stopped: \(problem.map { "\($0)" } ?? cause).",
                "Swift has no defined way to leave a factory's frames on the main actor, and the main actor cannot be "
                    + "parked, so verification ends the process here.",
                "",
                others.isEmpty ? "No other problem was found before it." : "Found before it:",
            ] + others + [
                "",
                "To fix: fix the problem above (a main-actor factory is built last, after every other registration). "
                    + "A main-actor factory may not resolve a type provided per request: pass the value in instead.",
            ]).joined(separator: "\n")
    }

    /// Parks a worker's thread whose build can never return, for good: nothing signals the
    /// semaphore. The thread holds what its frames hold, and costs its stack's address space and
    /// a kernel thread, asleep.
    private static func parkForever() -> Never {
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }

    private func node(_ registration: AnyRegistration, in state: inout State) -> DependencyGraph.Node {
        let key = NodeKey.registration(ObjectIdentifier(registration))
        return node(key, in: &state) {
            // Described as the store lists it (`DependencyStore.registrations`): one source for
            // the listing, these nodes and the pictures drawn from them.
            let entry = RegisteredDependency(registration, keptInstances: 0, inheritedFrom: nil)
            return DependencyGraph.Node(
                key: key,
                type: entry.type,
                name: entry.name,
                scope: entry.scope,
                registeredAt: entry.registeredAt,
                isContribution: entry.isContribution,
                alternative: Self.alternative(builtBy: registration),
                expiresAfter: registration.cacheLifetime()
            )
        }
    }

    /// The node of `key`: the one met before, or the one `make` makes, added in the order met.
    private func node(
        _ key: NodeKey, in state: inout State, _ make: () -> DependencyGraph.Node
    ) -> DependencyGraph.Node {
        if let index = state.nodeIndex[key] { return state.nodes[index] }
        let node = make()
        state.nodeIndex[key] = state.nodes.count
        state.nodes.append(node)
        return node
    }

    /// What a node says of the factory a verification copy of a registration with alternatives
    /// builds: `on .test`, `default` for its own factory when an alternative is in force, or
    /// `nil` for its own factory in force (and any other registration).
    private static func alternative(builtBy registration: AnyRegistration) -> String? {
        guard let choices = registration.role.contextChoices, let verified = choices.verified else { return nil }
        if let index = verified.alternative { return "on \(choices.alternatives[index].context)" }
        return verified.isInForce ? nil : "default"
    }

    /// The node of a type nothing registers (missing, or provided per request): the one met
    /// before with `node`'s key, or `node`.
    private func node(unregistered node: DependencyGraph.Node, in state: inout State) -> DependencyGraph.Node {
        self.node(node.key, in: &state) { node }
    }

    private func addEdge(
        from: DependencyGraph.Node, to: DependencyGraph.Node, isLazy: Bool, resolvesEachUse: Bool = false,
        in state: inout State
    ) {
        let edge = DependencyGraph.Edge(from: from, to: to, isLazy: isLazy, resolvesEachUse: resolvesEachUse)
        if state.edgeSet.insert(edge).inserted { state.edges.append(edge) }
    }

    func startWorker(_ work: @escaping () -> Void) {
        let context = Unmanaged.passRetained(WorkerContext(work)).toOpaque()
        // Darwin-only, here and at pthread_detach below: pthread_t is an optional pointer there.
        // Each #else line is the same call on Linux, where pthread_t is an integer.
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        // A deep chain of factories recurses once per link: give workers room for thousands of
        // links (Darwin's default for a secondary thread is 512 KiB, enough for a few hundred).
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Self.workerStackSize)
        let result = pthread_create(&thread, &attributes, runWorker, context)
        precondition(
            result == 0, "DependencyStore.verify(): could not start a thread (pthread_create returned \(result))")
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
    }

    private static let workerStackSize = 16 << 20

    // MARK: - Captive dependencies

    /// Every instance the store keeps (`.singleton`, custom scopes) that holds, directly or through
    /// instances built for it alone (`.unique`, `.graph`), one that should live less long, as
    /// `rule` defines it.
    static func captives(in graph: DependencyGraph, rule: CaptiveRule) -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        // A `Provider` keeps nothing: it resolves at each call, as its scope says.
        let holding = graph.edges.filter { !$0.resolvesEachUse }
        // The holders: app-wide instances the store keeps strongly (`.singleton`, custom scopes).
        let kept = graph.nodes.filter { $0.scope.map(isAppWide) == true && $0.scope != .weak }
        walk(from: kept, along: holding) { path in
            guard let scope = path.last!.scope else { return false }
            // A held instance that expires (`expiring(after:)`) is closed by its expiry while the
            // holder still uses it: even a holder with the same expiry was kept after it was, so
            // outlives it a little.
            if outlives(path[0].scope!, scope, rule: rule) || path.last!.expiresAfter != nil {
                problems.append(.captive(path, rule: rule))
            }
            // A unique or graph instance is owned by whoever holds it: follow its edges.
            return scope.kind == .unique || scope.kind == .graph
        }
        return problems
    }

    // MARK: - Per-request dependencies

    /// Every app-wide instance (`.singleton`, `.weak`, a custom scope) whose graph reaches a type
    /// declared provided per request, through any registrations and `@Injected` properties, with
    /// the shortest chain to each such type: a request's store builds its own of each.
    static func perRequestDependencies(in graph: DependencyGraph) -> [VerificationProblem] {
        guard graph.nodes.contains(where: \.isProvidedPerRequest) else { return [] }
        var problems: [VerificationProblem] = []
        walk(from: graph.nodes.filter { $0.scope.map(isAppWide) == true }, along: graph.edges) { path in
            guard path.last!.isProvidedPerRequest else { return true }
            problems.append(.perRequestDependency(path))
            return false
        }
        return problems
    }

    /// Walks `edges` breadth-first from each of `starts` in turn, meeting each node once a start:
    /// calls `visit` with the shortest path from the start to it, and walks on past it when
    /// `visit` returns `true`.
    private static func walk(
        from starts: [DependencyGraph.Node], along edges: [DependencyGraph.Edge],
        _ visit: ([DependencyGraph.Node]) -> Bool
    ) {
        var outgoing: [DependencyGraph.Node: [DependencyGraph.Node]] = [:]
        for edge in edges {
            outgoing[edge.from, default: []].append(edge.to)
        }
        for start in starts {
            var visited: Set<DependencyGraph.Node> = [start]
            var paths = [[start]]
            while !paths.isEmpty {
                let path = paths.removeFirst()
                for next in outgoing[path.last!] ?? [] where visited.insert(next).inserted {
                    if visit(path + [next]) { paths.append(path + [next]) }
                }
            }
        }
    }

    /// Whether one instance of a registration of this scope is shared by everything that resolves
    /// it from the store, across requests: not `.unique` or `.graph`, which each resolve builds.
    private static func isAppWide(_ scope: Scope) -> Bool {
        switch scope.kind {
        case .singleton, .weak, .custom: true
        case .unique, .graph: false
        }
    }

    /// Whether an instance of `holder`'s scope, holding one of `held`'s, keeps it too long.
    ///
    /// By default only a *scoped* lifetime held by a longer-lived holder counts, as .NET's scope
    /// validation defines it: a custom scope (ended by `reset`) or `.weak` (ended when its last
    /// holder lets go) that a kept instance would hold past its end. A `.unique` or `.graph`
    /// instance promises no end, so a singleton holding one is the seed's ordinary idiom
    /// (`register(Service.shared, for: ...)` is `.unique`). `.strict` reports those too.
    private static func outlives(_ holder: Scope, _ held: Scope, rule: CaptiveRule) -> Bool {
        switch (holder.kind, held.kind) {
        case (_, .unique), (_, .graph): rule == .strict
        case (.singleton, .singleton): false
        case (.singleton, _): true
        case (.custom(let a), .custom(let b)): a != b
        case (.custom, .singleton): false
        case (.custom, _): true
        default: false
        }
    }
}

extension Verifier: @unchecked Sendable {}

/// Marks a thread as one of a verifier's workers, with what to signal when its registration is
/// done or abandoned.
final class VerificationWorker: @unchecked Sendable {
    let verifier: Verifier
    /// Whether the worker is a thread of the verifier's own, which parks for good when its build
    /// stops; not the main actor's, which `verifyAsync()` borrows for a main-actor factory.
    let ownsThread: Bool
    /// The `async` factories being built around this worker's build, outermost first: the start
    /// of the path of a problem it meets.
    let asyncChain: [AnyRegistration]
    /// Called when the build returned, or stopped: once, from the worker's thread (never for the
    /// main actor's, whose stopped build ends the process).
    let end: @Sendable () -> Void

    init(
        verifier: Verifier, ownsThread: Bool = true, asyncChain: [AnyRegistration] = [],
        end: @escaping @Sendable () -> Void = {}
    ) {
        self.verifier = verifier
        self.ownsThread = ownsThread
        self.asyncChain = asyncChain
        self.end = end
    }
}

private final class WorkerContext {
    let work: () -> Void

    init(_ work: @escaping () -> Void) {
        self.work = work
    }
}

// Darwin-only: the start routine takes a non-optional pointer there. It mirrors the Linux one
// below, which must unwrap the optional pointer Glibc and Musl declare.
#if canImport(Darwin)
private func runWorker(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<WorkerContext>.fromOpaque(context).takeRetainedValue().work()
    return nil
}
#else
private func runWorker(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<WorkerContext>.fromOpaque(context).takeRetainedValue().work()
    return nil
}
#endif
