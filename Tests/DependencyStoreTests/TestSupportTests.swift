import DependencyStore
import DependencyStoreTesting
import Foundation
import Testing
import XCTest

/// A live store for the layered trait, and the layered XCTest case, to sit on: outside the gate
/// below, since the XCTest case builds with Swift 6.0 too.
private let liveStore: DependencyStore = {
    let store = DependencyStore()
    store.register(FixedClock(1_000), for: Clock.self)
    store.register(FixedGreeting("live"), for: Greeting.self)
    return store
}()

// The trait needs Swift 6.1 (see DependencyStoreTrait.swift).
#if compiler(>=6.1)

@Suite("The .dependencyStore trait")
struct DependencyStoreTraitTests {
    @Test(.dependencyStore { $0.register(FixedGreeting("from the trait"), for: Greeting.self) })
    func runsTheTestAgainstItsOwnStore() {
        #expect(DependencyStore.shared.resolve(Greeting.self).text == "from the trait")
        #expect(Screen().greeting.text == "from the trait", "an @Injected created in the test binds to it")
        #expect(!DependencyStore.shared.isRegistered(Clock.self), "a fresh store is empty, not the root store")
        #expect(
            DependencyStore.shared.description.hasPrefix(
                "the store created at DependencyStoreTests/TestSupportTests.swift:"))
    }

    @Test(.dependencyStore(layeredOver: liveStore) { $0.register(FixedGreeting("mock"), for: Greeting.self) })
    func layersOverTheLiveStore() {
        #expect(DependencyStore.shared.resolve(Greeting.self).text == "mock")
        #expect(DependencyStore.shared.resolve(Clock.self).now == 1_000)
        #expect(liveStore.resolve(Greeting.self).text == "live", "the live store is untouched")
    }

    /// A forgotten mock, with the trait's `fallingBackOn:`: a failure of the test, once per type,
    /// and the test goes on with the fallback, where an empty store would trap and end the run.
    @Test func aForgottenMockFallsBackAndFailsOnlyItsTest() async throws {
        let trait = DependencyStoreTrait.dependencyStore(fallingBackOn: liveStore) {
            $0.register(FixedGreeting("mock"), for: Greeting.self)
        }
        let reports = Counter()
        let wentOn = Recorded<[String]>([])
        try await withKnownIssue {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let clock = DependencyStore.shared.resolve(Clock.self).now
                _ = DependencyStore.shared.resolve(Clock.self)
                wentOn.set([Screen().greeting.text, "\(clock)"])
            }
        } matching: { issue in
            reports.increment()
            return "\(issue)".contains("Clock is not registered in the test's store (the store created at ")
                && "\(issue)".contains("To fix: register one for this test, `store.register(<mock>, for: Clock.self)`")
        }
        #expect(wentOn.value == ["mock", "1000"], "the test went on, with its mock and the fallback")
        #expect(reports.value == 1, "once per type, and none for the test's own mock")
    }

    @Test("each case of a parameterized test gets a fresh store", .dependencyStore(), arguments: 0..<2)
    func freshStorePerCase(_ index: Int) {
        #expect(!DependencyStore.shared.isRegistered(Clock.self))
        DependencyStore.shared.register(FixedClock(index), for: Clock.self)
    }
}

@Suite(.dependencyStore { $0.register(FixedGreeting("suite"), for: Greeting.self) })
struct DependencyStoreSuiteTraitTests {
    // Each test registers a clock and asserts it is the first to: with one store for the suite,
    // whichever test ran second would fail.
    @Test func firstTestHasAFreshStore() {
        #expect(!DependencyStore.shared.isRegistered(Clock.self))
        DependencyStore.shared.register(FixedClock(1), for: Clock.self)
        #expect(DependencyStore.shared.resolve(Greeting.self).text == "suite")
    }

    @Test func secondTestHasAFreshStore() {
        #expect(!DependencyStore.shared.isRegistered(Clock.self))
        DependencyStore.shared.register(FixedClock(2), for: Clock.self)
        #expect(DependencyStore.shared.resolve(Greeting.self).text == "suite")
    }

    @Test(.dependencyStore(layeredOver: .shared) { $0.register(FixedClock(7), for: Clock.self) })
    func aTestTraitInsideLayersOverTheSuitesStore() {
        #expect(DependencyStore.shared.resolve(Greeting.self).text == "suite")
        #expect(DependencyStore.shared.resolve(Clock.self).now == 7)
    }
}

/// Hundreds of test cases run in parallel, each with its own mock: every read, in child tasks,
/// after suspensions, on GCD, on a thread and in a detached task, must see only its own.
@Suite("Isolation of parallel tests")
struct ParallelIsolationTests {
    @Test(.dependencyStore(), arguments: 0..<300)
    func everyCaseSeesOnlyItsOwnMock(_ id: Int) async {
        let store = DependencyStore.shared
        store.register(FixedClock(id), for: Clock.self)
        store.register(FixedGreeting("case \(id)"), for: Greeting.self)

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<3 {
                        await Task.yield()
                        #expect(DependencyStore.shared.resolve(Clock.self).now == id)
                        #expect(Screen().greeting.text == "case \(id)")
                    }
                }
            }
        }
        let onQueue = await withCheckedContinuation { continuation in
            DispatchQueue.global().async(
                execute: store.bind {
                    continuation.resume(returning: DependencyStore.shared.resolve(Clock.self).now)
                })
        }
        let onThread = await withCheckedContinuation { continuation in
            Thread(
                block: store.bind {
                    continuation.resume(returning: Screen().greeting.text)
                }
            ).start()
        }
        let detached = await Task.detached { [store] in
            await store.execute {
                await Task.yield()
                return DependencyStore.shared.resolve(Clock.self).now
            }
        }.value
        #expect(onQueue == id)
        #expect(onThread == "case \(id)")
        #expect(detached == id)
    }

    @Test("without bind, work on a GCD queue sees the root store, not the test's", .dependencyStore())
    func gcdDoesNotInheritTheStore() async {
        let testStore = DependencyStore.shared
        // Handed back through a lock the thread sanitizer sees, not through the continuation: when
        // this block is the first to touch the root store, its one-time initialisation runs there,
        // and TSan does not see the continuation order it before the reads below.
        let handedBack = Recorded<DependencyStore?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                handedBack.set(DependencyStore.shared)
                continuation.resume()
            }
        }
        let seen = handedBack.value!
        #expect(seen !== testStore)
        #expect(seen.description == "the root store")
    }
}
#endif

@Suite("expectVerified")
struct ExpectVerifiedTests {
    @Test func aCleanStoreRecordsNothing() {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)
        store.register(Banner.self) { Banner(greeting: FixedGreeting("hi"), clock: $0.resolve()) }
        let report = expectVerified(store)
        #expect(report.isClean)
    }

    @Test func eachProblemIsAnIssueAtTheCallersLine() {
        let store = DependencyStore()
        store.register(Banner.self) { Banner(greeting: $0.resolve(), clock: $0.resolve()) }
        let line = #line + 2
        withKnownIssue {
            expectVerified(store)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && "\(issue)".contains("missing: Banner -> Greeting (not registered)")
        }
    }

    /// A main-actor factory, which `verify()` cannot build, is an issue pointing at the async
    /// form: a check that passed over something must not pass. Its missing `Clock` is not seen.
    @Test func aRegistrationVerifyCouldNotBuildIsAnIssueNamingTheAsyncForm() {
        let store = DependencyStore()
        store.register(WalletModel.self, on: MainActor.self) { WalletModel(clock: $0.resolve()) }
        withKnownIssue {
            expectVerified(store)
        } matching: { issue in
            "\(issue)".contains("was not fully checked: WalletModel")
                && "\(issue)".contains("To fix: check with `await expectVerifiedAsync(store)`")
        }
    }

    /// A registration whose factory takes arguments, given none, is an issue with the line to add;
    /// given some, it is built and checked.
    @Test func aRegistrationTakingArgumentsWithNoSamplesIsAnIssueNamingTheFix() {
        let store = DependencyStore()
        store.register(Session.self) { (_, number: Int) in Session(number) }
        withKnownIssue {
            expectVerified(store)
        } matching: { issue in
            "\(issue)".contains("`sampleArguments: [SampleArguments(for: Session.self, <its arguments>)]`")
        }
        #expect(expectVerified(store, sampleArguments: [SampleArguments(for: Session.self, 1)]).isClean)
    }

    /// The async form builds the main-actor factory on the main actor; one whose build stops on
    /// a missing dependency ends the process, naming it (see `AsyncVerificationTests`), and one
    /// that is wired right passes.
    @Test func theAsyncFormBuildsAMainActorFactory() async {
        let store = DependencyStore()
        let built = Counter()
        store.register(WalletModel.self, on: MainActor.self) {
            built.increment()
            return WalletModel(clock: $0.resolve())
        }
        store.register(FixedClock(1), for: Clock.self)
        #expect(await expectVerifiedAsync(store, timeout: poolDeadline).isClean)
        #expect(built.value == 1)
    }
}

// MARK: - XCTest

final class DependencyStoreTestCaseTests: DependencyStoreTestCase {
    /// Held, so that a later store cannot reuse an earlier one's address.
    private static let storesSeen = Recorded<[DependencyStore]>([])

    override func registerDependencies(in store: DependencyStore) {
        store.register(FixedGreeting("xctest"), for: Greeting.self)
    }

    override func setUp() {
        super.setUp()
        XCTAssertTrue(DependencyStore.shared === store, "setUp runs against the test's store")
    }

    func testEachTestGetsAFreshStore() {
        checkFreshStore()
    }

    func testEachTestGetsAFreshStoreToo() {
        checkFreshStore()
    }

    private func checkFreshStore() {
        XCTAssertFalse(store.isRegistered(Clock.self), "a registration of another test leaked in")
        store.register(FixedClock(1), for: Clock.self)
        XCTAssertFalse(Self.storesSeen.value.contains { $0 === store })
        Self.storesSeen.update { $0.append(store) }
    }

    func testItsStoreIsNamedAfterTheTestInDiagnostics() {
        XCTAssertTrue(store.description.hasPrefix("the store of the test "), store.description)
        XCTAssertTrue(store.description.contains("testItsStoreIsNamedAfterTheTestInDiagnostics"), store.description)
    }

    func testSyncTestResolvesFromItsStore() {
        XCTAssertEqual(Screen().greeting.text, "xctest")
    }

    func testAsyncTestKeepsItsStoreAcrossSuspensionsAndInTasks() async {
        await Task.yield()
        XCTAssertEqual(Screen().greeting.text, "xctest")
        let inTask = await Task { DependencyStore.shared.resolve(Greeting.self).text }.value
        XCTAssertEqual(inTask, "xctest")
    }
}

final class LayeredDependencyStoreTestCaseTests: DependencyStoreTestCase {
    override func makeStore() -> DependencyStore {
        DependencyStore(parent: liveStore)
    }

    func testKeepsTheLiveRegistrations() {
        store.register(FixedGreeting("override"), for: Greeting.self)
        XCTAssertEqual(Screen().greeting.text, "override")
        XCTAssertEqual(DependencyStore.shared.resolve(Clock.self).now, 1_000)
        XCTAssertEqual(liveStore.resolve(Greeting.self).text, "live")
    }
}

/// A test whose forgotten mock falls back on `fallbackStore`: a failure of the test, captured
/// here, and the test goes on with the fallback.
final class FallbackStoreTestCaseTests: DependencyStoreTestCase {
    private var failures: [String] = []
    private var capturing = true

    override var fallbackStore: DependencyStore? { liveStore }

    override func registerDependencies(in store: DependencyStore) {
        store.register(FixedGreeting("mock"), for: Greeting.self)
    }

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            failures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAForgottenMockIsAFailureOfTheTestWhichGoesOn() {
        let greeting = Screen().greeting.text
        let clock = DependencyStore.shared.resolve(Clock.self).now
        _ = DependencyStore.shared.resolve(Clock.self)
        capturing = false
        XCTAssertEqual(greeting, "mock", "the test's own mock: no failure")
        XCTAssertEqual(clock, 1_000, "the fallback, and the test went on")
        XCTAssertEqual(failures.count, 1, "once per type: \(failures)")
        XCTAssertTrue(failures.first?.contains("Clock is not registered in the test's store") == true, "\(failures)")
    }
}

final class XCTAssertVerifiedTests: XCTestCase {
    private var failures: [(description: String, line: Int)] = []

    /// Captures what the assertions under test record; the test's own assertions, made once
    /// `failures` is emptied again, fail the test as usual.
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            failures.append((description, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private var capturing = true

    func testEachProblemIsAFailureAtTheCallersLine() {
        let store = DependencyStore()
        store.register(Banner.self) { Banner(greeting: $0.resolve(), clock: $0.resolve()) }

        XCTAssertVerified(store)
        let line = #line - 1

        let recorded = failures
        capturing = false
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        XCTAssertTrue(recorded.first?.description.contains("missing: Banner -> Greeting (not registered)") == true)
    }

    /// What `XCTAssertVerified` could not build fails, naming the async form; that form builds it.
    func testAMainActorFactoryFailsTheSynchronousFormAndTheAsyncFormBuildsIt() async {
        let store = DependencyStore()
        store.register(WalletModel.self, on: MainActor.self) { WalletModel(clock: $0.resolve()) }
        store.register(FixedClock(1), for: Clock.self)

        XCTAssertVerified(store)
        let skipped = failures
        await XCTAssertVerifiedAsync(store, timeout: poolDeadline)
        let afterAsync = Array(failures.dropFirst(skipped.count))
        capturing = false

        XCTAssertEqual(skipped.count, 1)
        XCTAssertTrue(skipped.first?.description.contains("`await XCTAssertVerifiedAsync(store)`") == true)
        XCTAssertEqual(afterAsync.count, 0, "\(afterAsync)")
    }
}

/// Main-queue work scheduled before a test of `DependencyStoreTestCase` runs against the store that
/// was current then, not against the test's store when the test spins the run loop.
final class LeftoverMainQueueWorkTests: DependencyStoreTestCase {
    private static let seen = Recorded<String?>(nil)

    override class func setUp() {
        super.setUp()
        DependencyStore.shared.register(LeftoverLabel(text: "root"), for: LeftoverLabel.self)
    }

    override func makeStore() -> DependencyStore {
        // Other code, before the test runs, schedules work that creates an @Injected property.
        Self.seen.set(nil)
        DispatchQueue.main.async { Self.seen.set(LeftoverReader().label.text) }
        return DependencyStore()
    }

    override func registerDependencies(in store: DependencyStore) {
        store.register(LeftoverLabel(text: "test"), for: LeftoverLabel.self)
    }

    func testWorkLeftOverFromBeforeTheTestDoesNotBindToItsStore() {
        // What XCTest's wait(for:timeout:) does: spin the main run loop.
        RunLoop.main.run(until: Date())
        XCTAssertEqual(Self.seen.value, "root")
        XCTAssertEqual(LeftoverReader().label.text, "test", "the test itself still resolves from its store")
    }
}

struct LeftoverLabel: Sendable {
    let text: String
}

final class LeftoverReader {
    @Injected var label: LeftoverLabel
}
