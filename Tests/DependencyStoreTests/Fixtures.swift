import DependencyStore
import Foundation
import Testing

// Small types the suites share. The protocols stand for what an app registers; the classes are
// deliberately not Sendable, as app services and test mocks usually are not.

protocol Greeting {
    var text: String { get }
}

final class FixedGreeting: Greeting {
    let text: String
    init(_ text: String) { self.text = text }
}

protocol Clock {
    var now: Int { get }
}

final class FixedClock: Clock {
    let now: Int
    init(_ now: Int) { self.now = now }
}

/// Needs a Greeting and a Clock through its initialiser (constructor injection).
final class Banner {
    let greeting: Greeting
    let clock: Clock
    init(greeting: Greeting, clock: Clock) {
        self.greeting = greeting
        self.clock = clock
    }
    var text: String { "\(greeting.text) @\(clock.now)" }
}

/// Needs a Greeting through an @Injected property.
final class Screen {
    @Injected var greeting: Greeting
}

/// A thread-safe counter for "how many times did the factory run" across threads.
final class Counter: Sendable {
    private let count = Recorded(0)

    @discardableResult
    func increment() -> Int {
        count.update {
            $0 += 1
            return $0
        }
    }

    var value: Int { count.value }
}

/// Runs `body` on `threads` new threads released at the same moment, `rounds` times, and waits
/// for all of them each round. Real threads rather than `concurrentPerform`, whose width is the
/// core count (2 here), so that many callers really do arrive together.
///
/// Each round has a deadline: threads still running past it fail the test, which goes on, so that
/// a deadlock fails the run instead of hanging it.
func onManyThreads(
    threads: Int,
    rounds: Int = 1,
    deadline seconds: Double = testDeadline,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (_ round: Int, _ thread: Int) -> Void
) {
    expectOffTheConcurrencyPool(sourceLocation: sourceLocation)
    for round in 0..<rounds {
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for index in 0..<threads {
            done.enter()
            let thread = Thread {
                start.wait(upTo: seconds, for: "the start of round \(round)", sourceLocation: sourceLocation)
                body(round, index)
                done.leave()
            }
            thread.start()
        }
        for _ in 0..<threads { start.signal() }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            Issue.record(
                "round \(round) of \(threads) threads did not finish within \(seconds) s: a deadlock?",
                sourceLocation: sourceLocation)
            return
        }
    }
}

/// How long a test waits for another thread or task before it fails instead of hanging.
let testDeadline: Double = 20

/// How long a test awaits what the store runs on the concurrency pool (async closes, a shutdown,
/// an awaited reset) before it fails instead of hanging. Longer than `testDeadline`: in a parallel
/// run, every test starts as a job of that same pool, queued at once, so a job queued early waits
/// for the tests ahead of it to start and for the synchronous ones among them to end. Measured
/// with a probe test here (two cores), a 1 ms sleep at the start of the run ended 2 to 7 s late,
/// and before the CLI's tests stopped blocking the pool's threads, 14 to 19 s.
let poolDeadline: Double = 60

extension DispatchSemaphore {
    /// Waits for a signal for at most `seconds`. Past that the test fails, and the wait returns
    /// `false` so the test goes on: a deadlock fails the run instead of hanging it.
    @discardableResult
    func wait(
        upTo seconds: Double = testDeadline,
        for what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        expectOffTheConcurrencyPool(sourceLocation: sourceLocation)
        guard wait(timeout: .now() + seconds) == .timedOut else { return true }
        Issue.record("waited \(seconds) s for \(what): a deadlock?", sourceLocation: sourceLocation)
        return false
    }

    /// In the child process of an exit test: waits for a signal for at most `seconds`, then ends
    /// the process as `endTheProcessIfItHangs` does, naming what it waited for.
    func waitInChildProcess(upTo seconds: Double = testDeadline, for what: String) {
        guard wait(timeout: .now() + seconds) == .timedOut else { return }
        FileHandle.standardError.write(Data("HUNG: waited \(seconds) s for \(what)\n".utf8))
        exit(3)
    }
}

/// An object whose identity the scope tests compare.
final class Session {
    let number: Int
    init(_ number: Int = 0) { self.number = number }
}

/// Holds two dependencies of one type, to see whether a resolution shared them.
final class SessionPair {
    let first: Session
    let second: Session
    init(first: Session, second: Session) {
        self.first = first
        self.second = second
    }
}

/// Seed 002's logout: a repository that lives as long as the user's session.
extension Scope {
    static let session = Scope("session")
    static let cart = Scope("cart")
}

/// A value that a factory or another thread records and the test reads afterwards.
final class Recorded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ initial: Value) { stored = initial }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ newValue: Value) {
        update { $0 = newValue }
    }

    @discardableResult
    func update<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

/// Runs `body` and returns the error it throws, as an `E`. When it throws nothing, or an error that
/// is not an `E`, records an issue at the caller's line and returns nil: a test that reads the error
/// writes `let error = try #require(thrownError(ResolutionError.self) { ... })`, and fails there.
///
/// `#expect(throws:)` and `#require(throws:)` return the error only from Swift 6.1 on; with Swift
/// 6.0, which Package.swift admits, they return nothing. This uses only what Swift Testing had in
/// 6.0 (`Issue.record(_:sourceLocation:)`, `Issue.record(_:_:sourceLocation:)`, `#_sourceLocation`).
func thrownError<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
    do {
        _ = try body()
    } catch let error as E {
        return error
    } catch {
        Issue.record(error, "expected an error of type \(E.self), got another", sourceLocation: sourceLocation)
        return nil
    }
    Issue.record("expected an error of type \(E.self), but nothing was thrown", sourceLocation: sourceLocation)
    return nil
}

/// Busy work of about `microseconds`, as a factory that does real work spends it: what stress tests
/// give their factories, so that threads overlap inside them.
func spin(microseconds: Int) {
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(microseconds) * 1_000
    while DispatchTime.now().uptimeNanoseconds < end {}
}
