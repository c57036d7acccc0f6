internal import DependencyStoreAtomics

/// A type-keyed store of lazy factories: register how to build a dependency once, resolve it
/// wherever it is needed.
///
/// An app wires its live dependencies into the root store at start-up, usually in a
/// `registerAll()` extension of its own, and library code reads them through ``Injected``:
///
/// ```swift
/// extension DependencyStore {
///     func registerAll() {
///         register(AccessTokenService.shared, for: AccessTokenServiceType.self)
///         register(PriceFetcherType.self) { store in
///             PriceFetcher(networking: store.resolve())
///         }
///     }
/// }
///
/// DependencyStore.shared.registerAll()
///
/// final class SomeViewModel {
///     @Injected var accessTokenService: AccessTokenServiceType
/// }
/// ```
///
/// A test builds a store of its own, registers mocks in it and runs the code under test inside
/// `execute(_:)`; everything created there resolves from the test's store, and the root
/// store is never touched:
///
/// ```swift
/// let store = DependencyStore()
/// store.register(MockAccessTokenService(token: "t-1"), for: AccessTokenServiceType.self)
/// let viewModel = await store.execute { SomeViewModel() }   // no await in synchronous code
/// ```
///
/// Every method may be called from any thread or task at any time. A factory runs on whichever
/// thread resolves it, without any lock of the store held, so it may resolve other dependencies
/// and even register new ones.
///
/// > Important: A factory that is not `@Sendable` may capture state that is not thread-safe (a
/// > mock held in a test's local `let`, say). The store lets you, because tests need it; resolving
/// > such a registration from several threads at once is then your responsibility.
public final class DependencyStore {
    /// What resolves: the registrations, the instances kept for them and the parent. Shared with
    /// the `@Injected` properties of the instances this store keeps, which must not keep this
    /// handle (and so those very instances) alive; see `StoreCore`.
    let core: StoreCore

    /// Whether this handle is the store a user made, whose release closes the core; a handle the
    /// library makes for a core whose store is gone does not close it.
    private let ownsCore: Bool

    /// Everything the store knows, behind its one lock: the core's, held here too so that a
    /// resolve reads it without going through the core, and borrowed: `core` holds the storage.
    let registry: BorrowedLock<StoreCore.Registry>

    /// The store that resolves what this one does not register itself, if any.
    public var parent: DependencyStore? { core.parent }

    /// What diagnostics call this store.
    var origin: Origin { core.origin }

    /// Set on the throw-away copy `verify()` builds in, and only there. The core's, held here
    /// too for the same reason as `registry`.
    let verifier: Verifier?

    /// The core's count of stages in scope, held here too so that a build reads it with one load
    /// less (see `hasStagesInScope`).
    let stageCount: UnsafeMutablePointer<dependency_store_atomic_word>

    enum Origin {
        case root
        case createdAt(SourceLocation)
        /// Made for a test of `DependencyStoreTestCase`, named after it.
        case test(String)
    }

    /// Creates an empty store.
    ///
    /// A new store has no registrations at all and does not fall back on the root store: a test
    /// that uses one gets exactly the dependencies it registered, and a clear trap for anything
    /// else. To keep the live graph and override a few services, layer a store over it with
    /// ``init(parent:fileID:line:)``.
    ///
    /// ```swift
    /// let store = DependencyStore()
    /// store.register(MockNetworking(), for: Networking.self)
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: Where the store is created; diagnostics name the store by it. Leave the default.
    ///   - line: The line where the store is created. Leave the default.
    public convenience init(fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(origin: .createdAt(SourceLocation(fileID: fileID, line: line)))
    }

    /// Creates a store layered over `parent`: what it registers itself wins, and everything else
    /// is resolved as `parent` registers it.
    ///
    /// This is how a test overrides a few services and keeps the rest of the live graph:
    ///
    /// ```swift
    /// let store = DependencyStore(parent: .shared)     // the live store, filled by registerAll()
    /// store.register(MockNetworking(), for: Networking.self)
    /// let price = await store.execute { PriceViewModel() }   // live PriceFetcher, mock Networking
    /// ```
    ///
    /// The parent's cached instances (``Scope/singleton``, ``Scope/weak``, custom) are shared
    /// with this store while it overrides nothing: a store per request that only adds the
    /// request's values gets the app's singletons. Once this store overrides something of its
    /// ancestors (or has decorators, completion steps, contributions or observers of its own), a
    /// registration found in the parent is run by this store: its factory receives this store, so
    /// the dependencies it resolves see the overrides, and this store keeps the instance. An
    /// instance whose factory resolves a value only this store registers is this store's too. See
    /// <doc:Lifetimes>, "Layered stores". Nothing you do through a child changes what the parent
    /// resolves. Registering in the parent later is seen by the child too.
    ///
    /// - Parameters:
    ///   - parent: The store to fall back on.
    ///   - fileID: Where the store is created; diagnostics name the store by it. Leave the default.
    ///   - line: The line where the store is created. Leave the default.
    public convenience init(parent: DependencyStore, fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(origin: .createdAt(SourceLocation(fileID: fileID, line: line)), parent: parent)
        // Not on the parent's list of children yet: it joins when it first keeps or registers
        // something the parent's changes must reach (`StoreCore.joinAncestors`), so a store per
        // request that only provides values takes no lock of the app's.
    }

    convenience init(origin: Origin, parent: DependencyStore? = nil, verifier: Verifier? = nil) {
        self.init(core: StoreCore.make(origin: origin, parent: parent, verifier: verifier), owning: true)
    }

    /// An empty store named after the test it is made for: what `DependencyStoreTestCase` makes,
    /// so that diagnostics name the user's test rather than the library's file.
    package convenience init(forTest name: String, parent: DependencyStore? = nil) {
        self.init(origin: .test(name), parent: parent)
    }

    /// A handle for `core`, which closes it when it goes if `owning`. One that does not own it is
    /// what an `@Injected` property of an instance the store keeps resolves through on its first
    /// read, while the store exists and after it went (`resolving(through:)`).
    private init(core: StoreCore, owning: Bool) {
        self.core = core
        registry = BorrowedLock(of: core)
        verifier = core.verifier
        stageCount = core.stageCount
        ownsCore = owning
    }

    /// Releases every instance the store keeps, outside its lock; see `StoreCore.close()`.
    deinit {
        if ownsCore { core.close() }
    }

    /// The process-wide store that ``shared`` falls back to outside any `execute(_:)`.
    static let root = DependencyStore(origin: .root)

    /// The store that ``Injected`` binds to when it is created.
    ///
    /// That is, innermost first:
    /// - while a factory runs, the store resolving it (so objects a factory builds bind their own
    ///   `@Injected` properties to the same store);
    /// - inside `execute(_:)` or `execute(isolation:_:)`, the store it was called on,
    ///   including in child tasks and `Task {}` created there;
    /// - otherwise the process-wide root store, which the app fills at start-up.
    ///
    /// ```swift
    /// DependencyStore.shared.registerAll()   // at start-up: the root store
    /// ```
    ///
    /// > Important: `Task.detached`, GCD queues and threads you start yourself do not inherit the
    /// > store made current by `execute`. Capture `DependencyStore.shared` before you hand work
    /// > over, and call `execute` on it there. See <doc:TestingGuide>.
    public static var shared: DependencyStore {
        if let resolving = ResolutionStack.withCurrentIfCreated({ $0.currentStore }) {
            return resolving
        }
        return current
    }

    /// The store bound by `execute` for the current task (or thread, outside tasks), or the root
    /// store where none is.
    static var current: DependencyStore {
        // The runtime's lookup of the binding itself, and the reference loaded from where it
        // keeps the value: `TaskLocal.get()` is not inlinable, so the library's call of it copied
        // the store through its type's witnesses (about 40 instructions of every property created
        // in a task). What `get()` returns otherwise: the default.
        let key = UnsafeRawPointer(Unmanaged.passUnretained(boundStore).toOpaque())
        guard let value = runtimeTaskLocalValue(key) else { return root }
        return value.load(as: Unmanaged<DependencyStore>.self).takeUnretainedValue()
    }

    /// The task-local behind `current`: a stored `TaskLocal` rather than `@TaskLocal`, whose
    /// projection could not be `@usableFromInline`, for the async `execute`, inlined into its caller.
    /// Its value is a store, the root store by default, not an optional, so that `current` can
    /// load the reference from where the runtime keeps it.
    @usableFromInline static let boundStore = TaskLocal<DependencyStore>(wrappedValue: root)

    /// The store a property bound to `core` resolves through: a handle of its own over the same
    /// registrations and kept instances, which does not close the core when it goes.
    static func resolving(through core: StoreCore) -> DependencyStore {
        DependencyStore(core: core, owning: false)
    }

    /// Whether a resolve takes a staged copy of the path (see `ResolveStage`): decorators are in
    /// scope, this store's or an ancestor's, or this is a verification copy. A relaxed load of
    /// this store's count, and of each ancestor's (read here rather than pushed down to every
    /// store layered over them), so that while no stage is in scope (almost always) a build pays
    /// nothing more. A decorator added while a build runs may or may not apply to it, as with any
    /// registration made meanwhile.
    var hasStagesInScope: Bool {
        @inline(__always) get {
            // A store with no parent has no bias (see `StoreCore.layeredStageBias`): one load, and
            // zero says no stage. A layered store without stages of its own reads its ancestors'.
            let count = dependency_store_load_relaxed(stageCount)
            return count != 0 && (count != StoreCore.layeredStageBias || core.ancestorsHaveStages)
        }
    }

    /// Whether this is the process-wide root store.
    var isRoot: Bool {
        if case .root = origin { return true }
        return false
    }
}

extension DependencyStore: @unchecked Sendable {}

extension DependencyStore: CustomStringConvertible {
    /// Names the store the way diagnostics do: the root store, or where a store was created.
    public var description: String {
        switch origin {
        case .root: "the root store"
        case .createdAt(let location):
            if let parent {
                "the store created at \(location) (over \(parent))"
            } else {
                "the store created at \(location)"
            }
        case .test(let name):
            "the store of the test \(name)"
        }
    }
}

/// The Concurrency runtime's lookup of a task-local's binding: what `TaskLocal.get()` calls, an
/// entry of the runtime's stable ABI since Swift 5.5 (and in the back-deployed runtime). `key` is
/// the `TaskLocal` object itself, as `withValue` (inlined into every binary that binds one) passes
/// it; the answer is where the innermost binding keeps its value, or `nil` where there is none.
@_silgen_name("swift_task_localValueGet")
private func runtimeTaskLocalValue(_ key: UnsafeRawPointer) -> UnsafeMutableRawPointer?
