/// The factories a store ran during start-up, slowest first: what
/// ``DependencyStore/recordStartup(_:)`` and ``StartupRecording/stop()`` return.
///
/// ```swift
/// let report = DependencyStore.shared.recordStartup {
///     DependencyStore.shared.registerAll()
///     _ = DependencyStore.shared.resolve(AppModel.self)
/// }
/// print(report)
/// ```
///
/// Each entry is one registration of one store, with the runs of its factory added up. Entries
/// are ordered by their own time, the factory's time less the builds it asked for, since the
/// inclusive time puts whatever builds everything else first; see <doc:Tracing>.
public struct StartupReport {
    /// One registration whose factory ran, with its runs added up.
    public struct Entry: Hashable, Sendable {
        /// The registration, as listings name it: `Greeting`, or `Greeting (named "formal")`.
        public let label: String
        /// Its scope.
        public let scope: Scope
        /// The store that ran it, as diagnostics name it.
        public let store: String
        /// How many times its factory ran.
        public internal(set) var count = 0
        /// The factory's time, from start to return, over every run: the builds it asked for
        /// included.
        public internal(set) var nanoseconds: UInt64 = 0
        /// The factory's time less the reported builds it asked for, over every run.
        public internal(set) var ownNanoseconds: UInt64 = 0

        /// Adds one run of the factory, as a recording meets it.
        mutating func add(_ build: ResolveEvent.Build) {
            count += 1
            nanoseconds &+= build.nanoseconds
            ownNanoseconds &+= build.ownNanoseconds
        }
    }

    /// The registrations whose factories ran, slowest own time first; ties by inclusive time,
    /// then label, then store.
    public let entries: [Entry]
    /// How long the recording ran, from start to stop.
    public let elapsedNanoseconds: UInt64

    /// The time spent in factories: the sum of the entries' own times (their inclusive times
    /// would count a nested build once per factory around it). Factories that ran at the same
    /// time on several threads may add up to more than ``elapsedNanoseconds``.
    public var factoryNanoseconds: UInt64 {
        entries.reduce(0) { $0 &+ $1.ownNanoseconds }
    }

    init(entries: some Sequence<Entry>, elapsedNanoseconds: UInt64) {
        self.elapsedNanoseconds = elapsedNanoseconds
        self.entries = entries.sorted { first, second in
            (second.ownNanoseconds, second.nanoseconds, first.label, first.store)
                < (first.ownNanoseconds, first.nanoseconds, second.label, second.store)
        }
    }
}

extension StartupReport: Hashable, Sendable {}
