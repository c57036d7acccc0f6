/// Where an injected property's value is: the state shared by ``Injected`` and
/// ``OptionalInjected``.
enum InjectedState<Value> {
    case unresolved
    /// Being resolved by the thread whose resolution stack has this identity.
    case resolving(thread: ObjectIdentifier)
    case resolved(Value)
}

/// The first read of an injected property: `resolve` runs exactly once, even when many threads
/// read the property for the first time together, and every read returns what it returned.
///
/// `gate` is held by the one thread that runs `resolve`, so the others wait for its value instead
/// of resolving their own. Holding it while the factory runs is safe: only readers of this one
/// property wait on it, and they need exactly the value being built. The only way to wait forever
/// is a dependency cycle spanning two threads, which on one thread is trapped (see below).
@inline(__always)
func resolveOnce<Value>(
    state: Lock<InjectedState<Value>>,
    gate: Lock<Void>,
    _ resolve: () -> Value
) -> Value {
    switch state.withLock({ $0 }) {
    case .resolved(let value):
        return value
    case .resolving(let thread) where thread == ObjectIdentifier(ResolutionStack.current):
        // This thread is inside this property's own resolution: the factory needs the value it is
        // building. Waiting for the gate would deadlock; resolving again lets the store detect
        // the cycle on this thread's chain and trap with the whole chain.
        return resolve()
    case .unresolved, .resolving:
        break
    }
    return gate.withLock {
        if case .resolved(let value) = state.withLock({ $0 }) { return value }
        let thread = ObjectIdentifier(ResolutionStack.current)
        state.withLock { $0 = .resolving(thread: thread) }
        let value = resolve()
        state.withLock { $0 = .resolved(value) }
        return value
    }
}
