#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What one thread is doing with stores right now: the factories it is running (innermost last)
/// and the synchronous `execute` calls it is inside.
///
/// Factories are synchronous, so a resolution chain (a factory resolving what it needs, whose
/// factory resolves what it needs, ...) runs on one thread from start to end. Keeping the chain
/// per thread is what makes cycle detection per chain: two threads resolving the same types at
/// the same moment each see only their own chain, so neither is mistaken for a cycle.
///
/// The stack also answers "which store is current?" for `DependencyStore.shared` while a factory
/// or a synchronous `execute` runs, innermost first, so an `@Injected` created by a factory binds
/// to the store that is resolving it.
final class ResolutionStack {
    struct Frame {
        /// The store resolving (or made current by `execute`). Unowned: a frame lives only while
        /// the call that pushed it runs, and that call holds the store.
        unowned(unsafe) let store: DependencyStore
        /// The type being resolved; `nil` for a frame pushed by `execute`.
        let type: Any.Type?
    }

    private(set) var frames: [Frame] = []

    private init() {
        frames.reserveCapacity(16)
    }

    /// The store of the innermost frame, if this thread is inside a factory or a sync `execute`.
    var currentStore: DependencyStore? {
        frames.last?.store
    }

    /// The index of the frame resolving `key` in `store`, if that resolution is already running
    /// on this thread: a cycle.
    @inline(__always)
    func indexOfFrame(resolving key: ObjectIdentifier, in store: DependencyStore) -> Int? {
        // Chains are short (a handful of frames), so a linear scan beats any set.
        var index = frames.count
        while index > 0 {
            index -= 1
            let frame = frames[index]
            if let type = frame.type, ObjectIdentifier(type) == key, frame.store === store { return index }
        }
        return nil
    }

    /// The types being resolved on this thread, in any store, outermost first, from frame `start`
    /// on; `execute` frames are skipped.
    func types(from start: Int = 0) -> [Any.Type] {
        frames[start...].compactMap(\.type)
    }

    @inline(__always)
    func push(_ frame: Frame) {
        frames.append(frame)
    }

    @inline(__always)
    func pop() {
        frames.removeLast()
    }
}

// MARK: - Per-thread storage

extension ResolutionStack {
    /// This thread's stack, created on first use and released when the thread exits.
    static var current: ResolutionStack {
        if let existing = currentIfCreated { return existing }
        let stack = ResolutionStack()
        pthread_setspecific(threadKey, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    /// This thread's stack if it ever resolved or executed anything; `nil` spares an allocation
    /// on threads that only ask `DependencyStore.shared`.
    static var currentIfCreated: ResolutionStack? {
        guard let pointer = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<ResolutionStack>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, releaseResolutionStack)
        precondition(result == 0, "DependencyStore: pthread_key_create failed with \(result)")
        return key
    }()
}

#if canImport(Darwin)
private func releaseResolutionStack(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<ResolutionStack>.fromOpaque(pointer).release()
}
#else
private func releaseResolutionStack(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<ResolutionStack>.fromOpaque(pointer).release()
}
#endif
