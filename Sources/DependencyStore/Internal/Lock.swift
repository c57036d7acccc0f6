#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one lock type of the library: it owns a piece of mutable state and hands it out only
/// inside `withLock`.
///
/// The platform mutex lives in its own allocation, so it has a stable address for as long as the
/// lock lives (a `pthread_mutex_t` stored inline in a Swift value may move).
///
/// The lock is not recursive. Code inside `withLock` must not call back into anything that takes
/// the same lock, and never runs user code (factories) unless a caller says why that is safe.
final class Lock<State>: @unchecked Sendable {
    #if canImport(os)
    private let mutex: UnsafeMutablePointer<os_unfair_lock_s>
    #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    /// Only ever accessed with the mutex held, so the run-time exclusivity check (a thread-local
    /// lookup on every access) would only repeat what the mutex guarantees.
    @exclusivity(unchecked)
    private var state: State

    init(_ initialState: State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        #if canImport(os)
        mutex.initialize(to: os_unfair_lock_s())
        #else
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed with \(result)")
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(mutex)
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inline(__always)
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body(&state)
    }

    /// Takes the lock if no other thread holds it, without waiting. For `Gate`, which must know
    /// whether it is about to wait.
    @inline(__always)
    func tryLock() -> Bool {
        #if canImport(os)
        os_unfair_lock_trylock(mutex)
        #else
        pthread_mutex_trylock(mutex) == 0
        #endif
    }

    /// Takes the lock, waiting as long as it takes. Prefer `withLock`; `Gate` holds a lock across
    /// calls and pairs this with `unlock()` itself.
    @inline(__always)
    func lock() {
        #if canImport(os)
        os_unfair_lock_lock(mutex)
        #else
        pthread_mutex_lock(mutex)
        #endif
    }

    @inline(__always)
    func unlock() {
        #if canImport(os)
        os_unfair_lock_unlock(mutex)
        #else
        pthread_mutex_unlock(mutex)
        #endif
    }
}

extension Lock where State == Void {
    convenience init() {
        self.init(())
    }

    /// Runs `body` while holding the lock, for locks that guard a critical section, not a value.
    ///
    /// It never forms an `inout` access to the zero-sized state: the thread sanitizer reports such
    /// an access as overlapping the `mutex` field that other threads read before they lock.
    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
