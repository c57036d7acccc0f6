import Dispatch

// What `verifyAsync()` adds to `verify()`: main-actor factories built on the main actor, and
// `async` factories awaited in tasks, each under the same time bound as any build.

/// A value built by a verified build on another thread or actor, handed back to the one waiting
/// for it.
private final class HandedValue<T>: @unchecked Sendable {
    let target = WaitGraph.Handoff()
    let done = DispatchSemaphore(value: 0)
    /// Written by the main actor before `done` is signalled, read by the worker after.
    var value: T?
}

/// An error that ends an `async` factory `verifyAsync()` runs: a resolve it made failed, and the
/// problem is in the report already.
struct VerificationStop: Error {}

extension DependencyStore {
    /// On a worker of `verifyAsync()`: builds the main-actor `registration` on the main
    /// actor, as a `@MainActor` caller would, while this worker waits. The wait is a wait in
    /// `WaitGraph`, held by the main actor's thread once it runs the build, so a cycle through the
    /// two is reported rather than waited on. A problem on the main actor is recorded there, and
    /// this worker's build stops on it.
    func resolveOnMainActorForVerification<T>(
        _ registration: AnyRegistration, as type: T.Type, requester: Requester, verifier: Verifier
    ) -> T {
        let handoff = HandedValue<T>()
        let worker = ResolutionStack.current
        let waiter = WaitGraph.Waiter(
            target: .handoff(handoff.target), subject: .instance(registration, store: self),
            chain: worker.registrations())
        // Nobody holds the handoff yet, so this never closes a cycle.
        _ = WaitGraph.beginWait(of: worker.identity, as: waiter)
        let store = UncheckedSendable(self)
        let chain = UncheckedSendable(Verifier.buildsOnThisWorker())
        Task { @MainActor in
            verifier.onMainActor(handing: handoff.target, after: chain.value) {
                handoff.value = store.value.resolve(
                    T.self, name: registration.name, arguments: .none, requester: requester)
            }
            handoff.done.signal()
        }
        handoff.done.wait()
        WaitGraph.endWait(of: worker.identity, for: .handoff(handoff.target))
        guard let value = handoff.value else {
            verifier.abort(
                blockedOn: (registration.type, registration.name),
                by: "its factory, run on the main actor, stopped on a problem of this report")
        }
        return value
    }

    /// In `verifyAsync()`, what `resolveAsync` resolves synchronously (a plain registration, with
    /// the `arguments` it was given; a handle; a collection) on a verification copy, or, with
    /// `onMainActor`, a main-actor one: a problem on the way is recorded, as on a worker, and
    /// thrown as `VerificationStop`, so that the `async` factories awaiting it end too.
    func verifyingResolve<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments = .none, requester: Requester, verifier: Verifier,
        onMainActor: Bool
    ) async throws -> T {
        let chain = AsyncResolution.current.chain.map(\.registration)
        let handoff = HandedValue<T>()
        let store = UncheckedSendable(self)
        let given = UncheckedSendable(arguments)
        let resolve = {
            handoff.value = store.value.resolve(type, name: name, arguments: given.value, requester: requester)
        }
        if onMainActor {
            await MainActor.run { verifier.onMainActor(handing: nil, after: chain, resolve) }
        } else {
            await verifier.onWorker(after: chain, resolve)
        }
        // Not set when the build stopped on a problem.
        guard let value = handoff.value else { throw VerificationStop() }
        return value
    }
}

extension Verifier {
    /// Runs `body` on this thread, the main actor's, as a verified build that `chain` asked for,
    /// holding `handoff` meanwhile. A problem it meets ends the process with the report so far
    /// (see `park`), since the main actor's thread can be neither parked nor left.
    @MainActor
    func onMainActor(handing handoff: WaitGraph.Handoff?, after chain: [AnyRegistration], _ body: () -> Void) {
        let stack = ResolutionStack.current
        if let handoff { WaitGraph.hold(handoff, by: stack.identity) }
        let saved = stack.verificationWorker
        stack.verificationWorker = VerificationWorker(verifier: self, ownsThread: false, asyncChain: chain)
        defer {
            stack.verificationWorker = saved
            if let handoff { WaitGraph.hold(handoff, by: nil) }
        }
        body()
    }

    /// Runs `body`, a synchronous resolve an `async` factory made in `verifyAsync()`, as a
    /// verified build that `chain` asked for, on a worker of its own, and returns when it returns
    /// or stops: a problem it meets is recorded and parks the worker for good (see `park`). Never
    /// on the task's own thread, which belongs to the concurrency pool and cannot be parked or left.
    func onWorker(after chain: [AnyRegistration], _ body: @escaping () -> Void) async {
        let body = UncheckedSendable(body)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start(VerificationWorker(verifier: self, asyncChain: chain) { continuation.resume() }) { body.value() }
        }
    }

    /// Awaits each `async` registration of `roots` in a task of its own, one at a time, each
    /// bounded by the timeout: what `verify()` lists as skipped for being `async`.
    func runAsync(_ roots: [AnyRegistration], in copy: DependencyStore) async {
        for root in roots where !isSettled(root) {
            let unchecked = UncheckedSendable((root, copy))
            let done = DispatchSemaphore(value: 0)
            Task {
                _ = try? await unchecked.value.0.verifiable.resolveAsyncForVerification(in: unchecked.value.1)
                done.signal()
            }
            // A build that runs past the timeout is left running.
            let timeout = timeout
            if await !onThreadOfItsOwn({ done.wait(timeout: .now() + timeout) == .success }) {
                timedOut(root, cause: nil)
            }
        }
    }

    /// Runs `body` on a thread of the verifier's own and returns what it returns, so that the
    /// awaiting task (perhaps on the main actor, which verified builds may need) only awaits.
    func onThreadOfItsOwn<R: Sendable>(_ body: @escaping () -> R) async -> R {
        await withCheckedContinuation { continuation in
            startWorker { continuation.resume(returning: body()) }
        }
    }
}

/// A value carried into a task that the compiler cannot see is used safely: a store or a
/// registration of a verification copy, which verification uses from one build at a time.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The stage of every resolve of a verification copy: the edge from the build that asked is
/// recorded before anything else, so a resolve that fails is in the graph too; and, in
/// `verifyAsync()`, a main-actor factory is built on the main actor (see
/// `resolveOnMainActorForVerification`). Decorators in scope run as in `DecoratedBuild`.
enum VerifiedBuild: ResolveStage {
    static func willResolve<T>(
        _ registration: AnyRegistration, as type: T.Type, arguments: GivenArguments, in store: DependencyStore,
        requester: Requester
    ) throws(ResolutionError) -> Any? {
        let verifier = store.verifier!
        verifier.willResolve(registration)
        if let stack = ResolutionStack.currentIfCreated,
            let value = try stack.instanceBeingCompleted(registration, in: store, requester: requester)
        {
            return value
        }
        guard registration.isolation == .mainActor, verifier.runsIsolatedFactories, registration.accepts(arguments),
            !isOnMainActor()
        else { return nil }
        return store.resolveOnMainActorForVerification(registration, as: type, requester: requester, verifier: verifier)
    }

    static var decorates: Bool { true }
}
