extension DependencyStore {
    /// Runs `initializations` with this store as ``DependencyStore/shared``.
    ///
    /// Every ``Injected`` property created inside the closure, however deep, binds to this store
    /// and resolves from it, even when it is first read later, after `execute` has returned, on
    /// another thread. This is how a test injects mocks without touching the live root store:
    ///
    /// ```swift
    /// @Test func showsTheToken() {
    ///     let store = DependencyStore()
    ///     store.register(MockAccessTokenService(token: "t-1"), for: AccessTokenServiceType.self)
    ///
    ///     let viewModel = store.execute { SomeViewModel() }
    ///
    ///     #expect(viewModel.title == "t-1")
    /// }
    /// ```
    ///
    /// The binding is scoped: the previous store is current again when the closure returns or
    /// throws; calls nest (the innermost store wins); and code running at the same time outside
    /// the closure, such as another test on another thread, never sees this store. `Task {}` and
    /// child tasks created inside inherit it; `Task.detached`, GCD queues and threads you start
    /// yourself do not (see <doc:TestingGuide> for how to hand the store over).
    ///
    /// > Important: The binding belongs to the calling thread while the closure is on its stack,
    /// > so it covers everything that thread runs in the meantime, not only your code. If the
    /// > closure spins a run loop (`RunLoop.main.run(until:)`, or XCTest's `wait(for:timeout:)`,
    /// > which does), main-queue blocks and timers that other code scheduled run inside it, and
    /// > `@Injected` properties they create bind to this store. In tests, prefer the async form,
    /// > ``execute(isolation:_:)``, with `await fulfillment(of:)`, which binds a task, not a
    /// > thread; `DependencyStoreTestCase` runs main-queue work left over from before a test
    /// > before it makes the test's store current.
    ///
    /// In an `async` context, the async form runs instead, synchronous closure and all: write
    /// `await store.execute { ... }` there.
    ///
    /// - Parameter initializations: The code to run against this store.
    /// - Returns: What `initializations` returns.
    /// - Throws: What `initializations` throws, after the previous store is restored.
    // Disfavoured, so that in an `async` context `await store.execute { syncWork() }` picks the
    // async form and compiles without "no 'async' operations occur within 'await' expression".
    // In a synchronous context the async form cannot be called, and this one runs.
    // Inlinable, so that the caller's copy is specialised for `R` and inlines the task-local's
    // `withValue`: in this module's generic copy, the binding was a call, and the store was
    // copied in and out of it through its type's witnesses (about 300 instructions a call).
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public func execute<R>(_ initializations: () throws -> R) rethrows -> R {
        // The task-local carries the store into tasks created inside; the frame on the thread's
        // stack makes it win over a factory that is running further out on this thread.
        pushExecuteFrame()
        defer { popExecuteFrame() }
        return try Self.boundStore.withValue(self, operation: initializations)
    }

    /// Puts this store on the thread's stack of resolutions for `execute`'s closure: a frame that
    /// builds nothing, and holds the store unretained (`execute`'s caller holds it).
    @usableFromInline
    func pushExecuteFrame() {
        ResolutionStack.withCurrent { $0.push(ResolutionStack.Frame(store: self, registration: nil)) }
    }

    /// Takes the frame of `pushExecuteFrame()` off the thread's stack, when the closure returns
    /// or throws.
    @usableFromInline
    func popExecuteFrame() {
        ResolutionStack.withCurrent { $0.pop() }
    }

    /// Runs asynchronous `initializations` with this store as ``DependencyStore/shared``, across
    /// every suspension point and in the child tasks it creates.
    ///
    /// The closure runs in the caller's isolation, so a `@MainActor` test can touch main-actor
    /// state inside it:
    ///
    /// ```swift
    /// @MainActor @Test func loadsThePrice() async {
    ///     let store = DependencyStore()
    ///     store.register(MockPriceFetcher(amount: 42), for: PriceFetching.self)
    ///
    ///     await store.execute {
    ///         let model = PriceModel()     // a @MainActor class; its @Injected fetcher binds here
    ///         await model.refresh()        // resolves the mock, even after suspending
    ///         #expect(model.text == "$42.00")
    ///     }
    /// }
    /// ```
    ///
    /// `async let`, task groups and `Task {}` started inside inherit the store; `Task.detached`,
    /// GCD queues and threads you start yourself do not.
    ///
    /// - Parameters:
    ///   - isolation: The actor to run on; the default is the caller's. Leave the default.
    ///   - initializations: The code to run against this store.
    /// - Returns: What `initializations` returns.
    /// - Throws: What `initializations` throws, after the previous store is restored.
    // Inlinable, so that a handler's `await store.execute { ... }` is no call into an async
    // function of another module (about 1,700 instructions a request: see CHANGELOG.md).
    @inlinable
    @discardableResult
    public func execute<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ initializations: () async throws -> R
    ) async rethrows -> R {
        try await Self.boundStore.withValue(self, operation: initializations, isolation: isolation)
    }

    /// Wraps `work` so that it runs with this store as ``DependencyStore/shared`` wherever it is
    /// called: the way to hand a store to work that leaves the task tree.
    ///
    /// A GCD queue, a `Thread` or a `Task.detached` does not inherit the store that `execute`
    /// made current; capture it where it is current and bind the work to it:
    ///
    /// ```swift
    /// // In a test running inside store.execute { }, or under the .dependencyStore trait:
    /// DispatchQueue.global().async(execute: DependencyStore.shared.bind {
    ///     let uploader = Uploader()       // binds to the test's store, not the root store
    ///     uploader.start()
    /// })
    /// ```
    ///
    /// For a detached task, call the async `execute` inside it instead:
    /// `Task.detached { [store = DependencyStore.shared] in await store.execute { ... } }`.
    ///
    /// - Parameter work: The code to run against this store.
    /// - Returns: A closure that runs `work` inside ``execute(_:)`` on this store, each time it is
    ///   called, on whatever thread calls it.
    public func bind<R>(_ work: @escaping @Sendable () -> R) -> @Sendable () -> R {
        { self.execute(work) }
    }

    /// Wraps async `work` so that it runs with this store as ``DependencyStore/shared`` wherever
    /// it is called: what a server hands to code that runs after its handler returned, such as a
    /// streamed response body, so that the body still resolves from the request's store.
    ///
    /// ```swift
    /// let request = DependencyStore(parent: .shared)
    /// let body = request.bind {
    ///     let report = PriceReport()          // binds to the request's store
    ///     return await report.render()
    /// }
    /// // ... later, after the handler returned:
    /// let text = try await body()
    /// ```
    ///
    /// Each call runs `work` inside ``execute(isolation:_:)`` on this store, so tasks it creates
    /// inherit the store too. The closure keeps the store alive for as long as it is kept.
    ///
    /// - Parameter work: The async code to run against this store.
    /// - Returns: A closure that runs `work` inside the async `execute` on this store, each time
    ///   it is called.
    public func bind<R: Sendable>(
        _ work: @escaping @Sendable () async throws -> R
    ) -> @Sendable () async throws -> R {
        { try await self.execute(work) }
    }
}
