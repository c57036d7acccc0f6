// Completion steps (`complete`): what closes a back-reference after the resolve that built both
// ends. A step is a decorator that returns what it was given and runs later: its instance is
// queued on the thread's chain, and the queue runs when the outermost build of the resolve ends,
// once every instance of that resolve is built, still inside that build (before a singleton is
// kept, so other threads never see its dependents incomplete). A resolve made by a step gets the
// instance being completed for a registration that keeps it (`.graph`, `.singleton`, custom,
// `.weak`), and a cycle for a `.unique` one.

internal import DependencyStoreAtomics

/// How many times a first completion step was noted (see `CompletionQueue.anyStepAdded`).
private nonisolated(unsafe) let stepsAdded = makeProcessCounter()

extension DependencyStore {
    /// Adds a completion step for the instances of `type` (registered under `name`) that this
    /// store, or a store layered over it, builds: it runs once the whole resolve that built the
    /// instance has built everything, so it can close a back-reference that would otherwise be a
    /// cycle, as Swinject's `initCompleted` does.
    ///
    /// ```swift
    /// store.register(Parent.self, scope: .graph) { store in Parent(child: store.resolve()) }
    /// store.register(Child.self, scope: .graph) { _ in Child() }
    /// store.complete(Child.self) { store, child in
    ///     child.parent = store.resolve(Parent.self)   // the Parent being built, not a cycle
    /// }
    /// ```
    ///
    /// The step runs on the resolving thread, after the outermost factory of the resolve returned
    /// and before that resolve returns, in the order the instances were built (so a child's step
    /// before its parent's). A resolve it makes of an instance of the same resolve gets that
    /// instance when its scope keeps it (`.graph`, `.singleton`, a custom scope, `.weak`); for a
    /// `.unique` registration it would build a new one, whose dependents would need completing
    /// again, so it traps as a cycle, with the chain. A step cannot replace the instance: use
    /// ``decorate(_:name:fileID:line:_:)`` for that. An `async` factory's instance is completed
    /// as soon as it is built.
    ///
    /// - Parameters:
    ///   - type: The type whose instances to complete.
    ///   - name: The name of the registration whose instances to complete; `nil` for the unnamed.
    ///   - fileID: Where the step is added, for diagnostics. Leave the default.
    ///   - line: The line where it is added. Leave the default.
    ///   - step: Receives the store that built the instance, and the instance.
    public func complete<T>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ step: @escaping (DependencyStore, T) -> Void
    ) {
        CompletionQueue.noteStepAdded()
        add(
            { store, value in
                step(store, value)
                return value
            }, of: type, target: .registration(name: name), at: SourceLocation(fileID: fileID, line: line),
            completes: true)
    }
}

/// The instances built on one thread whose completion steps have not run yet.
final class CompletionQueue {
    struct Pending {
        let store: DependencyStore
        let registration: AnyRegistration
        let instance: Any
        let steps: [Decorator]
        /// What was being built when the instance was, outermost first, itself last.
        let chain: [AnyRegistration]
    }

    /// Whether any completion step was ever added in this process: set once, never cleared, and
    /// read without a lock by every build of a stage that completes.
    static var anyStepAdded: Bool {
        dependency_store_load_relaxed(stepsAdded) != 0
    }

    static func noteStepAdded() {
        if !anyStepAdded { dependency_store_add(stepsAdded, 1) }
    }

    /// Builds of a completing stage running on this thread.
    var depth = 0
    var pending: [Pending] = []
    /// Every instance the resolve built so far, by store and registration: what a step's resolve
    /// gets for a registration that keeps its instance.
    var completing: [ResolutionStack.GraphKey: Any] = [:]
    /// The entry whose steps are running.
    var running: Pending?

    /// Whether completion steps are running on this thread.
    var isRunning: Bool { running != nil }
}

extension ResolutionStack {
    func queueCompletion(
        of instance: Any, by registration: AnyRegistration, in store: DependencyStore, steps: [Decorator]
    ) {
        completionQueue.pending.append(
            CompletionQueue.Pending(
                store: store, registration: registration, instance: instance, steps: steps,
                chain: completionChain + registrations()))
    }

    private var completionQueue: CompletionQueue {
        if let completion { return completion }
        let queue = CompletionQueue()
        completion = queue
        return queue
    }

    /// Runs `build`, a build of `registration` by a stage that may queue completion steps; when
    /// it is the outermost such build on this thread, runs the steps queued meanwhile, with the
    /// resolve's `.graph` instances still shared.
    func completingBuilds<T>(of registration: AnyRegistration, in store: DependencyStore, _ build: () -> T) -> T {
        // Until a program adds its first step, a build is only `build`: a deep chain's every level
        // pays no frame for what it cannot use.
        guard CompletionQueue.anyStepAdded else { return build() }
        let queue = completionQueue
        enterSharedGraph()
        queue.depth += 1
        let value = build()
        queue.depth -= 1
        // Every build of the resolve, whether or not its type has a step: a step may resolve any.
        queue.completing[GraphKey(store, registration)] = value
        if queue.depth == 0, !queue.isRunning {
            runCompletions(of: queue)
            queue.completing.removeAll()
        }
        leaveSharedGraph()
        return value
    }

    /// Runs the steps queued, and those they queue, in order.
    private func runCompletions(of queue: CompletionQueue) {
        var index = 0
        while index < queue.pending.count {
            let entry = queue.pending[index]
            index += 1
            queue.running = entry
            for step in entry.steps {
                _ = step.apply(entry.store, entry.instance)
            }
        }
        queue.pending.removeAll()
        queue.running = nil
    }

    /// For a resolve made while a completion step runs: the instance of `registration` that the
    /// resolve built, when its scope keeps it; the cycle, when it is a `.unique` one on the chain
    /// that built the instance being completed (a new one would need completing again); `nil`
    /// otherwise, and for a forward, which resolves its target.
    func instanceBeingCompleted(
        _ registration: AnyRegistration, in store: DependencyStore, requester: Requester
    ) throws(ResolutionError) -> Any? {
        guard let queue = completion, let running = queue.running else { return nil }
        if case .forward = registration.role { return nil }
        if registration.lifetime == .unique {
            guard running.chain.contains(where: { $0 === registration }) else { return nil }
            throw store.completionCycle(
                closedBy: registration, building: running.chain + registrations(), completing: running.registration,
                step: running.steps[0].location, requester: requester)
        }
        return queue.completing[GraphKey(store, registration)]
    }

    /// While a completion step runs: the chain that built the instance it completes, which a
    /// resolve it makes extends.
    var completionChain: [AnyRegistration] {
        completion?.running?.chain ?? []
    }
}

extension ResolutionStack.GraphKey {
    init(_ store: DependencyStore, _ registration: AnyRegistration) {
        self.init(store: ObjectIdentifier(store.core), registration: ObjectIdentifier(registration))
    }
}
