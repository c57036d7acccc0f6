internal import DependencyStoreAtomics

/// A value written once and then read by any thread without a lock, with the gate its one writer
/// holds, all in one allocation: how an injected property keeps its value.
///
/// Layout: the gate's header (owner, published, mutex; see `RawGate`), then the value, inline.
/// The value is initialised in place and its address published with a release store; a reader
/// that loads the address with acquire sees the whole value. Nothing writes it again.
@usableFromInline
struct OnceCell<Value> {
    @usableFromInline let gate: RawGate

    private static var valueOffset: Int {
        let alignment = MemoryLayout<Value>.alignment
        return (RawGate.headerSize + alignment - 1) / alignment * alignment
    }

    /// Allocates and initialises an empty cell.
    init() {
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: Self.valueOffset + MemoryLayout<Value>.size,
            alignment: max(16, MemoryLayout<Value>.alignment)
        )
        gate = RawGate(initializingAt: memory)
    }

    /// Publishes `value`. Call once, from the one thread inside the gate.
    func publish(_ value: Value) {
        precondition(gate.publishedCell.pointee == nil, "DependencyStore: an injected value was published twice")
        let address = gate.base + Self.valueOffset
        address.initializeMemory(as: Value.self, repeating: value, count: 1)
        dependency_store_store_release(gate.publishedCell, address)
    }

    /// Destroys the value, if published, and frees the memory. Call from the owner's `deinit`.
    func deallocate() {
        if let value = gate.publishedCell.pointee {
            value.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        }
        gate.destroy()
        gate.base.deallocate()
    }
}
