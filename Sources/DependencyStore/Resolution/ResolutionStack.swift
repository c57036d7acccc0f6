internal import DependencyStoreAtomics

#if canImport(Darwin)
import Darwin  // the C library, as Glibc or Musl is on Linux
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
        /// The registration being built, unretained; `nil` for a frame pushed by `execute`.
        /// Unretained for the same reason: the resolve that pushed the frame holds it. Kept as a
        /// pointer so that the cycle scan compares it without a retain and release per frame.
        private let registrationPointer: UnsafeMutableRawPointer?

        init(store: DependencyStore, registration: AnyRegistration?) {
            self.store = store
            registrationPointer = registration.map { Unmanaged.passUnretained($0).toOpaque() }
        }

        /// The registration being built; `nil` for a frame pushed by `execute`.
        var registration: AnyRegistration? {
            registrationPointer.map { Unmanaged<AnyRegistration>.fromOpaque($0).takeUnretainedValue() }
        }

        /// Whether this frame builds `registration`, told without retaining anything.
        @inline(__always)
        func builds(_ registration: AnyRegistration) -> Bool {
            registrationPointer == Unmanaged.passUnretained(registration).toOpaque()
        }

        /// Whether this frame builds a registration (and was not pushed by `execute`).
        var isBuild: Bool { registrationPointer != nil }

        /// Whether this frame builds an instance that `core`'s store keeps (`.cached`), told
        /// without retaining anything: what a property created now asks of each frame.
        @inline(__always)
        func buildsKeptInstance(in core: StoreCore) -> Bool {
            guard let registrationPointer else { return false }
            let isKept = Unmanaged<AnyRegistration>.fromOpaque(registrationPointer)._withUnsafeGuaranteedRef {
                $0.lifetime == .cached
            }
            return isKept && Unmanaged.passUnretained(store)._withUnsafeGuaranteedRef { $0.core === core }
        }
    }

    // Only the stack's own thread touches it, and never with two overlapping accesses, so the
    // run-time exclusivity checks (a thread-local lookup each) are switched off for its fields.

    /// The frames, innermost last: `frameCount` of them at `frameStorage`, which has room for
    /// `frameCapacity`. Memory of its own rather than an `Array`: a push is a store and an
    /// increment, with none of the uniqueness check and out-of-line growth path that a
    /// copy-on-write array's `append` and `removeLast` pay on every resolve.
    @exclusivity(unchecked)
    private var frameStorage: UnsafeMutablePointer<Frame>
    @exclusivity(unchecked)
    private var frameCount = 0
    @exclusivity(unchecked)
    private var frameCapacity = 16  // as allocated in `init`

    /// The frames, innermost last. Valid until the next push or pop: read it, do not keep it.
    var frames: UnsafeBufferPointer<Frame> {
        UnsafeBufferPointer(start: frameStorage, count: frameCount)
    }

    /// The `.graph` instances of the top-level resolution running on this thread, by store and
    /// registration. The entry keeps its registration alive, so its identifier cannot be reused
    /// by another registration while the entry exists.
    ///
    /// By store, on purpose: an instance a store layered over another built (a request's) may hold
    /// that store, through its factory's argument, its `@Injected` properties or a value only that
    /// store registers, and an app-wide instance the other builds in the same resolve (the sharing
    /// rule) must not get it; nor may a store that overrides something hand its build to one that
    /// does not.
    @exclusivity(unchecked)
    private var graph: [GraphKey: GraphEntry] = [:]

    struct GraphKey: Hashable {
        let store: ObjectIdentifier
        let registration: ObjectIdentifier
    }

    struct GraphEntry {
        let registration: AnyRegistration
        let instance: Any
        /// The store layered over the building one whose value the build resolved through a
        /// borrow's fall-back (see `Borrow`), so that the instance holds it; `nil` for none.
        /// Held strongly, for as long as the entry (the rest of the top-level resolution): the
        /// borrow that resolved through it may have ended, and a factory may have let go of that
        /// store since (a store of its own, made to resolve one thing). Only resolves through a
        /// layered store's borrow set it, so the retain costs the common paths nothing.
        let layer: DependencyStore?
    }

    /// Set on the threads `DependencyStore.verify()` builds registrations on.
    var verificationWorker: VerificationWorker?

    /// The decorators running on this thread, innermost last, with the registration whose
    /// instance each decorates: a cycle closed inside one names it.
    @exclusivity(unchecked)
    var decorators: [(registration: ObjectIdentifier, location: SourceLocation)] = []

    /// Who asked for each forward being built on this thread, innermost last: what the message
    /// of a forward whose target built the wrong type names.
    @exclusivity(unchecked)
    var forwardRequesters: [Requester] = []

    /// The assemblies being applied on this thread, innermost last (see `AssemblyTag`).
    @exclusivity(unchecked)
    var assemblies: [AssemblyTag] = []

    /// The resolves this thread is running in a store on behalf of a store layered over it (the
    /// sharing rule: see `DependencyStore.resolveBorrowed`), innermost last.
    @exclusivity(unchecked)
    var borrows: [Borrow] = []

    /// One resolve made in `owner` (the registration's store, or a store between that keeps its
    /// own copy), whose instance a store layered over it, `borrower`, shares. A resolve inside it
    /// that finds nothing in `owner` falls back to `borrower` (a request's value); the
    /// registrations being built around that resolve are then `tainted`: what they build is
    /// `borrower`'s alone, and no slot keeps it. An entry with no `owner` is that fall-back
    /// resolve itself, in which `borrower` keeps what it builds as usual.
    struct Borrow {
        /// Unowned: the resolve that pushed the entry holds both stores.
        unowned(unsafe) let owner: DependencyStore?
        unowned(unsafe) let borrower: DependencyStore
        /// How many frames the stack had when the entry was pushed: the frames of the borrowed
        /// resolve come after.
        let frameIndex: Int
        var tainted: [AnyRegistration] = []
        /// Whether a fall-back made for an enclosing borrow tainted it: the value is that borrow's
        /// borrower's, deeper than this one's, and that borrow builds everything again there.
        var taintedForAnEnclosingBorrow = false
        /// What builds of `tainted` registrations built and no slot kept, in the order built: the
        /// owner closes it once the resolve is over, since nobody else gets it.
        var setAside: [DiscardedInstance] = []
    }

    /// Hands `box`, what `registration` built and `keep` did not keep because the build resolved
    /// a value of a layer, to the innermost borrow, which closes it (see `resolveBorrowed`).
    func setAside(_ box: AnyObject, of registration: AnyRegistration) {
        guard
            let index = borrows.indices.last(where: { index in
                borrows[index].owner != nil && borrows[index].tainted.contains { $0 === registration }
            })
        else { return }
        setAside(box, of: registration, inBorrowAt: index)
    }

    private func setAside(_ box: AnyObject, of registration: AnyRegistration, inBorrowAt index: Int) {
        borrows[index].setAside.append(
            DiscardedInstance(registration: registration, box: box, sequence: borrows[index].setAside.count))
    }

    /// Whether `registration`, whose build just returned on this thread, resolved a value that
    /// only a store layered over the building store registers: then no slot keeps what it built.
    func builtForALayer(_ registration: AnyRegistration) -> Bool {
        borrows.contains { $0.tainted.contains { $0 === registration } }
    }

    /// Marks the registrations being built inside the borrow at `index` as having resolved a value
    /// of the borrower's own, and returns them, outermost first.
    func taintBorrow(at index: Int) -> [AnyRegistration] {
        let building = registrations(from: borrows[index].frameIndex)
        for inner in index..<borrows.count {
            borrows[inner].tainted += building.filter { registration in
                !borrows[inner].tainted.contains { $0 === registration }
            }
            if inner > index { borrows[inner].taintedForAnEnclosingBorrow = true }
        }
        return building
    }

    /// Hands what the borrow that just ended set aside, `setAside`, to the innermost borrow
    /// enclosing it, whose own set-aside builds depend on it: closed after them, by that borrow.
    /// Returns `false` when there is no such borrow.
    func handOver(_ setAside: [DiscardedInstance]) -> Bool {
        guard let index = borrows.indices.last(where: { borrows[$0].owner != nil }) else { return false }
        for discarded in setAside {
            self.setAside(discarded.box, of: discarded.registration, inBorrowAt: index)
        }
        return true
    }

    // MARK: Chains and removals (see `Tombstones`)

    /// What this thread publishes: the epoch its running chain began in, which only this thread
    /// writes and removals read, and its hazard (see `Tombstones.Cells`).
    private let cells: Tombstones.Cells

    /// 0 while no chain runs on this thread, else the removal epoch the running chain began in.
    private var chainCell: UnsafeMutablePointer<dependency_store_atomic_word> { cells.chain }

    /// The address of the table of shared instances this thread is reading, if any (see
    /// `SharedInstances`).
    var hazard: UnsafeMutablePointer<dependency_store_atomic_address> { cells.hazard }

    /// Whether a chain runs on this thread: a build, or a resolve of several instances at once,
    /// has begun and not returned.
    @inline(__always)
    var isInChain: Bool { dependency_store_load_relaxed(chainCell) != 0 }

    /// The removal epoch this thread's latest lookup of a registration to build in a slot ran in
    /// (`.found`, `.observed`), read under the lock of the store holding the registration: what
    /// the chain its build begins compares its own epoch to (`.unkept` carries its own). A value
    /// left by an older lookup is safe: it differs from the chain's if any removal came since.
    @exclusivity(unchecked)
    var lookupEpoch = 0

    /// How many resolves beginning a chain are looking their registration up again on this
    /// thread, one inside the other (see `beginChain(building:in:lookedUpIn:)`).
    @exclusivity(unchecked)
    var lookupRetries = 0

    /// The instances this chain built from registrations a removal took away after it began:
    /// kept until the chain ends, then closed.
    @exclusivity(unchecked)
    private var chainSlots = ChainSlots()

    /// Begins a chain: publishes the removal epoch it begins in, and returns it.
    @inline(__always)
    func beginChain() -> Int {
        Tombstones.begin(in: chainCell)
    }

    /// Begins the chain of a build of `registration`, which `store` looked up in removal epoch
    /// `epoch` (or, when `nil`, in `lookupEpoch`). If a removal came in between (the lookup's
    /// epoch is not the chain's), it may have taken the registration away, and what it took is not
    /// this chain's to see: unless `store` still resolves to the registration (a removal
    /// elsewhere), it ends the chain again, adds one to `lookupRetries` and returns `false`; the
    /// caller looks the registration up again, after the removal, and takes the one off when
    /// that returns. Eight deep at most, should removals keep coming.
    @inline(__always)
    func beginChain(building registration: AnyRegistration, in store: DependencyStore, lookedUpIn epoch: Int?)
        -> Bool
    {
        if _fastPath(beginChain() == epoch ?? lookupEpoch) { return true }
        return beganChainAfterALookUp(of: registration, in: store)
    }

    @inline(never)
    private func beganChainAfterALookUp(of registration: AnyRegistration, in store: DependencyStore) -> Bool {
        // An element of a collection is not looked up by type (its collection drops one removed
        // since it was listed: see `resolveContributions`), nor is an alternative `verify()`
        // builds on its own. Still there now, with the chain published: a removal of it from now
        // on comes after the chain began.
        guard lookupRetries < 8, registration.role.isLookedUp, !store.stillResolves(to: registration) else {
            return true
        }
        endChain()
        lookupRetries += 1
        return false
    }

    /// Records, in this thread's stack, the removal epoch a lookup that found a registration to
    /// build in a slot runs in. Call with the lock of the store holding the registration.
    @inline(__always)
    static func recordLookupEpoch() {
        // The build that follows needs the stack anyway.
        withCurrent { $0.lookupEpoch = Tombstones.currentEpoch }
    }

    /// The removal epoch the running chain began in; 0 outside a chain.
    var chainBegun: Int { dependency_store_load_relaxed(chainCell) }

    /// Begins a chain unless one runs already, for a resolve that looks up several registrations
    /// (a collection's elements, a borrowed instance) before it builds any: returns whether it
    /// began one, which the caller ends.
    @inline(__always)
    func beginChainIfNone() -> Bool {
        guard !isInChain else { return false }
        _ = beginChain()
        return true
    }

    /// Ends the chain: closes what it built from tombstones, and lets removals forget what no
    /// chain needs any more.
    @inline(__always)
    func endChain() {
        if _slowPath(!chainSlots.isEmpty) { closeChainSlots() }
        Tombstones.end(in: chainCell)
    }

    /// Withdraws, for good, what this thread publishes to other threads: its build stopped and the
    /// thread is parked (see `Verifier.park`), so it will read no table of shared instances and
    /// run no chain again. A chain left published would have every later removal in the process
    /// keep its tombstones for ever, and every miss look through them.
    func withdrawForParking() {
        Tombstones.unprotect(hazard)
        if isInChain { endChain() }
    }

    /// The slot in which this chain keeps what it builds from `registration`, which a removal
    /// described by `how` took away after the chain began.
    func chainSlot(for registration: AnyRegistration, in store: DependencyStore, removedBy how: String) -> InstanceSlot
    {
        chainSlots.slot(for: registration, in: store, removedBy: how)
    }

    @inline(never)
    private func closeChainSlots() {
        var ending = ChainSlots()
        swap(&ending, &chainSlots)
        ending.close()
    }

    /// What tracing keeps for this thread, made when a store with observers first resolves on it.
    var trace: ThreadTrace?

    /// The completion steps queued on this thread (see `Decoration/Completion.swift`), made when
    /// one is first queued.
    var completion: CompletionQueue?

    private init() {
        frameStorage = .allocate(capacity: 16)
        cells = .make()
    }

    deinit {
        // Frames hold nothing (their references are unretained), so there is nothing to deinitialise.
        frameStorage.deallocate()
        cells.free()
    }

    /// This thread, as `Gate` and `WaitGraph` name it: the stack's address, which is this
    /// thread's for as long as the thread runs.
    @inline(__always)
    var identity: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// Whether this thread is running a factory of a registration that `core` keeps the instance
    /// of (`.singleton`, a custom scope), anywhere on its chain: what it creates may end up in
    /// that instance.
    @inline(__always)
    func isBuildingKeptInstance(in core: StoreCore) -> Bool {
        var index = frameCount
        while index > 0 {
            index -= 1
            if frameStorage[index].buildsKeptInstance(in: core) { return true }
        }
        return false
    }

    /// The build that `isBuildingKeptInstance(in: core)` found: the innermost registration on this
    /// thread's chain whose instance `core` keeps, and the innermost factory running (the one
    /// creating whatever asks), for a property created now (see `PropertyOrigin`).
    @inline(never)
    func propertyOrigin(in core: StoreCore) -> PropertyOrigin {
        let kept = frames.last { $0.registration?.lifetime == .cached && $0.store.core === core }!.registration!
        return PropertyOrigin(core: core, kept: kept, creator: frames.last(where: \.isBuild)?.registration ?? kept)
    }

    /// `currentStore`, unretained: valid while its frame is on the stack.
    var currentStoreUnretained: Unmanaged<DependencyStore>? {
        frameCount > 0 ? Unmanaged.passUnretained(frameStorage[frameCount - 1].store) : nil
    }

    /// The store of the innermost frame, if this thread is inside a factory or a sync `execute`.
    var currentStore: DependencyStore? {
        frameCount > 0 ? frameStorage[frameCount - 1].store : nil
    }

    /// The index of the frame building `registration` in `store`, if that resolution is already
    /// running on this thread: a cycle.
    @inline(__always)
    func indexOfFrame(building registration: AnyRegistration, in store: DependencyStore) -> Int? {
        // Chains are short (a handful of frames), so a linear scan beats any set.
        var index = frameCount
        while index > 0 {
            index -= 1
            let frame = frameStorage[index]
            // By core: a store whose handle was released resolves through another handle.
            if frame.builds(registration), frame.store.core === store.core { return index }
        }
        return nil
    }

    /// The registrations being built on this thread, in any store, outermost first, from frame
    /// `start` on; `execute` frames are skipped.
    func registrations(from start: Int = 0) -> [AnyRegistration] {
        frames[start...].compactMap(\.registration)
    }

    @inline(__always)
    func push(_ frame: Frame) {
        if _slowPath(frameCount == frameCapacity) { growFrames() }
        (frameStorage + frameCount).initialize(to: frame)
        frameCount += 1
    }

    /// Doubles the room for frames: a chain deeper than any seen on this thread so far.
    @inline(never)
    private func growFrames() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: 2 * frameCapacity)
        larger.moveInitialize(from: frameStorage, count: frameCount)
        frameStorage.deallocate()
        frameStorage = larger
        frameCapacity *= 2
    }

    @inline(__always)
    func pop() {
        frameCount -= 1
        // The graph is empty unless a `.graph` registration was resolved inside another
        // resolution, so the common pop pays one check, and calls nothing.
        if _slowPath(!graph.isEmpty) { forgetGraphUnlessResolving() }
    }

    /// Empties the graph once the top-level resolution has returned.
    @inline(never)
    private func forgetGraphUnlessResolving() {
        if !isResolving { forgetGraph() }
    }

    /// Empties the graph, and lets go of what it held once it is empty: the last release of a
    /// `.graph` instance runs its `deinit`, which may resolve on this thread, and so push, pop and
    /// remember in the graph. Emptied in place, the dictionary was being written while its
    /// elements were released (an access the compiler does not check here, see `graph`).
    private func forgetGraph() {
        var held: [GraphKey: GraphEntry] = [:]
        swap(&held, &graph)
        _ = consume held
    }

    /// Whether a factory is running on this thread, or a resolve of several instances at once (a
    /// collection) is: the top-level resolution has not returned.
    private var isResolving: Bool {
        sharedGraphs > 0 || frames.contains { $0.isBuild }
    }

    /// How many resolves of several instances at once are running on this thread, outside any
    /// factory's: each shares one graph among what it builds.
    @exclusivity(unchecked)
    private var sharedGraphs = 0

    /// Runs `body`, which resolves several instances (the elements of a collection), as one
    /// top-level resolution: their `.graph` dependencies are shared among them as among the
    /// dependencies of one instance.
    func sharingOneGraph<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        enterSharedGraph()
        // One chain too: its elements were looked up before any of them is built.
        let beganChain = beginChainIfNone()
        defer {
            if beganChain { endChain() }
            leaveSharedGraph()
        }
        return try body()
    }

    /// `sharingOneGraph` in two calls, for a caller that must not add a closure's frame to each
    /// level of a deep chain.
    func enterSharedGraph() {
        sharedGraphs += 1
    }

    func leaveSharedGraph() {
        sharedGraphs -= 1
        if !graph.isEmpty, !isResolving { forgetGraph() }
    }

    /// The `.graph` instance of `registration` already built in `store` by this top-level
    /// resolution.
    func graphEntry(of registration: AnyRegistration, in store: DependencyStore) -> GraphEntry? {
        graph[GraphKey(store: ObjectIdentifier(store.core), registration: ObjectIdentifier(registration))]
    }

    /// Shares `instance` with the rest of this top-level resolution; a top-level resolve of a
    /// `.graph` registration has nobody to share with, so nothing is kept.
    func rememberInGraph(_ instance: Any, of registration: AnyRegistration, in store: DependencyStore) {
        guard isResolving else { return }
        let layer = borrows.isEmpty ? nil : layerReached(by: registration, builtIn: store)
        graph[GraphKey(store: ObjectIdentifier(store.core), registration: ObjectIdentifier(registration))] =
            GraphEntry(registration: registration, instance: instance, layer: layer)
    }

    /// The store whose value the build of `registration` in `store` that just returned resolved
    /// through a borrow's fall-back: the borrower of the outermost borrow made for `store` (or a
    /// store over it) that counts `registration` as tainted, which is the deepest of those
    /// borrowers; `nil` when there is none.
    private func layerReached(by registration: AnyRegistration, builtIn store: DependencyStore) -> DependencyStore? {
        borrows.first { borrow in
            guard let owner = borrow.owner, borrow.tainted.contains(where: { $0 === registration }) else {
                return false
            }
            return sequence(first: owner, next: \.parent).contains { $0.core === store.core }
        }?.borrower
    }
}

// MARK: - Per-thread storage

extension ResolutionStack {
    /// This thread's stack, created on first use and released when the thread exits.
    static var current: ResolutionStack {
        currentUnretained.takeUnretainedValue()
    }

    /// Runs `body` with this thread's stack, created on first use, without retaining it: the
    /// thread's storage holds it until the thread exits, and `body` runs on this thread. What
    /// every resolve uses, where `current` would pay a retain and a release (atomic, about 40
    /// instructions together) for a reference that cannot go away meanwhile.
    @inline(__always)
    static func withCurrent<R, E: Error>(_ body: (ResolutionStack) throws(E) -> R) throws(E) -> R {
        let pointer = dependency_store_current_stack() ?? createCurrent()
        do {
            return try Unmanaged<ResolutionStack>.fromOpaque(pointer)._withUnsafeGuaranteedRef { try body($0) }
        } catch {
            // `body` throws only `E`.
            throw error as! E
        }
    }

    /// This thread's stack, created on first use, unretained: valid on this thread for as long as
    /// it runs (see `withCurrent`). For a caller that only passes the stack on, where a closure
    /// would be kept out of line.
    @inline(__always)
    static var currentUnretained: Unmanaged<ResolutionStack> {
        Unmanaged.fromOpaque(dependency_store_current_stack() ?? createCurrent())
    }

    /// Makes this thread's stack, which the thread's storage holds from now on: a C thread-local,
    /// which every resolve reads in a load or two, where `pthread_getspecific` is a call; and a
    /// pthread key, whose destructor releases the stack when the thread exits.
    @inline(never)
    fileprivate static func createCurrent() -> UnsafeMutableRawPointer {
        let pointer = Unmanaged.passRetained(ResolutionStack()).toOpaque()
        pthread_setspecific(threadKey, pointer)
        dependency_store_set_current_stack(pointer)
        return pointer
    }

    /// `body` of this thread's stack if it has one, `nil` if it has none, without retaining the
    /// stack (see `withCurrent`): for the checks made each time a property is created, or
    /// `shared` is read. The stack is passed as it is, not as an optional: wrapped in one, it
    /// was retained and released around `body` (about 40 instructions a property).
    @inline(__always)
    static func withCurrentIfCreated<R>(_ body: (ResolutionStack) -> R?) -> R? {
        guard let pointer = dependency_store_current_stack() else { return nil }
        return Unmanaged<ResolutionStack>.fromOpaque(pointer)._withUnsafeGuaranteedRef { body($0) }
    }

    /// This thread's stack if it ever resolved or executed anything; `nil` spares an allocation
    /// on threads that only ask `DependencyStore.shared`.
    static var currentIfCreated: ResolutionStack? {
        guard let pointer = dependency_store_current_stack() else { return nil }
        return Unmanaged<ResolutionStack>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, releaseResolutionStack)
        precondition(result == 0, "DependencyStore: pthread_key_create failed with \(result)")
        return key
    }()
}

// The thread-local is cleared first, as pthread clears the key's value before it calls this: a
// resolve made while the stack is released (by a `deinit`) makes a new stack, which the next
// round of key destructors releases. Darwin-only: the destructor takes a non-optional pointer
// there; it mirrors the Linux one below, which unwraps the optional pointer Glibc and Musl pass.
#if canImport(Darwin)
private func releaseResolutionStack(_ pointer: UnsafeMutableRawPointer) {
    dependency_store_set_current_stack(nil)
    Unmanaged<ResolutionStack>.fromOpaque(pointer).release()
}
#else
private func releaseResolutionStack(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    dependency_store_set_current_stack(nil)
    Unmanaged<ResolutionStack>.fromOpaque(pointer).release()
}
#endif
