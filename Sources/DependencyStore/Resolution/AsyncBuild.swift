/// The build of an `async` registration's instance that `resolveAsync` callers await, so that its
/// factory runs once however many tasks ask for it first: the first creates the build, the others
/// await the same task. The task is not a child of any of them, so cancelling one waiter does not
/// cancel the build.
///
/// To `WaitGraph`, a build is an agent (its factory may await other builds) and a target (others
/// await it).
final class AsyncBuild {
    /// What is being built, for the message of a cycle.
    let registration: AnyRegistration
    /// Set once, under the owning store's lock, before the build is published in its slot.
    var task: Task<KeptInstance, any Error>!
    /// Set when the task has finished; guarded by `WaitGraph.state`.
    var isFinished = false
    /// The epoch of the `async` chain that started the build: where what it built goes if a
    /// removal takes its registration away meanwhile (see `keep`).
    let removals: AsyncChainEpoch?

    init(registration: AnyRegistration, removals: AsyncChainEpoch?) {
        self.registration = registration
        self.removals = removals
    }

    /// This build as `WaitGraph` names it: its address, unique while it exists, and the graph's
    /// entries that name it hold it.
    var identity: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }
}

extension AsyncBuild: @unchecked Sendable {}

/// What one task is resolving asynchronously: the chain of registrations it is building (which
/// may hop threads, so it lives in a task-local value, not on a thread), and the build it runs.
struct AsyncResolution: Sendable {
    /// The registrations being built by this chain, outermost first, each with its store's core.
    var chain: [Link] = []
    /// The innermost shared build this chain runs, if any: the agent that waits when the chain
    /// awaits another build. Child tasks (`async let`, task groups) inherit it, so every await in
    /// flight at once is a wait of the same build.
    var build: AsyncBuild?
    /// The removal epoch the chain began in (see `Tombstones`), held by every task of the chain,
    /// so that what a removal takes away after it began stays for as long as one of them runs.
    /// `nil` until the chain's first build.
    var removals: AsyncChainEpoch?

    struct Link: @unchecked Sendable {
        let registration: AnyRegistration
        let core: ObjectIdentifier
    }

    @TaskLocal static var current = AsyncResolution()

    /// The index of the link building `registration` in `core`, if this chain is already building
    /// it: a cycle.
    func indexOfLink(building registration: AnyRegistration, in core: StoreCore) -> Int? {
        chain.firstIndex { $0.registration === registration && $0.core == ObjectIdentifier(core) }
    }

    /// This chain, building `registration` in `core` next: in `build`, a shared build of its own,
    /// if there is one.
    func appending(_ registration: AnyRegistration, in core: StoreCore, build: AsyncBuild? = nil) -> Self {
        var next = self
        next.chain.append(Link(registration: registration, core: ObjectIdentifier(core)))
        next.build = build ?? self.build
        return next
    }

    /// Awaits `other`'s instance, registered in `WaitGraph` as a wait of this chain's build, unless
    /// `other` (through what it awaits) awaits this chain's build: then the two would wait for
    /// each other for ever, and `cycle` is called instead, with the waits of that cycle, this one
    /// first.
    func await(
        _ other: AsyncBuild,
        subject: @autoclosure () -> WaitSubject,
        cycle: ([WaitGraph.Waiter]) throws -> Never
    ) async throws -> KeptInstance {
        // Nothing waits for a chain that runs no build, so its wait cannot close a cycle.
        guard let mine = build else { return try await other.task.value }
        let waiter = WaitGraph.Waiter(target: .build(other), subject: subject(), chain: chain.map(\.registration))
        if case .cycle(let waits)? = WaitGraph.beginWait(of: mine.identity, as: waiter) { try cycle(waits) }
        defer { WaitGraph.endWait(of: mine.identity, for: .build(other)) }
        return try await other.task.value
    }
}
