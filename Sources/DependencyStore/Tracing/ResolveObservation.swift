/// An observer installed with ``DependencyStore/observeResolves(_:)``: cancel it to remove it.
///
/// ```swift
/// let observation = store.observeResolves { event in log(event) }
/// // ...
/// observation.cancel()    // no more events from this observer
/// ```
///
/// The observer stays installed until ``cancel()`` is called or the store goes, whether or not
/// this value is kept: an app that logs every resolve for its whole life may ignore it.
public final class ResolveObservation {
    /// The core of the store it observes, held weakly: an observation does not keep a store, or
    /// its parent, alive.
    private let observed: Lock<WeakCore>

    init(core: StoreCore) {
        observed = Lock(WeakCore(core: core))
    }

    /// Removes the observer from the store: resolves that start after this returns do not call it.
    ///
    /// A resolve on another thread that was already calling its observers may still call it once.
    /// Calling `cancel()` again, or after the store went, does nothing. The observer itself may
    /// call it.
    public func cancel() {
        let core = observed.withLock { observed in
            defer { observed.core = nil }
            return observed.core
        }
        let replaced = core?.registry.withLock { registry in
            defer { registry.observers = ResolveObservers.removing(self, from: registry.observers) }
            return registry.observers
        }
        // Released here, with no lock held: the observer may hold what a deinit resolves from.
        _ = replaced
    }
}

extension ResolveObservation: Sendable {}
