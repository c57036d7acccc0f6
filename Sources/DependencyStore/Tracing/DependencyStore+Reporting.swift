// How a store with observers times and reports its resolves. A store without observers never
// comes here: its lookups see no `observers` and take the paths they always took.

internal import DependencyStoreAtomics

/// How many `async` factories are running, in any task: while none is, no task has a chain of
/// builds, and an event's chain does not read the task-local one (a hundred instructions and more).
private nonisolated(unsafe) let asyncFactoriesRunning = makeProcessCounter()

extension DependencyStore {
    /// A resolve of a store that has observers: timed, then reported on this thread, once the
    /// factory returned and every lock and gate is released. A resolve made by an observer is
    /// neither timed nor reported.
    @inline(never)
    func resolveReporting<T>(
        _ found: Found,
        as type: T.Type,
        arguments: GivenArguments,
        requester: Requester
    ) throws(ResolutionError) -> T {
        // A built instance of a plain registration: nothing runs, so there is nothing to time, and
        // the event is all that is left to do.
        // (Not bound to a name: a binding would keep the instance retained across the report.)
        if found.kept != nil, found.registration.isPlain, case .none = arguments, verifier == nil {
            let instance = Self.instance(found.kept.unsafelyUnwrapped, as: type, lifetime: found.registration.lifetime)
            reportReuse(of: found.registration, in: found.slot)
            return instance
        }
        return try resolveTimed(found, as: type, arguments: arguments, requester: requester)
    }

    /// `resolveReporting` of a registration that may build: out of line, so that a kept
    /// instance's resolve does not set up this one's frame.
    @inline(never)
    private func resolveTimed<T>(
        _ found: Found,
        as type: T.Type,
        arguments: GivenArguments,
        requester: Requester
    ) throws(ResolutionError) -> T {
        let stack = ResolutionStack.current
        let trace = stack.tracing
        guard !trace.isNotifying else {
            return try resolve(found, as: type, arguments: arguments, observed: false, requester: requester)
        }
        // A build nested in this resolve sets `lastBuild` too, but this resolve's own build, if it
        // runs one, returns after them and sets it last; a resolve that builds nothing (a kept
        // instance, a build another thread ran) leaves it as cleared here.
        trace.lastBuild = nil
        let value = try resolve(found, as: type, arguments: arguments, requester: requester, stage: TimedBuild.self)
        let build = trace.lastBuild
        trace.lastBuild = nil
        report(found.registration, build: build, chain: chain(on: stack), slot: found.slot)
        return value
    }

    /// Reports a resolve that returned a kept instance, unless an observer on this thread made it:
    /// out of line and not generic, so that the resolve carries none of it.
    @inline(never)
    private func reportReuse(of registration: AnyRegistration, in slot: InstanceSlot?) {
        ResolutionStack.withCurrent { stack in
            stack.withTracing { trace in
                guard !trace.isNotifying,
                    let (observers, event) = observedEvent(
                        of: registration, build: nil, in: slot, chain: chain(on: stack))
                else { return }
                observers.notify(event, on: trace)
            }
        }
    }

    /// This store's observers, if it has any, and the event to call them with: with the details
    /// `slot` keeps (made by the first such event) when there is no chain, new ones otherwise. One
    /// critical section, the one that reads the observers.
    @inline(__always)
    private func observedEvent(
        of registration: AnyRegistration, build: ResolveEvent.Build?, in slot: InstanceSlot?,
        chain links: [ResolveEvent.Link]?
    ) -> (ResolveObservers, ResolveEvent)? {
        var details: ResolveEvent.Details?
        let observers = registry.withLock { registry -> ResolveObservers? in
            guard let observers = registry.observers else { return nil }
            if links == nil, let slot {
                if slot.eventDetails == nil {
                    slot.eventDetails = ResolveEvent.Details(registration, store: observers.store, links: nil)
                }
                details = slot.eventDetails
            }
            return observers
        }
        guard let observers else { return nil }
        let event = ResolveEvent(
            type: registration.type, build: build,
            details: details ?? ResolveEvent.Details(registration, store: observers.store, links: links))
        return (observers, event)
    }

    /// Runs an `async` registration's factory in `chain`; when `timed`, also measures it as
    /// `TimedBuild` does, with the builds it asks for counted in a task-local `NestedTime`.
    func runAsyncFactory<T>(
        _ registration: Registration<T>,
        in chain: AsyncResolution,
        requester: Requester,
        timed: Bool
    ) async throws -> (value: T, build: ResolveEvent.Build?) {
        let buildAsync = registration.buildAsync!
        dependency_store_add(asyncFactoriesRunning, 1)
        defer { dependency_store_add(asyncFactoriesRunning, -1) }
        let run = {
            try await AsyncResolution.$current.withValue(chain) {
                self.decoratedIfAny(
                    try await buildAsync(self, requester), of: registration, deferringCompletions: false)
            }
        }
        guard timed else { return (try await run(), nil) }
        let clock = Tracing.clock
        let outer = NestedTime.current
        let nested = NestedTime()
        let start = clock.now()
        do {
            let value = try await NestedTime.$current.withValue(nested, operation: run)
            let nanoseconds = Tracing.elapsed(from: start, to: clock.now())
            outer?.add(nanoseconds)
            let own = nanoseconds - min(nested.nanoseconds, nanoseconds)
            return (value, ResolveEvent.Build(nanoseconds: nanoseconds, ownNanoseconds: own))
        } catch {
            // Nothing is reported for a factory that threw, but its time was spent in the outer one.
            outer?.add(Tracing.elapsed(from: start, to: clock.now()))
            throw error
        }
    }

    /// What is being built in the `async` chain `resolution` and on this thread, outermost first:
    /// types and names, which the event words only if an observer reads its `chain`; `nil` for
    /// none.
    @inline(__always)
    func chain(in resolution: AsyncResolution? = nil, on stack: ResolutionStack?) -> [ResolveEvent.Link]? {
        // Outside any factory, the usual case of a kept instance, there is nothing to look at.
        if resolution == nil, stack?.frames.isEmpty ?? true, dependency_store_load_relaxed(asyncFactoriesRunning) == 0 {
            return nil
        }
        return links(in: resolution, on: stack)
    }

    @inline(never)
    private func links(in resolution: AsyncResolution?, on stack: ResolutionStack?) -> [ResolveEvent.Link]? {
        // While no `async` factory runs, no task has a chain, and the task-local is not read.
        let inTasks =
            resolution?.chain
            ?? (dependency_store_load_relaxed(asyncFactoriesRunning) != 0 ? AsyncResolution.current.chain : [])
        var links = inTasks.map { ResolveEvent.Link(type: $0.registration.type, name: $0.registration.name) }
        if let stack, !stack.frames.isEmpty {
            links += stack.registrations().lazy.map { ResolveEvent.Link(type: $0.type, name: $0.name) }
        }
        return links.isEmpty ? nil : links
    }

    /// Calls this store's observers with the event, on this thread, with no lock held; the resolves
    /// they make are not reported.
    func report(
        _ registration: AnyRegistration, build: ResolveEvent.Build?, chain: [ResolveEvent.Link]?,
        slot: InstanceSlot? = nil, trace: ThreadTrace = ResolutionStack.current.tracing
    ) {
        guard let (observers, event) = observedEvent(of: registration, build: build, in: slot, chain: chain) else {
            return
        }
        observers.notify(event, on: trace)
    }
}

extension DependencyStore.Lookup {
    /// The registration to resolve, observed or not; `nil` for a kept instance.
    var found: DependencyStore.Found? {
        switch self {
        case .kept: nil
        case .valueUnderLock:
            // Only a resolve that takes kept instances is handed one, and hands the value out.
            preconditionFailure("DependencyStore: a lookup that left the store's lock held reached `found`")
        case .unkept(let registration, _), .borrowed(let registration, _):
            DependencyStore.Found(registration: registration, slot: nil, kept: nil)
        case .found(let found), .observed(let found): found
        }
    }

    /// Whether the store that looked it up has observers.
    var isObserved: Bool {
        if case .observed = self { true } else { false }
    }
}

/// The stage of a resolve of a store with observers: the build is timed, the inclusive time and
/// the time less the timed builds it asked for, which add their time to the build around them (on
/// this thread, or in the `async` factory that resolved synchronously). Decorators in scope run
/// as in `DecoratedBuild`, inside the time.
enum TimedBuild: ResolveStage {
    static func build<T>(
        _ registration: Registration<T>, in store: DependencyStore, arguments: GivenArguments,
        on stack: ResolutionStack
    ) -> T {
        let clock = Tracing.clock
        let trace = stack.tracing
        trace.nestedNanoseconds.append(0)
        let start = clock.now()
        let value = runFactory(registration, in: store, arguments: arguments, on: stack)
        let nanoseconds = Tracing.elapsed(from: start, to: clock.now())
        let nested = trace.nestedNanoseconds.removeLast()
        if let outer = trace.nestedNanoseconds.indices.last {
            trace.nestedNanoseconds[outer] &+= nanoseconds
        } else {
            NestedTime.current?.add(nanoseconds)
        }
        trace.lastBuild = ResolveEvent.Build(
            nanoseconds: nanoseconds, ownNanoseconds: nanoseconds - min(nested, nanoseconds))
        return value
    }

    static var decorates: Bool { true }
}
