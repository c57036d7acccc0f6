extension DependencyStore {
    /// Calls `observer` after every resolve through this store: what was resolved, whether a
    /// factory ran and for how long, and what was being built around it.
    ///
    /// For logging what the store does, or finding what makes start-up slow:
    ///
    /// ```swift
    /// DependencyStore.shared.observeResolves { event in
    ///     if let build = event.build, build.ownNanoseconds > 5_000_000 {
    ///         print("slow factory: \(event)")
    ///     }
    /// }
    /// ```
    ///
    /// Each resolve calls the observer once, on the thread that resolved (for an `async` factory,
    /// in the task that ran it), after the factory returned, with no lock of the store held. A
    /// `.singleton` resolved first by many threads at once reports one build, and the instance
    /// reused for each of the others. Resolves that fail report nothing.
    ///
    /// The observer sees the resolves of this store only: those of a store layered over it
    /// (``init(parent:fileID:line:)``) are that store's, even for registrations it finds here, so
    /// a test's store over ``shared`` does not report to an observer the app installed on
    /// ``shared``. Install the observer on the store whose resolves you want.
    ///
    /// With no observer installed, a resolve costs what it always did. With one, every resolve of
    /// the store takes the reporting path: a kept instance's resolve about twice the instructions
    /// it takes without one (the event's text is made when the observer reads it), a build about a
    /// microsecond more, and the observer's own time. It is meant for start-up, debugging and
    /// tests.
    ///
    /// > Important: The observer runs on whichever thread resolves, possibly many at once, so it
    /// > must be thread-safe (it is `@Sendable`). It may resolve from the store, but those resolves
    /// > are not reported, and resolving what is still being built further out on the same thread
    /// > (the `chain`) traps as the cycle it is, as it would in a factory.
    ///
    /// - Parameter observer: Called with each resolve's ``ResolveEvent``.
    /// - Returns: The observation, whose ``ResolveObservation/cancel()`` removes the observer.
    ///   The observer stays installed until then (or until the store goes) whether you keep the
    ///   observation or not.
    @discardableResult
    public func observeResolves(_ observer: @escaping @Sendable (ResolveEvent) -> Void) -> ResolveObservation {
        let observation = ResolveObservation(core: core)
        // Described outside the lock: the description reads the parent's.
        let store = description
        registry.withLock { registry in
            registry.observers = ResolveObservers.adding(observer, for: observation, to: registry.observers, of: store)
            core.stopsSharing(&registry)
            // A resolve through a layered store must report to the observer now, so it takes
            // the lock again rather than read what this store published (see `SharedInstances`).
            core.unshareAll()
        }
        return observation
    }

    /// Starts recording the factories this store runs, for a ``StartupReport``: stop the
    /// recording where start-up ends, for example when the first screen appears.
    ///
    /// ```swift
    /// let recording = DependencyStore.shared.startRecording()
    /// DependencyStore.shared.registerAll()
    /// // ... later, when the first screen has appeared:
    /// print(recording.stop())       // the factories that ran, slowest first
    /// ```
    ///
    /// Every factory run through this store counts, on any thread, until ``StartupRecording/stop()``;
    /// the recording stops too when the ``StartupRecording`` is released. It is an observer (see
    /// ``observeResolves(_:)``), and reports this store's resolves only.
    ///
    /// - Returns: The recording; ``StartupRecording/stop()`` ends it and returns the report.
    public func startRecording() -> StartupRecording {
        StartupRecording(store: self)
    }

    /// Runs `startup` and returns the factories this store ran meanwhile, slowest first.
    ///
    /// ```swift
    /// let report = DependencyStore.shared.recordStartup {
    ///     DependencyStore.shared.registerAll()
    ///     _ = DependencyStore.shared.resolve(AppModel.self)   // what the first screen needs
    /// }
    /// print(report)
    /// ```
    ///
    /// Registering runs no factory (they run on first resolve), so resolve what start-up needs
    /// inside the closure, or use ``startRecording()`` and stop where start-up really ends. What
    /// other threads resolve through this store meanwhile counts too.
    ///
    /// - Parameter startup: The code to record.
    /// - Returns: The factories that ran while `startup` ran.
    /// - Throws: What `startup` throws, after the recording has stopped.
    public func recordStartup(_ startup: () throws -> Void) rethrows -> StartupReport {
        let recording = startRecording()
        // On a throw too; after a return, a second stop does nothing.
        defer { recording.stop() }
        try startup()
        return recording.stop()
    }

    /// Runs asynchronous `startup` and returns the factories this store ran meanwhile, slowest
    /// first: ``recordStartup(_:)`` for a start-up that awaits, such as one that resolves `async`
    /// factories with `resolveAsync`.
    ///
    /// ```swift
    /// let report = await DependencyStore.shared.recordStartup {
    ///     DependencyStore.shared.registerAll()
    ///     _ = try? await DependencyStore.shared.resolveAsync(Database.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The actor to run on; the default is the caller's. Leave the default.
    ///   - startup: The code to record.
    /// - Returns: The factories that ran while `startup` ran.
    /// - Throws: What `startup` throws, after the recording has stopped.
    public func recordStartup(
        isolation: isolated (any Actor)? = #isolation,
        _ startup: () async throws -> Void
    ) async rethrows -> StartupReport {
        let recording = startRecording()
        // On a throw too; after a return, a second stop does nothing.
        defer { recording.stop() }
        try await startup()
        return recording.stop()
    }
}
