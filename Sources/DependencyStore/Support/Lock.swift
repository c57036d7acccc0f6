internal import DependencyStoreAtomics

/// The platform mutex: `os_unfair_lock` on Apple platforms; on Linux, a word on a futex (see
/// `DependencyStoreMutex.h`, where the Darwin-only lines are).
typealias PlatformMutex = dependency_store_mutex

/// The one lock type of the library: it owns a piece of mutable state and hands it out only
/// inside `withLock`.
///
/// The state, the platform mutex and any words its owner asks for share one allocation (a
/// `LockStorage`): the state is the buffer's header, the mutex and the words follow, at addresses
/// that do not move for as long as the lock lives (a `pthread_mutex_t` stored inline in a Swift
/// value may move). The lock itself is a reference to that storage; copies share it. A store's
/// core is the storage of its registry's lock (`StoreCore` subclasses `LockStorage`), so that a
/// store's lock costs no allocation of its own. Its operations (`LockOperations`) are the
/// library's only mutex code besides the one a gate holds while it builds (see `RawGate`).
///
/// The lock is not recursive. Code inside `withLock` must not call back into anything that takes
/// the same lock, and never runs user code (factories) unless a caller says why that is safe.
struct Lock<State>: LockOperations, @unchecked Sendable {
    let storage: LockStorage<State>

    /// A lock over `initialState`, made where it is kept (see `LockStorage.make`).
    init(_ initialState: @autoclosure () -> State) {
        storage = LockStorage<State>.make(extraWords: 0) { _ in initialState() }
    }

    /// The lock of `storage`, made by `LockStorage.make`: how a `StoreCore` hands out the lock it
    /// is the storage of.
    @inline(__always)
    init(storage: LockStorage<State>) {
        self.storage = storage
    }

    /// Whether `other` is this lock (copies of a `Lock` share one): what tells that two
    /// registrations share their entry's options.
    func isSame(as other: Lock<State>) -> Bool {
        storage === other.storage
    }
}

/// The lock of a storage that its holder keeps alive otherwise, without a reference of its own:
/// a store's handle holds its core, which is the storage of its registry's lock, and a second
/// strong reference to it cost a retain and a release with every store.
struct BorrowedLock<State>: LockOperations, @unchecked Sendable {
    unowned(unsafe) let storage: LockStorage<State>

    /// The lock of `storage`, which must outlive this.
    @inline(__always)
    init(of storage: LockStorage<State>) {
        self.storage = storage
    }
}

/// The operations of a lock (`Lock`, `BorrowedLock`) on the state and mutex of its storage.
protocol LockOperations {
    associatedtype State
    var storage: LockStorage<State> { get }
}

extension LockOperations {
    /// Runs `body` with exclusive access to the state.
    @inline(__always)
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        // The state is only ever accessed with the mutex held, through the storage's pointer: no
        // run-time exclusivity check repeats what the mutex guarantees.
        let (state, mutex) = storage.withUnsafeMutablePointers { ($0, LockStorage<State>.mutex(in: $1)) }
        dependency_store_mutex_lock(mutex)
        defer { dependency_store_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// `withLock`, except that `body` may leave the lock held, by setting its second argument:
    /// then the caller must call `unlockLeftHeld()` once it is done with what `body` handed it,
    /// and run no user code before. How a resolve copies a value out of the state under the lock
    /// (see `DependencyStore.Lookup.valueUnderLock`).
    @inline(__always)
    func withLockMaybeLeftHeld<R>(_ body: (inout State, inout Bool) -> R) -> R {
        let (state, mutex) = storage.withUnsafeMutablePointers { ($0, LockStorage<State>.mutex(in: $1)) }
        dependency_store_mutex_lock(mutex)
        var leaveHeld = false
        let result = body(&state.pointee, &leaveHeld)
        if !leaveHeld { dependency_store_mutex_unlock(mutex) }
        return result
    }

    /// `withLock`, if no other thread holds the lock now; `nil`, running nothing, if one does.
    @inline(__always)
    func withLockIfFree<R>(_ body: (inout State) -> R) -> R? {
        let (state, mutex) = storage.withUnsafeMutablePointers { ($0, LockStorage<State>.mutex(in: $1)) }
        guard dependency_store_mutex_trylock(mutex) else { return nil }
        defer { dependency_store_mutex_unlock(mutex) }
        return body(&state.pointee)
    }

    /// Releases the lock that `withLockMaybeLeftHeld(_:)` left held.
    @inline(__always)
    func unlockLeftHeld() {
        dependency_store_mutex_unlock(storage.withUnsafeMutablePointerToElements { LockStorage<State>.mutex(in: $0) })
    }

    /// Runs `body` with exclusive access to the state under the lock that
    /// `withLockMaybeLeftHeld(_:)` left held, then releases it.
    @inline(__always)
    func withLockLeftHeld<R>(_ body: (inout State) -> R) -> R {
        let (state, mutex) = storage.withUnsafeMutablePointers { ($0, LockStorage<State>.mutex(in: $1)) }
        defer { dependency_store_mutex_unlock(mutex) }
        return body(&state.pointee)
    }
}

/// A lock's one allocation: its state (the header), then its mutex and its owner's words. Not
/// final: `StoreCore` is one, with no stored properties of its own (a buffer's `create` would not
/// initialise them), and everything else it holds in its state.
class LockStorage<State>: ManagedBuffer<State, Int> {
    /// How many words the mutex takes.
    static var mutexWords: Int {
        (MemoryLayout<PlatformMutex>.stride + MemoryLayout<Int>.stride - 1) / MemoryLayout<Int>.stride
    }

    /// Makes a storage of this class (a subclass's, called on it) over the state `initialState`
    /// makes, made in place, with its mutex and `extraWords` words. `initialState` gets the
    /// address of those words, uninitialised, for its owner to initialise as what it keeps there
    /// (`StoreCore.make`), and for the state to keep.
    @inline(__always)
    static func make(extraWords: Int, _ initialState: (UnsafeMutableRawPointer) -> State) -> Self {
        let buffer = create(minimumCapacity: mutexWords + extraWords) { buffer in
            initialState(UnsafeMutableRawPointer(buffer.withUnsafeMutablePointerToElements { $0 + mutexWords }))
        }
        let storage = unsafeDowncast(buffer, to: Self.self)
        storage.withUnsafeMutablePointerToElements { words in
            // Unlocked.
            let mutex = UnsafeMutableRawPointer(words).bindMemory(to: PlatformMutex.self, capacity: 1)
            mutex.initialize(to: PlatformMutex())
            dependency_store_mutex_init(mutex)
        }
        return storage
    }

    /// The words after the mutex: as many as `make` was asked for.
    @inline(__always)
    final var extraWords: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 + Self.mutexWords })
    }

    @inline(__always)
    static func mutex(in words: UnsafeMutablePointer<Int>) -> UnsafeMutablePointer<PlatformMutex> {
        UnsafeMutableRawPointer(words).assumingMemoryBound(to: PlatformMutex.self)
    }

    deinit {
        // Neither kind of mutex holds anything.
        withUnsafeMutablePointerToElements { _ = Self.mutex(in: $0).deinitialize(count: 1) }
        // The state, the header, is destroyed by `ManagedBuffer`; the words are plain integers.
    }
}

/// A process-wide counter for `dependency_store_add` and `dependency_store_load_relaxed`: memory
/// of its own, never freed, that a build reads without a lock.
func makeProcessCounter() -> UnsafeMutablePointer<dependency_store_atomic_word> {
    dependency_store_make_counter()
}

/// The address of a value in a store, returned with the store's lock left held
/// (`withLockMaybeLeftHeld`): valid until its holder releases that lock (`unlockLeftHeld()`),
/// which it does as soon as it has copied the value out or placed one there, running no user code
/// in between (a copy only retains). The one way a lock stays held across a return, and the type
/// that says so wherever it does:
/// - a resolve that finds a value provided in a room (`DependencyStore.Lookup.valueUnderLock`),
///   released by `DependencyStore.handOut(_:as:)`;
/// - a property's first read that finds a value or an instance of the store's own
///   (`DependencyStore.ownValueLeavingLockHeld(_:)`, `OwnValue.held`), released by
///   `DependencyStore.letGo(of:)`;
/// - `provide` putting a value in a room (`DependencyStore.reserveRoom`), released by
///   `fillReservedRoom(_:for:)`.
@frozen @usableFromInline
struct AddressUnderLock {
    @usableFromInline let address: UnsafeMutableRawPointer

    @usableFromInline
    init(_ address: UnsafeMutableRawPointer) {
        self.address = address
    }
}
