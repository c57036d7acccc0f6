import DependencyStore
import Foundation

// A forgotten mock, as a failure of one test rather than the end of the run.
//
// A store that registers nothing for a type has no value to hand out, so a resolve of it traps,
// and the trap ends the test process: every test of the run goes unreported. A test's store layered
// over a store of fallbacks always has one: the fallback's. The trait's `fallingBackOn:` and
// `DependencyStoreTestCase.fallbackStore` make such a store and watch it (an observer, see
// `observeResolves`): every resolve that the test's store does not answer with a registration of
// its own is reported as a failure of the test, once per type, and the test goes on with the
// fallback.

extension DependencyStore {
    /// Watches this store, a test's store over `fallbacks`: calls `fail` with the message, once
    /// per type and name, for each resolve this store does not answer with a registration of its
    /// own. Cancel the observation when the test ends: its closure holds this store.
    func reportFallbacks(
        to fallbacks: DependencyStore, _ fail: @escaping @Sendable (String) -> Void
    ) -> ResolveObservation {
        let reported = FallbacksReported()
        let fallback = fallbacks.description
        return observeResolves { [self] event in
            guard !registersItself(event.type, name: event.name), reported.isFirst(event.label) else { return }
            let name = event.name.map { ", name: \"\($0)\"" } ?? ""
            fail(
                """
                \(event.label) is not registered in the test's store (\(event.store)): the fallback \
                of \(fallback) was used. Was its mock forgotten? To fix: register one for this test, \
                `store.register(<mock>, for: \(event.type).self\(name))`.
                """)
        }
    }
}

/// The labels a test's store has reported, each once.
private final class FallbacksReported: @unchecked Sendable {
    private let lock = NSLock()
    private var labels: Set<String> = []

    func isFirst(_ label: String) -> Bool {
        lock.withLock { labels.insert(label).inserted }
    }
}
