/// What an injected property resolves from until its first read, and why it holds what it holds.
enum InjectedBinding {
    /// The store that was current when the property was created. Holding it keeps the store, and
    /// the instances it keeps, alive until the first read, however early the code that made the
    /// property lets go of the store (`let model = store.execute { Model() }`).
    case store(DependencyStore)
    /// The core of a store that was building an instance it keeps when the property was created:
    /// the property most likely belongs to that instance, which the store holds, so holding the
    /// store would keep both alive forever. The core resolves as the store does while the store
    /// exists, and builds without keeping anything after it is released. With it, the build that
    /// created the property, which a missing registration's message names (see `PropertyOrigin`).
    case core(PropertyOrigin)
    /// Resolved: the property holds nothing of the store any more.
    case resolved
    /// Resolved by a read whose property was the store's last owner: the property keeps the
    /// store for as long as it lives, so that its first read does not end the store, and close
    /// what the store kept (the value it handed out among them) before the caller has it (see
    /// `OnceHeader.dropBinding(in:)`).
    case resolvedKeeping(DependencyStore)
    /// Set after its first value was published: what the property keeps of the values it held.
    case replaced(ReplacedValues)

    /// Binds to `store`, by the rule above.
    init(_ store: DependencyStore) {
        // The thread's stack, borrowed: no retain and release for a reference that cannot go.
        let origin = ResolutionStack.withCurrentIfCreated { stack -> PropertyOrigin? in
            guard stack.isBuildingKeptInstance(in: store.core) else { return nil }
            return stack.propertyOrigin(in: store.core)
        }
        if let origin {
            self = .core(origin)
        } else {
            self = .store(store)
        }
    }

    /// The binding of a property being created now: to ``DependencyStore/shared``, by the rule
    /// above. One look at the thread's stack answers both what `shared` is and whether that store
    /// is building an instance it keeps, where `InjectedBinding(.shared)` would look twice.
    @inline(__always)
    static func forPropertyBeingCreated() -> InjectedBinding {
        let binding = ResolutionStack.withCurrentIfCreated { stack -> InjectedBinding? in
            // A factory or a synchronous `execute` running on this thread: `shared` is its store.
            // Unretained until the binding takes it: its frame holds it.
            guard let store = stack.currentStoreUnretained else { return nil }
            let keeps = store._withUnsafeGuaranteedRef { stack.isBuildingKeptInstance(in: $0.core) }
            guard keeps else { return .store(store.takeUnretainedValue()) }
            return store._withUnsafeGuaranteedRef { .core(stack.propertyOrigin(in: $0.core)) }
        }
        if let binding { return binding }
        return .store(DependencyStore.current)
    }

    /// The store of a `.store` binding, not retained: valid for as long as the binding holds it.
    var unretainedStore: Unmanaged<DependencyStore>? {
        switch self {
        case .store(let store): Unmanaged.passUnretained(store)
        case .core, .resolved, .resolvedKeeping, .replaced: nil
        }
    }

    /// The verification copy the property was created in, if it was: what records its edge.
    var verifier: Verifier? {
        switch self {
        case .store(let store): store.verifier
        case .core(let origin): origin.core.verifier
        case .resolved, .resolvedKeeping, .replaced: nil
        }
    }

    /// The store to resolve from; only called before the first read has resolved.
    var store: DependencyStore {
        switch self {
        case .store(let store): store
        case .core(let origin): DependencyStore.resolving(through: origin.core)
        case .resolved, .resolvedKeeping, .replaced:
            preconditionFailure("DependencyStore: an injected property resolved twice")
        }
    }
}

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
