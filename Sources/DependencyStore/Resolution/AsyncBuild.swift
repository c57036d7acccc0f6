/// The build of an `async` registration's instance that `resolveAsync` callers await, so that its
/// factory runs once however many tasks ask for it first: the first creates the build, the others
/// await the same task. The task is not a child of any of them, so cancelling one waiter does not
/// cancel the build.
final class AsyncBuild {
    /// What is being built, for the message of a cycle.
    let registration: AnyRegistration
    /// Set once, under the owning store's lock, before the build is published in its slot.
    var task: Task<KeptInstance, any Error>!
    /// The build this one's factory is awaiting now, if any: guarded by `AsyncResolution.waits`.
    var awaiting: AsyncBuild?

    init(registration: AnyRegistration) {
        self.registration = registration
    }
}

extension AsyncBuild: @unchecked Sendable {}

/// What one task is resolving asynchronously: the chain of registrations it is building (which
/// may hop threads, so it lives in a task-local value, not on a thread), and the build it runs.
struct AsyncResolution: Sendable {
    /// The registrations being built by this chain, outermost first, each with its store's core.
    let chain: [Link]
    /// The innermost shared build this chain runs, if any.
    let build: AsyncBuild?

    struct Link: @unchecked Sendable {
        let registration: AnyRegistration
        let core: ObjectIdentifier
    }

    @TaskLocal static var current = AsyncResolution(chain: [], build: nil)

    /// The index of the link building `registration` in `core`, if this chain is already building
    /// it: a cycle.
    func indexOfLink(building registration: AnyRegistration, in core: StoreCore) -> Int? {
        chain.firstIndex { $0.registration === registration && $0.core == ObjectIdentifier(core) }
    }

    func appending(_ registration: AnyRegistration, in core: StoreCore, build: AsyncBuild? = nil) -> Self {
        Self(
            chain: chain + [Link(registration: registration, core: ObjectIdentifier(core))], build: build ?? self.build)
    }

    /// The builds that wait for one another, as `WaitGraph` keeps the threads.
    static let waits = Lock(())

    /// Marks this chain's build as awaiting `other`, unless `other` (through what it awaits)
    /// awaits this chain's build: then the two would wait for each other for ever, and the answer
    /// is the builds of that cycle, starting with `other`.
    func beginAwaiting(_ other: AsyncBuild) -> [AsyncBuild]? {
        guard let mine = build else { return nil }  // nothing awaits a chain that runs no build
        return Self.waits.withLock {
            var cycle: [AsyncBuild] = []
            var next: AsyncBuild? = other
            while let step = next, !cycle.contains(where: { $0 === step }) {
                cycle.append(step)
                if step === mine { return cycle }
                next = step.awaiting
            }
            mine.awaiting = other
            return nil
        }
    }

    func endAwaiting() {
        guard let mine = build else { return }
        Self.waits.withLock { mine.awaiting = nil }
    }
}
