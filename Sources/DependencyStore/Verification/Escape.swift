internal import DependencyStoreAtomics

/// How `verifyAsync()` leaves a main-actor factory that can never return: the one build the
/// verifier cannot park, since the main actor's thread is not its own (every other stopped build's
/// thread is parked for good; see `Verifier.park`).
///
/// A factory that asks for something missing waits for a value nobody can give it: on a resolve
/// that is not verifying, that is a trap. While verifying, the problem is recorded and the factory
/// is left: the thread jumps back to where verification started the build (`run`), abandoning the
/// frames in between without running them to their end. Swift does not define that: a frame that
/// bound a task-local, held an `inout` access or a lock of the factory's own leaves the runtime or
/// the user's code inconsistent, so this is to go (Verification.md says what to avoid meanwhile).
///
/// What it relies on:
/// - Only synchronous frames are abandoned, all on this thread, and all inside one job of the
///   main actor: the escape point is set inside the job.
/// - No lock is held while user code runs, so none is abandoned held. The gates the abandoned
///   frames held stay held, in the throw-away copy only; the registrations being built are marked
///   abandoned first, so that nothing waits at those gates again (see `Verifier.willResolve`).
/// - This thread's own bookkeeping (`ResolutionStack`) is put back as it was at `run`.
/// - What the abandoned frames retained is never released: objects of the copy, leaked once per
///   problem reported.
enum Escape {
    /// Runs `body`; `false` when a problem recorded while it ran left it through `leave()`.
    static func run(_ body: @escaping () -> Void) -> Bool {
        let stack = ResolutionStack.current
        let mark = stack.mark()
        // Retained for the call: an abandoned frame may hold one more reference, which is leaked.
        let box = Unmanaged.passRetained(Body(body))
        defer { box.release() }
        let returned = dependency_store_run_escapable(
            { context in Unmanaged<Body>.fromOpaque(context!).takeUnretainedValue().body() },
            box.toOpaque(), stack.escapePoint)
        if !returned { stack.restore(mark) }
        return returned
    }

    /// Whether this thread is inside `run`, so that `leave()` has somewhere to go.
    static var canLeave: Bool {
        ResolutionStack.currentIfCreated?.escapePoint.pointee != nil
    }

    /// Leaves the innermost `run` on this thread. Call only when `canLeave`.
    static func leave() -> Never {
        dependency_store_escape(ResolutionStack.current.escapePoint.pointee!)
    }

    private final class Body {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
