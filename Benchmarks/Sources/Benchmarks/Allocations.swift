import DependencyStore

/// Performs `count` operations of one kind and nothing else, so that running this twice under
/// `valgrind --tool=memcheck` (with two counts) gives the allocations per operation as the
/// difference of the two totals. See `count-allocations.sh`. `floor` is the mutex-dictionary floor, for comparison.
func countAllocations(of kind: String, count: Int) -> Bool {
    let store = DependencyStore()
    store.register(LiveService(), for: Service.self, scope: .singleton)
    store.register(Leaf(), for: Leaf.self)
    store.register(Root.self) { store in Root(left: store.resolve(), right: store.resolve()) }
    _ = store.resolve(Service.self)
    _ = store.resolve(Root.self)
    let holder = store.execute { InjectedHolder() }
    _ = holder.service
    store.execute { blackHole(0) }

    switch kind {
    case "singleton":
        for _ in 0..<count { blackHole(store.resolve(Service.self)) }
    case "graph":
        // The factories build three objects; anything above 3 per resolve is the store's.
        for _ in 0..<count { blackHole(store.resolve(Root.self)) }
    case "injected":
        for _ in 0..<count { blackHole(holder.service) }
    case "floor":
        let floor = Floor()
        floor.store(LiveService(), for: Service.self)
        for _ in 0..<count { blackHole(floor.instance(for: Service.self)) }
    case "execute":
        for _ in 0..<count { store.execute { blackHole(count) } }
    default:
        return false
    }
    return true
}
