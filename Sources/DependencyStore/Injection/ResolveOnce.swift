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
        case .insideOwnResolution: return try resolveEntered(cell, insideGate: false, resolve)
        case .published(let published): return published.assumingMemoryBound(to: Value.self).pointee
        case .entered: return try resolveEntered(cell, insideGate: true, resolve)
        }
    }
}

/// The rest of every first read that found nothing published, once it got on at the gate
/// (`OnceHeader.enterGate`, through `resolveOnce` or `OnceStorage.beginFirstRead(of:)`): inside
/// the gate, resolves, lets go of the binding, publishes, and leaves the gate. Outside it
/// (`insideGate` false), this thread is inside the property's own resolution: `resolve` runs and
/// the store traps with the cycle on this thread's chain (see `FirstReadEntry`).
@inline(__always)
func resolveEntered<Value, Failure: Error>(
    _ cell: OnceCell<Value>, insideGate: Bool, _ resolve: (OnceCell<Value>) throws(Failure) -> Value
) throws(Failure) -> Value {
    guard insideGate else { return try resolve(cell) }
    defer { cell.gate.leave() }
    // A throw publishes nothing: the next read resolves again.
    let value = try resolve(cell)
    // Exactly once: only the thread inside the gate that found nothing published gets here, and
    // only it lets go of the binding, after the resolve that went through it.
    OnceHeader.dropBinding(in: cell.header)
    cell.publish(value)
    return value
}

/// What a property that can be emptied again (`@ReleasableInjected`, `@WeakInjected`) holds, and
/// the reads, sets and releases they share: the property's name and declaration, what it resolves
/// from (kept for as long as it lives, to resolve again after a release), its gate, and what it
/// holds under a lock of its own (`nil` while empty). A struct stored in the wrapper, so it costs
/// no allocation of its own.
///
/// A read that finds it empty resolves once per emptying, even when many threads find it empty
/// together, with the cycle detection of `resolveOnce`. The lock is never held while the resolve
/// runs, so a factory, or a `deinit` it causes, may read or release the property; the gate is
/// held while it runs, for the reasons `resolveOnce` gives.
struct EmptiableProperty<Held> {
    let name: String?
    let declaration: SourceLocation
    let binding: InjectedBinding
    let gate = Gate()
    let held = Lock<Held?>(nil)
    /// `@ReleasableInjected` or `@WeakInjected`, for messages.
    let wrapper: String

    /// Binds the property being created as `@Injected` does, and declares it (of `type`) to the
    /// verification copy it is created in, if it is.
    init(_ wrapper: String, declaring type: Any.Type, name: String?, fileID: StaticString, line: UInt) {
        binding = .forPropertyBeingCreated()
        self.name = name
        self.wrapper = wrapper
        declaration = SourceLocation(fileID: fileID, line: line)
        if let verifier = binding.verifier {
            verifier.declared(type, name: name, optional: false, in: binding.store, at: declaration)
        }
    }

    /// What the property reads: `view` of what it holds, or else what `resolve` resolves through
    /// the binding, which `keep` turns into what it then holds.
    func read<Value>(
        _ type: Any.Type, requester: Requester, view: (Held) -> Value, resolve: (InjectedBinding) -> Value,
        keep: (Value) -> Held
    ) -> Value {
        if let held = held.withLock({ $0 }) { return view(held) }
        let stack = ResolutionStack.current
        if gate.raw.isHeld(by: stack) {
            // As in `resolveOnce`: this thread is inside this property's own resolution, and the
            // store traps with the cycle on this thread's chain.
            return resolve(binding)
        }
        gate.raw.enterProperty(on: stack, type: type, name: name, requester: requester)
        defer { gate.raw.leave() }
        // Another thread may have resolved while this one waited at the gate.
        if let held = held.withLock({ $0 }) { return view(held) }
        let value = resolve(binding)
        let kept = keep(value)
        held.withLock { $0 = kept }
        return value
    }

    /// Holds `value` (empty for `nil`), after a first read in flight: see `enterGateToSet`. What
    /// it held is released after the lock and the gate are left: its `deinit` may run then.
    func set(_ value: Held?, _ type: Any.Type, requester: Requester) {
        enterGateToSet(gate.raw, wrapper: wrapper, type: type, name: name, requester: requester)
        var replaced = value
        held.withLock { swap(&$0, &replaced) }
        gate.raw.leave()
        withExtendedLifetime(replaced) {}
    }

    var isResolved: Bool {
        held.withLock { $0 != nil }
    }

    /// Empties the property, releasing what it held after the lock is left.
    func release() {
        let released = held.withLock { $0.take() }
        withExtendedLifetime(released) {}
    }
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
    gate.enterProperty(on: stack, type: type, name: name, requester: requester)
}
