import Dispatch
import Foundation

/// Where an expiring cache reads the time: see ``RegistrationEntry/expiring(after:fileID:line:)``.
///
/// A store reads ``SystemCacheClock`` unless it, or the nearest of its parents that has one, was
/// given another with ``DependencyStore/useCacheClock(_:)``. A test gives its store a
/// ``ManualCacheClock`` and moves it on, so that an expiry happens without waiting for it:
///
/// ```swift
/// let clock = ManualCacheClock()
/// let store = DependencyStore()
/// store.useCacheClock(clock)
/// store.register(AccessToken.self, scope: .singleton) { _ in AccessToken.fetch() }
///     .expiring(after: 300)
///
/// let first = store.resolve(AccessToken.self)
/// clock.advance(by: 300)
/// let second = store.resolve(AccessToken.self)   // a new token; the first one is closed
/// ```
///
/// Only the differences between two readings count, so the origin can be anything; the time
/// must never go back.
public protocol CacheClock: Sendable {
    /// The time now, in seconds since an origin of the clock's choosing.
    var now: TimeInterval { get }
}

/// The clock an expiring cache reads by default: the time since the system started, counting
/// the time it slept (a phone locked overnight), which a change of the wall clock (a user setting
/// the date, a time-zone change) does not move.
public struct SystemCacheClock: CacheClock {
    public init() {}

    public var now: TimeInterval {
        var time = timespec()
        // Both count sleep, where `DispatchTime` and Linux's CLOCK_MONOTONIC stop: a token good
        // for five minutes must not look fresh after a night in a locked phone.
        #if canImport(Darwin)
        clock_gettime(CLOCK_MONOTONIC, &time)
        #else
        clock_gettime(CLOCK_BOOTTIME, &time)
        #endif
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
    }
}

/// A clock that moves only when told to: for tests of expiring caches, which must not sleep.
///
/// ```swift
/// let clock = ManualCacheClock()
/// store.useCacheClock(clock)
/// clock.advance(by: 301)      // every instance kept for 300 s or less has expired
/// ```
public final class ManualCacheClock: CacheClock {
    private let time: Lock<TimeInterval>

    /// A clock that reads `start` until it is moved on.
    ///
    /// - Parameter start: The time it reads first, in seconds.
    public init(start: TimeInterval = 0) {
        time = Lock(start)
    }

    public var now: TimeInterval {
        time.withLock { $0 }
    }

    /// Moves the clock on by `seconds`.
    ///
    /// - Parameter seconds: How far to move it; not negative, since the time never goes back.
    public func advance(by seconds: TimeInterval) {
        precondition(seconds >= 0, "DependencyStore: ManualCacheClock.advance(by: \(seconds)): time never goes back")
        time.withLock { $0 += seconds }
    }
}

extension DependencyStore {
    /// Makes this store, and the stores layered over it that have no clock of their own, read the
    /// time of expiring caches from `clock`: a test's ``ManualCacheClock``, say.
    ///
    /// ```swift
    /// let clock = ManualCacheClock()
    /// store.useCacheClock(clock)
    /// ```
    ///
    /// The clock of the store that keeps an instance decides when it expires: a store that shares
    /// an ancestor's instance (see "Layered stores" in <doc:Lifetimes>) sees it expire by the
    /// ancestor's clock. Installing a clock replaces the one installed before, and expires every
    /// instance timed by another clock at its next resolve, since its age cannot be told on this
    /// one: a test that installs its clock on a store already in use starts from fresh instances.
    ///
    /// - Parameter clock: The clock to read.
    public func useCacheClock(_ clock: any CacheClock) {
        let installed = InstalledClock(clock)
        registry.withLock { $0.cacheClock = installed }
    }

    /// The clock of this store or its nearest parent that has one, else the system's.
    func cacheClock() -> InstalledClock {
        sequence(first: self, next: \.parent).lazy.compactMap { $0.registry.withLock { $0.cacheClock } }.first
            ?? .system
    }
}

/// A clock as one `useCacheClock` installed it (or the system's): what an expiring instance
/// records it was timed by, so that it expires once its store reads another clock.
final class InstalledClock: Sendable {
    let clock: any CacheClock

    init(_ clock: any CacheClock) {
        self.clock = clock
    }

    static let system = InstalledClock(SystemCacheClock())

    /// The time now on this clock. A clock may be the user's: call with no lock held.
    func read() -> Reading {
        Reading(clock: self, time: clock.now)
    }
}

extension SystemCacheClock: Sendable {}
extension ManualCacheClock: Sendable {}
