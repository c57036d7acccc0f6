extension DependencyStore {
    /// Registers an expression that builds the dependency for `type`.
    ///
    /// The expression is an autoclosure, so nothing is built until someone resolves `type`. With
    /// the default scope, ``Scope/unique``, it is evaluated again on each resolve: register a
    /// shared instance to hand out one object, an initialiser call to hand out a new one each
    /// time, or pick another scope.
    ///
    /// ```swift
    /// store.register(AccessTokenService.shared, for: AccessTokenServiceType.self) // the same object
    /// store.register(PriceFormatter(), for: PriceFormatting.self)                 // a new one each time
    /// store.register(URLSessionNetworking(), for: Networking.self, scope: .singleton)
    /// ```
    ///
    /// Registering again for the same type and name replaces the earlier registration, and its
    /// cached instance, for every later resolve; instances already handed out are not affected.
    ///
    /// - Parameters:
    ///   - dependency: The expression that builds the value. It runs on the thread that resolves
    ///     it, with no lock of the store held.
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type; callers resolve it by the same
    ///     name. `nil`, the default, is the registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``. The default builds one per resolve.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    /// - Returns: The registration, on which `closing { }` says how the store closes its
    ///   instances (see ``RegistrationEntry``); you may ignore it.
    @inlinable
    @discardableResult
    public func register<T>(
        _ dependency: @escaping @autoclosure () -> T,
        for type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> RegistrationEntry<T> {
        add(dependency, as: Registration<T>.self, name: name, scope: scope, fileID: fileID, line: line)
    }

    /// Puts a ready value into the store for `type`: every resolve of `type` (with `name`) hands
    /// out this value, with no factory to run.
    ///
    /// For what exists before anyone resolves it, such as a request's id or its user, given to
    /// the store made for that request:
    ///
    /// ```swift
    /// let request = DependencyStore(parent: app)
    /// request.provide(RequestID("r-1"), for: RequestID.self)
    /// request.provide(user, for: User.self)
    /// ```
    ///
    /// It is a registration, listed (as a provided value), verified, replaced, unregistered and
    /// unloaded like any other; what differs is that the value is the one you pass, kept by the
    /// store as is. `register(_:for:)` evaluates its expression at each resolve instead (with
    /// the default ``Scope/unique``), and a store keeps what it built only in a cached scope. A
    /// resolve of a provided value costs what the resolve of a built singleton does. The store
    /// did not build the value, so it never closes it; `reset` does not touch it. A decorator of
    /// `type` in scope decorates it at each resolve, as it decorates a `.unique` registration's
    /// value.
    ///
    /// Providing again for the same type and name replaces the earlier value (or registration)
    /// for every later resolve.
    ///
    /// - Parameters:
    ///   - value: The value every resolve hands out.
    ///   - type: The type that callers will ask for. It can be left out when it is the value's.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the one
    ///     that a resolve without a name finds.
    ///   - fileID: Where the value is provided, for diagnostics. Leave the default.
    ///   - line: The line where it is provided. Leave the default.
    @inlinable
    public func provide<T>(
        _ value: T,
        for type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        // A value that fits a room of the store's core is copied into a free one here, in code the
        // caller's module specialises for `T`; the rest of the work is two calls that are not
        // generic (see `reserveRoom(for:destruction:fileID:line:)`). Anything else takes the
        // general path.
        if name == nil, ProvidedValueRoom.fits(T.self),
            let room = reserveRoom(for: T.self, destruction: .of(T.self), fileID: fileID, line: line)
        {
            room.address.bindMemory(to: T.self, capacity: 1).initialize(to: value)
            fillReservedRoom(room, for: T.self)
            return
        }
        add(value, as: Registration<T>.self, name: name, fileID: fileID, line: line)
    }

    /// Registers a factory for `type` that builds the value from other dependencies of the store.
    ///
    /// Use this form for constructor injection: the factory receives the store that is resolving
    /// it and asks it for what the value's initialiser needs.
    ///
    /// ```swift
    /// store.register(PriceFetching.self, scope: .singleton) { store in
    ///     PriceFetcher(networking: store.resolve(), parser: store.resolve())
    /// }
    /// store.register(Greeting.self, name: "formal") { _ in FormalGreeting() }
    /// ```
    ///
    /// Registering again for the same type and name replaces the earlier registration, and its
    /// cached instance, for every later resolve.
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the
    ///     registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``. The default builds one per resolve.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value. It runs on the thread that resolves it, with no lock of the
    ///     store held, so it may resolve (and even register) freely; a factory that resolves its
    ///     own type, directly or through others, traps with the cycle.
    /// - Returns: The registration, on which `closing { }` says how the store closes its
    ///   instances (see ``RegistrationEntry``); you may ignore it.
    @inlinable
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore) -> T
    ) -> RegistrationEntry<T> {
        add(factory, as: Registration<T>.self, name: name, scope: scope, fileID: fileID, line: line)
    }

    /// A synchronous factory that throws: deprecated, so that it is a warning where it is written.
    ///
    /// Without this overload, `register(Config.self) { _ in try loadConfig() }` would quietly
    /// become an `async` registration (a throwing closure fits `async throws`), which a plain
    /// `resolve` then refuses. A resolve has nowhere to send a factory's error: handle it in the
    /// factory, or make the factory `async` and resolve it with `resolveAsync`, which throws.
    /// If used anyway, a thrown error traps at the resolve, naming the error and the registration.
    @available(
        *, deprecated,
        message:
            "a resolve has nowhere to send a factory's error: handle it in the factory, or write `{ store async throws in ... }` and resolve with `try await resolveAsync`"
    )
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore) throws -> T
    ) -> RegistrationEntry<T> {
        register(type, name: name, scope: scope, fileID: fileID, line: line) { store in
            do {
                return try factory(store)
            } catch {
                Diagnosis.factoryThrew(
                    requested: Diagnostics.label(of: T.self, name: name),
                    registeredAt: SourceLocation(fileID: fileID, line: line), error: "\(error)"
                ).trap(file: fileID, line: line)
            }
        }
    }

    /// Whether a resolve of `type` (with `name`) would find a registration, in this store or a
    /// parent; for a collection type (`[T]`, `[String: T]`), whether anything is contributed to it;
    /// for what the store makes for a registered `T` (`Provider<T>`, `Lazy<T>`, `T?`), whether `T`
    /// is registered. It answers as resolve does: `true` exactly when a resolve finds something.
    ///
    /// ```swift
    /// if !store.isRegistered(Networking.self) {
    ///     store.register(URLSessionNetworking(), for: Networking.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type as it would be resolved.
    ///   - name: The name it would be resolved by; `nil` for the unnamed registration.
    /// - Returns: `true` when a resolve of `type` would find a registration.
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) -> Bool {
        canResolve(type, name: name)
    }

    /// Adds a registration of the value `dependency` builds, made as `kind`, the registration's
    /// class: what `register(_:for:)` does.
    ///
    /// The two `register` forms a store per request calls are inlinable fronts of this and the
    /// next, so that a caller that names `T` passes `Registration<T>`'s metadata, which its code
    /// looks up once and keeps. Made here from `T` alone, the metadata would be looked up in the
    /// runtime's cache of generic types at every registration: about 500 instructions, a fifth of
    /// what a registration costs.
    @usableFromInline
    func add<T>(
        _ dependency: @escaping () -> T,
        as kind: Registration<T>.Type,
        name: String?,
        scope: Scope,
        fileID: StaticString,
        line: UInt
    ) -> RegistrationEntry<T> {
        add(
            kind.init(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                build: { _, _ in dependency() }
            ))
    }

    /// Adds a registration of the provided `value`, made as `kind`: what `provide(_:for:)` does
    /// (see above for why `kind` is passed).
    @usableFromInline
    func add<T>(_ value: T, as kind: Registration<T>.Type, name: String?, fileID: StaticString, line: UInt) {
        let location = SourceLocation(fileID: fileID, line: line)
        // No entry: `provide` returns none, so it does not retain the store for one.
        if name == nil, !AssemblyTag.isBeingApplied, insertProvided(value, at: location) { return }
        insert(kind.init(providing: value, name: name, location: location))
    }

    /// Puts `value` into the registry as a provided value without a registration, in a box (see
    /// `ProvidedValue`; not while an assembly is applied, which the registration records), unless
    /// something is registered or provided for `T` already; then it returns `false`, and the
    /// caller inserts a registration, which replaces that one as any registration does (recording
    /// the override, closing what it kept). `provide` has put in a room of the core what fits one
    /// that is free (`reserveRoom`).
    private func insertProvided<T>(_ value: T, at location: SourceLocation) -> Bool {
        let key = ObjectIdentifier(T.self)
        // Boxed before the lock is taken.
        let box = ProvidedValue.make(value, location: location)
        let shadowing: Bool? = registry.withLock { registry in
            guard registry.hasNothingUnnamed(for: key) else { return nil }
            // What this store registers is about to change: the sharing rule's check first.
            core.checkShadowingIfStale(&registry)
            registry.providedValues.add(box, for: key)
            return noteAdded(key, name: nil, replacing: false, in: &registry)
        }
        guard let shadowing else { return false }
        noteShadowing(key, name: nil, shadowing)
        return true
    }

    /// Reserves a free room of the store's core for a value provided for `type` without a name,
    /// at `fileID` and `line`, and returns where the value goes, with the store's lock left held:
    /// the caller copies the value there (a copy runs no user code, only retains), then calls
    /// `fillReservedRoom(_:for:)`, which releases the lock. What `provide` does with a value
    /// that fits a room, where `insertProvided` boxes one. `nil`, with no lock held, when the value takes
    /// the general path instead: something is registered or provided for `type` already (the
    /// value replaces it), an assembly is being applied (which the registration records), or no
    /// room is free (the value is boxed).
    @usableFromInline
    func reserveRoom(
        for type: Any.Type, destruction: ValueDestruction, fileID: StaticString, line: UInt
    ) -> AddressUnderLock? {
        guard !AssemblyTag.isBeingApplied else { return nil }
        let key = ObjectIdentifier(type)
        return registry.withLockMaybeLeftHeld { registry, leaveHeld in
            guard registry.hasNothingUnnamed(for: key),
                let room = registry.providedValues.reserveRoom(
                    at: SourceLocation(fileID: fileID, line: line), destruction: destruction)
            else { return nil }
            // What this store registers is about to change: the sharing rule's check first.
            core.checkShadowingIfStale(&registry)
            leaveHeld = true
            return AddressUnderLock(room.valueAddress)
        }
    }

    /// Counts the value the caller placed in the room `reserveRoom(for:destruction:fileID:line:)`
    /// gave it as provided for `type`, and releases the lock that call left held.
    @usableFromInline
    func fillReservedRoom(_ room: AddressUnderLock, for type: Any.Type) {
        let key = ObjectIdentifier(type)
        let shadowing = registry.withLockLeftHeld { registry in
            registry.providedValues.fill(Room(valueAddress: room.address), for: key)
            return noteAdded(key, name: nil, replacing: false, in: &registry)
        }
        noteShadowing(key, name: nil, shadowing)
    }

    /// Adds a registration of `factory`, made as `kind`: what `register(_:factory:)` does (see
    /// above for why `kind` is passed).
    @usableFromInline
    func add<T>(
        _ factory: @escaping (DependencyStore) -> T,
        as kind: Registration<T>.Type,
        name: String?,
        scope: Scope,
        fileID: StaticString,
        line: UInt
    ) -> RegistrationEntry<T> {
        add(
            kind.init(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                build: { store, _ in factory(store) }
            ))
    }

    @discardableResult
    func add<T>(_ registration: Registration<T>) -> RegistrationEntry<T> {
        insert(registration)
        return RegistrationEntry(registration: registration, store: self)
    }

    /// Puts `registration` in this store's registry, in place of one of the same type and name,
    /// whose instances are let go of and closed.
    func insert<T>(_ registration: Registration<T>) {
        // On the parent's list before anything is registered, so that what the registration
        // keeps is reached by the ancestors' resets, and the store is named and verified as one
        // layered over them (see `StoreCore.joinAncestors`).
        core.joinAncestors()
        var discarded: [DiscardedInstance] = []
        let (replaced, shadowing) = registry.withLock { registry in
            // What this store registers is about to change: the sharing rule's check first.
            core.checkShadowingIfStale(&registry)
            let replaced = registry[ObjectIdentifier(T.self), registration.name]
            registry[ObjectIdentifier(T.self), registration.name] = registration
            if let replaced {
                registry.recordOverride(of: replaced, by: registration)
                // Taken out under the lock, so that a build of the replaced registration that
                // ends after this keeps nothing, and the instance is closed exactly once.
                replaced.slot?.discard(of: replaced, into: &discarded)
            }
            let shadowing = noteAdded(
                ObjectIdentifier(T.self), name: registration.name, replacing: replaced != nil, in: &registry)
            return (replaced, shadowing)
        }
        noteShadowing(ObjectIdentifier(T.self), name: registration.name, shadowing)
        if let replaced {
            closeReplaced(replaced, discarded: discarded)
        }
        // The replaced registration, and the instance it kept, are released here, with the lock
        // dropped: an instance's deinit may resolve from this store.
    }

    /// Makes the stores layered over this one forget what they built from `replaced`, and closes
    /// what they and this store (`discarded`) kept of it, with no lock held.
    func closeReplaced(
        _ replaced: AnyRegistration, discarded: [DiscardedInstance], by cause: String = "a new registration"
    ) {
        var discards = Discards()
        discards.add(discarded, of: core)
        core.forgetInDescendants([replaced], into: &discards)
        let trigger = "\(cause) of \(Tracing.label(of: replaced.type, name: replaced.name))"
        close(discards.closes(), because: trigger)
    }

    /// What a registration (or a provided value) of `key` and `name` that just went into this
    /// store's `registry` changes there, under its lock: the filter of registered types gets its
    /// bit, then the count of registrations grows, which the stores layered over this one read
    /// before the bit (see `StoreCore.registrationGeneration`); a removal recorded for the place
    /// is forgotten, unless something was there and was replaced. Returns whether `noteShadowing`
    /// must look at the ancestors once the lock is dropped: the store has a parent and does not
    /// shadow its ancestors yet.
    private func noteAdded(
        _ key: ObjectIdentifier, name: String?, replacing: Bool, in registry: inout StoreCore.Registry
    ) -> Bool {
        core.noteRegisters(key)
        if !replacing, !registry.removals.isEmpty {
            // Registered again: stores layered over this one see the registration itself now, so
            // the removal's epoch is not needed for the sharing rule either.
            registry.removals[TypeAndName(type: key, name: name)] = nil
        }
        return parent != nil && !registry.sharing.shadowsAncestors
    }

    /// Keeps the sharing rule's record of overrides (`Registry.shadowsAncestors`) after this store
    /// registered `key` and `name`: this store shadows its ancestors when one of them registers it
    /// too. The other way round, a store layered over this one that registers `key` learns of it
    /// from this store's `registrationGeneration` on its next resolve through the sharing rule
    /// (`StoreCore.sharesAncestorsInstances(_:)`). Each side adds its registration before it
    /// looks at the other's, so of two stores that register the same type at the same moment, at
    /// least one sees the other's.
    private func noteShadowing(_ key: ObjectIdentifier, name: String?, _ looksAtAncestors: Bool) {
        if looksAtAncestors, core.anAncestorRegisters(key, name: name) {
            registry.withLock { core.stopsSharing(&$0) }
        }
    }

    /// The registration this store itself holds for `type` and `name`, ignoring its parents.
    @inline(__always)
    func ownRegistration(for type: ObjectIdentifier, name: String?) -> AnyRegistration? {
        registry.withLock { $0[type, name] }
    }

    /// Whether this store itself registers (or provides) `type` under `name`, its parents aside:
    /// how a test's store over a store of fallbacks tells a resolve it answered from one that fell
    /// back (`DependencyStoreTesting`).
    package func registersItself(_ type: Any.Type, name: String?) -> Bool {
        ownRegistration(for: ObjectIdentifier(type), name: name) != nil
    }
}
