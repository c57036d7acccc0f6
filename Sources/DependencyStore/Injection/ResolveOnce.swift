/// The first read of an injected property: `resolve` runs exactly once, even when many threads
/// read the property for the first time together, and every read returns what it returned.
/// `resolve` resolves through the cell's binding and leaves it there: the read inside the gate
/// drops it, once it has resolved; a read inside the property's own resolution (an observer's, or
/// a cycle's) never does, as the outer read still resolves through the store the binding holds.
///
/// The property reads `slot` first and calls this only while nothing is published there.
///
/// `gate` is held by the one thread that runs `resolve`, so the others wait for its value instead
/// of resolving their own. Holding it while the factory runs is safe: only readers of this one
/// property wait on it, and they need exactly the value being built. A reader that would wait
/// for a thread that waits for it (a dependency cycle spanning threads) traps with both chains
/// instead; on one thread, the store traps with the chain (see below).
@inline(__always)
func resolveOnce<Value, Failure: Error>(
    cell: OnceCell<Value>,
    type: Any.Type,
    _ resolve: (OnceCell<Value>) throws(Failure) -> Value
) throws(Failure) -> Value {
    // The thread's stack, borrowed: its storage holds it for as long as the thread runs.
    return try ResolutionStack.withCurrent { (stack) throws(Failure) -> Value in
        switch OnceHeader.enterGate(cell.gate, in: cell.header, on: Unmanaged.passUnretained(stack), resolving: type) {
        case .insideOwnResolution:
            // The store traps with the cycle on this thread's chain (see `FirstReadEntry`).
            return try resolve(cell)
        case .published(let published):
            return published.assumingMemoryBound(to: Value.self).pointee
        case .entered:
            defer { cell.gate.leave() }
            // A throw publishes nothing: the next read resolves again.
            let value = try resolve(cell)
            // Exactly once: only the thread inside the gate that found nothing published gets
            // here, and only it lets go of the binding, after the resolve that went through it.
            OnceHeader.dropBinding(in: cell.header)
            cell.publish(value)
            return value
        }
    }
}

/// A read of a property that can be emptied again (`@ReleasableInjected`, `@WeakInjected`) that
/// found it empty: resolves once per emptying, even when many threads find it empty together,
/// with the cycle detection of `resolveOnce`.
///
/// `held` reads what the property holds (under the property's own lock), `resolve` resolves
/// without keeping anything, and `keep` stores what it resolved (under that lock). The property's
/// lock is never held while `resolve` runs, so a factory, or a `deinit` it causes, may read or
/// release the property. `gate` is held while `resolve` runs, for the reasons `resolveOnce` gives.
func resolveHoldingGate<Value>(
    _ gate: Gate,
    type: Any.Type,
    name: String?,
    requester: Requester,
    held: () -> Value?,
    resolve: () -> Value,
    keep: (Value) -> Void
) -> Value {
    let stack = ResolutionStack.current
    if gate.raw.isHeld(by: stack) {
        // As in `resolveOnce`: this thread is inside this property's own resolution, and the
        // store traps with the cycle on this thread's chain.
        return resolve()
    }
    if let refusal = gate.enter(on: stack, waitingFor: .property(type: type, name: name, requester: requester)) {
        DependencyStore.refused(refusal, resolving: type, name: name, at: requester)
    }
    defer { gate.leave() }
    // Another thread may have resolved while this one waited at the gate.
    if let value = held() { return value }
    let value = resolve()
    keep(value)
    return value
}

/// Enters `gate` for a set of the property (`wrapper`, of `type` and `name`, for `requester`):
/// after a first read in flight on another thread has published, so that the set is what every
/// later read returns. The caller sets, then leaves the gate. A set inside the property's own
/// first read traps, naming the property: that read would publish its value over the set one.
func enterGateToSet(_ gate: RawGate, wrapper: String, type: Any.Type, name: String?, requester: Requester) {
    let stack = ResolutionStack.current
    if gate.isHeld(by: stack) {
        Diagnosis.propertySetRefused(
            wrapper: wrapper, type: Diagnostics.shortName(of: type), declaredAt: requester.location,
            problem: .insideItsOwnFirstRead
        ).trap(file: requester.location.fileID, line: requester.location.line)
    }
    if let refusal = gate.enter(on: stack, waitingFor: .property(type: type, name: name, requester: requester)) {
        DependencyStore.refused(refusal, resolving: type, name: name, at: requester)
    }
}
