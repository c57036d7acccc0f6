import Foundation
import Testing

@testable import DependencyStore

/// The end of a top-level resolution lets go of the `.graph` instances it shared; the last release
/// of one runs its `deinit`, which may resolve from the store on the same thread.
@Suite struct GraphReleaseTests {
    final class Audit {}

    final class Draft {
        let store: DependencyStore
        let resolvedInDeinit: Counter
        init(store: DependencyStore, counting resolvedInDeinit: Counter) {
            self.store = store
            self.resolvedInDeinit = resolvedInDeinit
        }
        deinit {
            // A build on this thread: a push, a pop, and a look at the graph being let go of.
            _ = store.resolve(Audit.self)
            resolvedInDeinit.increment()
        }
    }

    final class Report {}

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// The graph held the only reference to each `Draft`. Emptied in place, its `deinit`'s resolve
    /// popped its frame and emptied the graph again while the first emptying still ran: in a
    /// child process, since that writes a dictionary that is being destroyed.
    @Test func aGraphInstanceWhoseDeinitResolvesIsLetGoOfAfterTheGraphIsEmptied() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs(after: 60)
            let store = DependencyStore()
            let resolvedInDeinit = Counter()
            store.register(Audit.self) { _ in Audit() }
            store.register(Draft.self, scope: .graph) { store in Draft(store: store, counting: resolvedInDeinit) }
            store.register(Report.self) { store in
                // Two drafts of one graph: the same instance, held by nobody once this returns.
                let first = store.resolve(Draft.self)
                let second = store.resolve(Draft.self)
                guard first === second else {
                    FileHandle.standardError.write(Data("FAILED: two drafts in one graph\n".utf8))
                    exit(1)
                }
                return Report()
            }
            for _ in 0..<100 { _ = store.resolve(Report.self) }
            guard resolvedInDeinit.value == 100 else {
                FileHandle.standardError.write(Data("FAILED: \(resolvedInDeinit.value) deinits resolved\n".utf8))
                exit(1)
            }
        }
    }
    #endif
}
