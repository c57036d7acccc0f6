/// The observers installed on a store: in its registry, `nil` while there are none, so that a
/// lookup tells an observed store by one comparison with `nil`, in the critical section it
/// already holds. Never changed once made: installing or removing an observer replaces it, so a
/// resolve takes the list out of the lock as it is and calls it with no lock held.
final class ResolveObservers {
    let entries: [Entry]
    /// The observed store's description, made once when the first observer is installed (it never
    /// changes), so that an event costs no text.
    let store: String

    final class Entry {
        /// The observation that installed it, which removes it by identity.
        let observation: ResolveObservation
        let observer: @Sendable (ResolveEvent) -> Void

        init(observation: ResolveObservation, observer: @escaping @Sendable (ResolveEvent) -> Void) {
            self.observation = observation
            self.observer = observer
        }
    }

    private init(entries: [Entry], store: String) {
        self.entries = entries
        self.store = store
    }

    /// `observers` with one more, for the store `description` describes (made only for the
    /// first observer).
    static func adding(
        _ observer: @escaping @Sendable (ResolveEvent) -> Void,
        for observation: ResolveObservation,
        to observers: ResolveObservers?,
        of description: @autoclosure () -> String
    ) -> ResolveObservers {
        ResolveObservers(
            entries: (observers?.entries ?? []) + [Entry(observation: observation, observer: observer)],
            store: observers?.store ?? description())
    }

    /// Calls each observer with `event`, on this thread: the resolves they make are not reported.
    func notify(_ event: ResolveEvent, on trace: ThreadTrace) {
        let wasNotifying = trace.isNotifying
        trace.isNotifying = true
        defer { trace.isNotifying = wasNotifying }
        // The list never changes and the caller holds it, so each entry is called without the
        // retain and release of its closure that a copied-out `Entry` costs (about 40 instructions).
        for index in entries.indices {
            Unmanaged.passUnretained(entries[index])._withUnsafeGuaranteedRef { $0.observer(event) }
        }
    }

    /// `observers` without the one `observation` installed; `nil` when none is left.
    static func removing(_ observation: ResolveObservation, from observers: ResolveObservers?) -> ResolveObservers? {
        guard let observers else { return nil }
        let rest = observers.entries.filter { $0.observation !== observation }
        return rest.isEmpty ? nil : ResolveObservers(entries: rest, store: observers.store)
    }
}

extension ResolveObservers: @unchecked Sendable {}

/// What tracing keeps for one thread, made the first time a resolve of a store with observers
/// runs on it (see `ResolutionStack.tracing`). Only its own thread touches it, and never with two
/// overlapping accesses, so the run-time exclusivity checks are switched off for its fields, as
/// they are for the stack's.
final class ThreadTrace {
    /// Set while observers run on this thread: the resolves they make are not reported, so an
    /// observer that resolves is not called back for its own resolves, without end.
    @exclusivity(unchecked)
    var isNotifying = false
    /// For each timed build running on this thread, innermost last: the time of the timed builds
    /// it asked for so far, to subtract from its own.
    @exclusivity(unchecked)
    var nestedNanoseconds: [UInt64] = []
    /// What the last timed build on this thread measured: read, and cleared, by the reporting
    /// resolve around it.
    @exclusivity(unchecked)
    var lastBuild: ResolveEvent.Build?
}

extension ResolutionStack {
    /// This thread's trace, made on first use.
    var tracing: ThreadTrace {
        withTracing { $0 }
    }

    /// Runs `body` with this thread's trace, made on first use, without retaining it: the stack
    /// holds it for as long as the thread runs, and `body` runs on this thread.
    @inline(__always)
    func withTracing<R>(_ body: (ThreadTrace) -> R) -> R {
        if trace == nil { trace = ThreadTrace() }
        return Unmanaged.passUnretained(trace.unsafelyUnwrapped)._withUnsafeGuaranteedRef { body($0) }
    }
}

/// The time of the timed builds an `async` factory asked for, which may run on any thread: the
/// `async` counterpart of `ThreadTrace.nestedNanoseconds`, carried in a task-local value.
final class NestedTime: Sendable {
    private let total = Lock<UInt64>(0)

    @TaskLocal static var current: NestedTime?

    func add(_ nanoseconds: UInt64) {
        total.withLock { $0 &+= nanoseconds }
    }

    var nanoseconds: UInt64 {
        total.withLock { $0 }
    }
}
