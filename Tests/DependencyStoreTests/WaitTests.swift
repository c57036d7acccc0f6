import DependencyStoreAtomics
import Dispatch
import Foundation
import Testing

@testable import DependencyStore

/// No thread waits while it holds a lock, and no resolve takes a lock of the whole process
/// (Docs/ThreadSafety.md, "Waits").
/// Takes the lock the removals' batches are written under on a thread of its own, and keeps it
/// until the process ends. For child processes only: the lock is the whole process's.
private func holdTheBatchesLockForGood() {
    let holding = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        Tombstones.writers.withLock { _ in
            holding.signal()
            Thread.sleep(forTimeInterval: 10 * poolDeadline)
        }
    }
    holding.waitInChildProcess(for: "the lock of the removals' batches")
}

@Suite struct WaitTests {
    final class Repository: @unchecked Sendable {}
    final class Job: Sendable {}

    /// A store that takes down its table of shared instances (here, a reset of the singleton it
    /// published) waits for a reader still reading the table, and does so once it has dropped its
    /// lock: another thread uses the store meanwhile. With the wait inside the critical section,
    /// `isRegistered` waited for the reader too.
    @Test(.onThreadsOfItsOwn) func aStoreWaitsForTheReadersOfItsOldTableOutsideItsLock() {
        let app = DependencyStore()
        app.register(Repository(), for: Repository.self, scope: .singleton)
        let first = DependencyStore(parent: app).resolve(Repository.self)
        #expect(DependencyStore(parent: app).resolve(Repository.self) === first, "published by the second request")

        // A reader that has the table's address in its hazard, and keeps it there.
        let reading = DispatchSemaphore(value: 0)
        let stopReading = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let protected = Recorded(false)
        Thread.detachNewThread {
            ResolutionStack.withCurrent { stack in
                protected.set(Tombstones.protect(app.core.sharedInstancesCell, in: stack.hazard) != nil)
                reading.signal()
                _ = stopReading.wait(timeout: .now() + 3 * testDeadline)
                Tombstones.unprotect(stack.hazard)
            }
            readerDone.signal()
        }
        reading.wait(for: "the reader")
        #expect(protected.value, "the reader holds the published table")

        let resetDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            app.reset(.singleton)
            resetDone.signal()
        }
        // The reset waits for the reader for as long as the reader reads.
        #expect(resetDone.wait(timeout: .now() + 0.2) == .timedOut, "the reset did not wait for the table's reader")

        let lockFree = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = app.isRegistered(Repository.self)
            lockFree.signal()
        }
        let usable = lockFree.wait(timeout: .now() + testDeadline) == .success
        #expect(usable, "the reset held the store's lock while it waited for the reader")

        stopReading.signal()
        readerDone.wait(for: "the reader's end")
        resetDone.wait(for: "the reset, once the reader left")
        if !usable { lockFree.wait(for: "the look, once the reset left") }
        #expect(DependencyStore(parent: app).resolve(Repository.self) !== first, "the reset discarded the instance")
    }

    /// A request that asks for another app singleton publishes a bigger table in place of the one
    /// a reader still reads, and goes on: the old table waits on the app's list of retired tables
    /// instead (it waited for the reader under the app's lock before), and goes once the reader
    /// left, at the app's next change.
    @Test(.onThreadsOfItsOwn) func publishingABiggerTableNeverWaitsForAReaderOfTheOldOne() {
        let app = DependencyStore()
        app.register(Repository(), for: Repository.self, scope: .singleton)
        app.register(Job(), for: Job.self, scope: .singleton)
        let first = DependencyStore(parent: app).resolve(Repository.self)
        #expect(DependencyStore(parent: app).resolve(Repository.self) === first, "published by the second request")
        _ = DependencyStore(parent: app).resolve(Job.self)

        let reading = DispatchSemaphore(value: 0)
        let stopReading = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let protected = Recorded<UnsafeMutableRawPointer?>(nil)
        Thread.detachNewThread {
            ResolutionStack.withCurrent { stack in
                protected.set(Tombstones.protect(app.core.sharedInstancesCell, in: stack.hazard))
                reading.signal()
                _ = stopReading.wait(timeout: .now() + 3 * testDeadline)
                Tombstones.unprotect(stack.hazard)
            }
            readerDone.signal()
        }
        reading.wait(for: "the reader")
        let old = protected.value
        #expect(old != nil, "the reader holds the published table")

        let published = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // The app's `Job` is built; this request finds it in the slot and publishes it.
            _ = DependencyStore(parent: app).resolve(Job.self)
            published.signal()
        }
        let inTime = published.wait(timeout: .now() + testDeadline) == .success
        #expect(inTime, "publishing the bigger table waited for the reader of the old one")
        #expect(
            dependency_store_load_seq_cst(app.core.sharedInstancesCell) != old, "the bigger table is published")
        #expect(
            app.registry.withLock { _ in dependency_store_shared_retired(app.core.sharedTables).pointee } == old,
            "the old table waits on the list while the reader reads it")

        stopReading.signal()
        readerDone.wait(for: "the reader's end")
        if !inTime { published.wait(for: "the publish, once the reader left") }
        // The app's next change to its published table lets go of the old one.
        app.observeResolves { _ in }
        #expect(app.registry.withLock { _ in dependency_store_shared_retired(app.core.sharedTables).pointee } == nil)
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// Threads that start resolving, and `async` chains that begin and end, publish what removals
    /// read in records claimed with no lock: they go on while another thread holds the lock that
    /// removals keep their batches under. Before, both joined a set under that lock. In a child
    /// process, since that lock is the whole process's: held here, it would stall other tests'
    /// removals.
    @Test func newThreadsAndAsyncChainsTakeNoLockOfTheWholeProcess() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs(after: 3 * poolDeadline)
            let store = DependencyStore()
            store.register(Job.self) { _ async in Job() }
            store.register(Repository.self) { _ in Repository() }

            holdTheBatchesLockForGood()

            let threadResolved = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                // A thread new to the store: its first resolve makes its resolution stack.
                _ = store.resolve(Repository.self)
                threadResolved.signal()
            }
            threadResolved.waitInChildProcess(for: "a new thread's first resolve, while the lock is held")
            let chainsEnded = DispatchSemaphore(value: 0)
            Task.detached {
                // Each build of an `async` factory at the top begins and ends an `async` chain.
                for _ in 0..<3 { _ = try? await store.resolveAsync(Job.self) }
                chainsEnded.signal()
            }
            chainsEnded.waitInChildProcess(for: "three async chains, while the lock is held")
        }
    }

    /// A chain that began before a logout finds what the logout removed, builds it and ends, while
    /// another thread holds the lock the removals' batches are written under: the miss path reads
    /// the batches with no lock, and the chain's end only tries the lock (it took the lock, and
    /// waited for it, before). In a child process, as the lock is the whole process's.
    @Test func aChainBegunBeforeALogoutFinishesWhileAnotherThreadHoldsTheBatchesLock() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs(after: 3 * poolDeadline)
            let store = DependencyStore()
            let race = FeedResolvePausedInItsFirstFactory(applyingTheSessionTo: store)
            race.start()
            guard store.unload(RaceSessionAssembly.self).removed == 3 else { exit(4) }

            holdTheBatchesLockForGood()
            race.unloaded.signal()
            race.done.waitInChildProcess(for: "the chain that began before the logout, while the lock is held")
            // Built from what the logout removed, as if the logout came after the chain.
            guard let feed = race.feed, feed.token.user == "ada", feed.profile.token === feed.token else { exit(5) }
        }
    }
    #endif
}
