/// A recording of the factories a store runs, started by ``DependencyStore/startRecording()``:
/// ``stop()`` ends it and returns the ``StartupReport``.
///
/// ```swift
/// let recording = DependencyStore.shared.startRecording()
/// // ... start-up ...
/// print(recording.stop())
/// ```
public final class StartupRecording {
    private let state: Lock<State>
    private let observation: ResolveObservation
    private let clock: Tracing.Clock

    private struct State {
        let start: UInt64
        /// The runs so far, added up by registration and store: each under its entry with no
        /// runs yet.
        var runs: [StartupReport.Entry: StartupReport.Entry] = [:]
        /// Set by the first `stop()`, which later ones return.
        var report: StartupReport?
    }

    init(store: DependencyStore) {
        let clock = Tracing.clock
        let state = Lock(State(start: clock.now()))
        self.clock = clock
        self.state = state
        // The observer holds the state, not the recording, so that releasing the recording
        // stops it.
        observation = store.observeResolves { event in
            guard let build = event.build else { return }
            let unrun = StartupReport.Entry(label: event.label, scope: event.scope, store: event.store)
            state.withLock { state in
                guard state.report == nil else { return }
                state.runs[unrun, default: unrun].add(build)
            }
        }
    }

    deinit {
        observation.cancel()
    }

    /// Ends the recording and returns what it recorded; a second call returns the same report.
    ///
    /// - Returns: The factories that ran since the recording started, slowest first.
    @discardableResult
    public func stop() -> StartupReport {
        observation.cancel()
        let end = clock.now()
        return state.withLock { state in
            if let report = state.report { return report }
            let report = StartupReport(
                entries: state.runs.values, elapsedNanoseconds: Tracing.elapsed(from: state.start, to: end))
            state.report = report
            return report
        }
    }
}

extension StartupRecording: Sendable {}
