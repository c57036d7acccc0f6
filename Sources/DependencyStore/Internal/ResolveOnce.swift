/// Who is resolving an injected property right now: the state shared by ``Injected`` and
/// ``OptionalInjected``. Once resolved, the value is in the property's `PublishedSlot`.
enum InjectedState {
    case unresolved
    /// Being resolved by the thread whose resolution stack has this identity.
    case resolving(thread: ObjectIdentifier)
}

/// The first read of an injected property: `resolve` runs exactly once, even when many threads
/// read the property for the first time together, and every read returns what it returned.
///
/// The property reads `slot` first and calls this only while nothing is published there.
///
/// `gate` is held by the one thread that runs `resolve`, so the others wait for its value instead
/// of resolving their own. Holding it while the factory runs is safe: only readers of this one
/// property wait on it, and they need exactly the value being built. The only way to wait forever
/// is a dependency cycle spanning two threads, which on one thread is trapped (see below).
func resolveOnce<Value>(
    state: Lock<InjectedState>,
    gate: Lock<Void>,
    publishingIn slot: PublishedSlot,
    _ resolve: () -> Value
) -> Value {
    if case .resolving(let thread) = state.withLock({ $0 }), thread == ObjectIdentifier(ResolutionStack.current) {
        // This thread is inside this property's own resolution: the factory needs the value it is
        // building. Waiting for the gate would deadlock; resolving again lets the store detect
        // the cycle on this thread's chain and trap with the whole chain.
        return resolve()
    }
    return gate.withLock {
        if let published = slot.published {
            return published.assumingMemoryBound(to: Value.self).pointee
        }
        let thread = ObjectIdentifier(ResolutionStack.current)
        state.withLock { $0 = .resolving(thread: thread) }
        let value = resolve()
        // Exactly once: only the thread holding the gate that found nothing published gets here.
        slot.publish(value)
        state.withLock { $0 = .unresolved }
        return value
    }
}
