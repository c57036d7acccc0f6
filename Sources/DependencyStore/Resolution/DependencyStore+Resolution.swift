internal import DependencyStoreAtomics

extension DependencyStore {
    /// Builds (or, for a cached scope, returns) the dependency registered for `type`.
    ///
    /// The registration's factory runs on the calling thread, with no lock of the store held;
    /// while it runs, this store is ``shared``, so objects it creates bind their `@Injected`
    /// properties to this store.
    ///
    /// ```swift
    /// let fetcher = store.resolve(PriceFetching.self)
    /// let formatter: PriceFormatting = store.resolve()
    /// let formal = store.resolve(Greeting.self, name: "formal")
    /// ```
    ///
    /// > Important: A missing registration, a dependency cycle and a registration that needs
    /// > arguments are programmer errors: they trap with a message that names the type, who asked,
    /// > the store and how to fix it (see <doc:Diagnostics>). Use
    /// > ``tryResolve(_:name:fileID:line:)`` to get the same message as an error instead, or
    /// > ``resolveIfRegistered(_:name:fileID:line:)`` for a dependency that may be absent.
    ///
    /// - Parameters:
    ///   - type: The type that was registered, usually a protocol. It can be left out when the
    ///     result's type is known from context.
    ///   - name: The name it was registered under; `nil`, the default, for the unnamed one.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built, or the instance its scope keeps.
    public func resolve<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(type, name: name, arguments: .none, requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type`, or throws when it cannot.
    ///
    /// This is ``resolve(_:name:fileID:line:)`` with the trap turned into an error that carries
    /// the same diagnostic:
    ///
    /// ```swift
    /// do {
    ///     let analytics = try store.tryResolve(Analytics.self)
    /// } catch {
    ///     print(error)   // what is missing, where, and how to fix it
    /// }
    /// ```
    ///
    /// Only this resolution is checked: when a factory it runs calls `resolve` for something that
    /// is missing, that nested call still traps.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built, or the instance its scope keeps.
    /// - Throws: ``ResolutionError`` when `type` is not registered, is already being built further
    ///   up this resolution chain, or needs arguments (see ``ResolutionError/Kind``).
    public func tryResolve<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) throws(ResolutionError) -> T {
        try resolveChecked(
            type, name: name, arguments: .none, requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type`, or returns `nil` when nothing is registered
    /// for it (in this store or a parent).
    ///
    /// For dependencies that are optional by design, such as analytics a test does not register:
    ///
    /// ```swift
    /// store.resolveIfRegistered(Analytics.self)?.track("launch")
    /// ```
    ///
    /// The property-wrapper form is ``OptionalInjected``.
    ///
    /// > Important: Only absence gives `nil`. A cycle, or a registration that needs arguments,
    /// > still traps, and so does a missing registration that the factory itself resolves.
    ///
    /// - Parameters:
    ///   - type: The type that may have been registered.
    ///   - name: The name it may have been registered under; `nil` for the unnamed one.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built, or `nil` when there is no registration.
    public func resolveIfRegistered<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T? {
        resolveIfRegistered(type, name: name, requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    // MARK: - The one resolution path

    /// The trapping resolve behind `resolve` and `@Injected`: the trap points at the requester.
    @inline(__always)
    func resolve<T>(_ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester) -> T {
        do {
            return try resolveChecked(type, name: name, arguments: arguments, requester: requester)
        } catch {
            Self.fail(error, resolving: type, name: name, at: requester)
        }
    }

    func resolveIfRegistered<T>(_ type: T.Type, name: String?, requester: Requester) -> T? {
        guard let lookup = lookUp(ObjectIdentifier(type), name: name, takingKeptInstance: verifier == nil) else {
            return resolveIfResolvableWithoutARegistration(type, name: name, requester: requester)
        }
        do throws(ResolutionError) {
            return try resolve(lookup, as: type, name: name, arguments: .none, requester: requester)
        } catch {
            // Found, then taken away by a removal before its build began, which looked again and
            // found nothing (see `ResolutionStack.beginChain(building:in:lookedUpIn:)`): absent.
            // A resolve inside the factory traps on its own, so this is only ever `type` itself.
            if error.kind == .notRegistered { return nil }
            Self.fail(error, resolving: type, name: name, at: requester)
        }
    }

    /// `resolveIfRegistered` of a type no store registers as such: a handle or an optional of a
    /// registered type, or a collection; `nil` for none. An optional ask that found nothing in
    /// this store, made while it builds an instance a store layered over it is to share, is
    /// answered as `resolve` answers it there, from that store (see `resolveFromBorrower`), which
    /// makes the instance that store's own. Also that store's own when it does not resolve it
    /// either but the type is declared provided per request: another request's store would answer
    /// otherwise (see `dependsOnAbsentRequestValue`).
    private func resolveIfResolvableWithoutARegistration<T>(_ type: T.Type, name: String?, requester: Requester) -> T? {
        do throws(ResolutionError) {
            if let handle = type as? any DependencyHandle.Type, handle.isResolvable(in: self, name: name) {
                return try handle.make(in: self, name: name, arguments: .none, requester: requester) as! T?
            }
            if let optional = type as? any ResolvableOptional.Type, optional.isResolvable(in: self, name: name) {
                return try optional.resolve(in: self, name: name, arguments: .none, requester: requester) as? T
            }
            if name == nil, let collection = type as? any ContributedCollection.Type {
                return collection.assemble(in: self, requester: requester).map { $0 as! T }
            }
            if let value = try resolveFromBorrower(type, name: name, arguments: .none, requester: requester) {
                return value
            }
        } catch {
            Self.fail(error, resolving: type, name: name, at: requester)
        }
        dependsOnAbsentRequestValue(Self.valueType(askedFor: type), name: name)
        return nil
    }

    /// What an optional ask of `type` is about: the wrapped type of an optional, the value type of
    /// a handle, or `type` itself.
    private static func valueType(askedFor type: Any.Type) -> Any.Type {
        if let optional = type as? any ResolvableOptional.Type { return optional.wrappedType }
        if let handle = type as? any DependencyHandle.Type { return handle.valueType }
        return type
    }

    /// An optional ask of `type` (with `name`) that neither this store nor the store layered over
    /// it whose instance it builds resolves, where `type` is declared provided per request
    /// (`providedPerRequest`) here or in a parent: the instance being built would hold the
    /// absence of one request's value, which the next request may have. So it is that request's
    /// own, as when the value is there (see `taintBorrow(on:where:)`). Not on a thread building
    /// for a layered store, this costs a thread-local read.
    private func dependsOnAbsentRequestValue(_ type: Any.Type, name: String?) {
        guard let stack = ResolutionStack.currentIfCreated, stack.borrows.contains(where: { $0.owner != nil }),
            perRequestDeclarations()[TypeAndName(type: ObjectIdentifier(type), name: name)] != nil
        else { return }
        _ = taintBorrow(on: stack) { _ in true }
    }

    /// The one resolution path. The error is a typed throw, so success pays nothing for it, and
    /// its text is built only on failure.
    ///
    /// Inlined into each entry point with the common case: an instance the store keeps, already
    /// built, asked for without arguments, costs one lock, one lookup and one retain. Everything
    /// else is `resolve(_:as:arguments:requester:)`, after the same single lookup.
    @inline(__always)
    func resolveChecked<T>(
        _ type: T.Type,
        name: String?,
        arguments: GivenArguments,
        requester: Requester
    ) throws(ResolutionError) -> T {
        let shortcut: Bool = if verifier == nil, case .none = arguments { true } else { false }
        guard let lookup = lookUp(ObjectIdentifier(type), name: name, takingKeptInstance: shortcut) else {
            return try resolveUnregistered(type, name: name, arguments: arguments, requester: requester)
        }
        return try resolve(lookup, as: type, name: name, arguments: arguments, requester: requester)
    }

    /// What every resolve does with what its lookup found. The two everyday cases hand what they
    /// hold to a call that takes it over (`consuming`), so that neither pays for destroying the
    /// `Lookup` as a whole: a jump over its cases, about 20 instructions.
    @inline(__always)
    private func resolve<T>(
        _ lookup: consuming Lookup, as type: T.Type, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> T {
        switch consume lookup {
        case .kept(let object, let lifetime):
            return Self.instance(taking: object, as: type, lifetime: lifetime)
        case .valueUnderLock(let address):
            return handOut(address, as: type)
        case .unkept(let registration, let epoch):
            return try resolve(
                building: registration, lookedUpIn: epoch, as: type, arguments: arguments, requester: requester)
        case .found(let found):
            return try resolve(found, as: type, arguments: arguments, requester: requester)
        case .observed(let found):
            return try resolveReporting(found, as: type, arguments: arguments, requester: requester)
        case .borrowed(_, let owner):
            return try resolveBorrowed(type, name: name, from: owner, arguments: arguments, requester: requester)
        }
    }

    /// Resolves in `owner`, an ancestor, an instance that this store shares with it: `owner`
    /// builds it, with `owner` current, and keeps it. Should the build resolve something `owner`
    /// cannot but this store can (a request's value: see `resolveFromBorrower`), the instance is
    /// not `owner`'s to keep: it is built again here, and kept here, as it will be from now on.
    ///
    /// Inside a build this store itself makes for a store layered over it (a borrow nested in
    /// another), the value may be one only that deeper store resolves: then the enclosing build is
    /// set aside too, and built again in that store, which builds this instance there with it. So
    /// this store builds nothing again: it hands the instance, and what it set aside, to the
    /// enclosing build.
    @inline(never)
    func resolveBorrowed<T>(
        _ type: T.Type, name: String?, from owner: DependencyStore, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> T {
        let stack = ResolutionStack.current
        // One graph for both builds: a rebuild is part of the same resolve, and gets the `.graph`
        // instances of this store that the fall-back built.
        return try stack.sharingOneGraph { () throws(ResolutionError) -> T in
            let depth = stack.borrows.count
            stack.borrows.append(.init(owner: owner, borrower: self, frameIndex: stack.frames.count))
            let value: T
            do throws(ResolutionError) {
                value = try owner.resolveChecked(type, name: name, arguments: arguments, requester: requester)
            } catch {
                stack.borrows.removeSubrange(depth...)
                throw error
            }
            let tainted = !stack.borrows[depth].tainted.isEmpty
            let forAnEnclosingBorrow = stack.borrows[depth].taintedForAnEnclosingBorrow
            let setAside = stack.borrows[depth].setAside
            stack.borrows.removeSubrange(depth...)
            guard tainted else { return value }
            if forAnEnclosingBorrow, stack.handOver(setAside) { return value }
            // What the owner built and kept nowhere is nobody's: it closes it, dependents first.
            owner.close(setAside.closes(), because: "a build set aside for \(self)")
            // The registration is marked now, so this lookup gives this store's own slot. The
            // set-aside instance is let go once the rebuild has returned, and not at its last use
            // here, where Swift may end a local's life: what only it holds (a `.weak` instance its
            // factory resolved) is the one the rebuild gets, as Lifetimes.md says.
            defer { withExtendedLifetime(value) {} }
            return try resolveChecked(type, name: name, arguments: arguments, requester: requester)
        }
    }

    /// A resolve that found nothing in this store, made while it builds an instance a store
    /// layered over it is to share: the value that store resolves, when it has one, and the
    /// instance being built, and what encloses it, become that store's own (see `Borrow`). `nil`
    /// when no such store resolves it.
    @inline(never)
    private func resolveFromBorrower<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> T? {
        guard let stack = ResolutionStack.currentIfCreated,
            let borrower = taintBorrow(on: stack, where: { $0.canResolve(type, name: name) })
        else { return nil }
        let depth = stack.borrows.count
        stack.borrows.append(.init(owner: nil, borrower: borrower, frameIndex: stack.frames.count))
        defer { stack.borrows.removeSubrange(depth...) }
        return try borrower.resolveChecked(type, name: name, arguments: arguments, requester: requester)
    }

    /// Finds the innermost borrow on `stack` made for this store (or a store over it) whose
    /// borrower `reaches`, and marks what is being built inside it as that borrower's own: the
    /// registrations being built depend on a value of a layer over their owner (see `Borrow`).
    /// Returns the borrower, or `nil` when no borrow qualifies.
    private func taintBorrow(
        on stack: ResolutionStack, where reaches: (DependencyStore) -> Bool
    ) -> DependencyStore? {
        for index in stack.borrows.indices.reversed() {
            let borrow = stack.borrows[index]
            guard let owner = borrow.owner,
                sequence(first: owner, next: \.parent).contains(where: { $0.core === core }),
                reaches(borrow.borrower)
            else { continue }
            for registration in stack.taintBorrow(at: index) {
                Self.markDependsOnLayeredValues(registration, resolvedIn: owner)
            }
            return borrow.borrower
        }
        return nil
    }

    /// Marks a registration of `store` or one of its ancestors (one with a slot, resolved by type)
    /// as depending on values of stores layered over its owner: they build their own from now on.
    private static func markDependsOnLayeredValues(_ registration: AnyRegistration, resolvedIn store: DependencyStore) {
        guard let slot = registration.slot, registration.role.isLookedUp, !registration.isForward else { return }
        let key = ObjectIdentifier(registration.type)
        for candidate in sequence(first: store, next: \.parent) {
            let marked = candidate.registry.withLock { registry in
                guard registry[key, registration.name] === registration else { return false }
                slot.dependsOnLayeredValues = true
                // Layered stores build their own from now on: none reads the published one.
                candidate.core.unshareAll()
                return true
            }
            if marked { return }
        }
    }

    /// A resolve that found no registration: a handle (`Provider`, `Lazy`, which carries the
    /// arguments), a collection the store makes itself, or an optional of a registered type; or the
    /// missing-registration error.
    @inline(never)
    private func resolveUnregistered<T>(
        _ type: T.Type, name: String?, arguments: GivenArguments, requester: Requester
    ) throws(ResolutionError) -> T {
        // What this store makes for a registered type, unless only a store layered over it
        // registers that type: then, while this store builds an instance that store is to share,
        // it is that store's to make (see `resolveFromBorrower`), as it is for the type itself.
        if let handle = type as? any DependencyHandle.Type {
            if !handle.isResolvable(in: self, name: name),
                let value = try resolveFromBorrower(type, name: name, arguments: arguments, requester: requester)
            {
                return value
            }
            return try handle.make(in: self, name: name, arguments: arguments, requester: requester) as! T
        }
        if let optional = type as? any ResolvableOptional.Type {
            if !optional.isResolvable(in: self, name: name) {
                if let value = try resolveFromBorrower(type, name: name, arguments: arguments, requester: requester) {
                    return value
                }
                dependsOnAbsentRequestValue(optional.wrappedType, name: name)
            }
            return try optional.resolve(in: self, name: name, arguments: arguments, requester: requester) as! T
        }
        if name == nil, let collection = type as? any ContributedCollection.Type, collection.hasElements(in: self) {
            guard case .none = arguments else {
                throw collectionTakesNoArguments(collection, given: arguments, requester: requester)
            }
            if let elements = collection.assemble(in: self, requester: requester) {
                return elements as! T
            }
        }
        if let value = try resolveFromBorrower(type, name: name, arguments: arguments, requester: requester) {
            return value
        }
        throw missingRegistration(of: type, name: name, requester: requester, stack: ResolutionStack.currentIfCreated)
    }

    /// Traps with `error`, or, on a thread where `verify()` is building a registration, records it
    /// as a problem of the report instead.
    static func fail(_ error: ResolutionError, resolving type: Any.Type, name: String?, at requester: Requester)
        -> Never
    {
        if let worker = ResolutionStack.currentIfCreated?.verificationWorker {
            worker.verifier.abort(error, subject: (type, name))
        }
        fatalError(error.description, file: requester.location.fileID, line: requester.location.line)
    }

    /// What a thread does that may not wait at a gate (see `RawGate.enter`): trap with the
    /// cross-thread cycle, or, on a verification worker held up by a stopped one, report that.
    static func refused(_ refusal: Gate.Refusal, resolving type: Any.Type, name: String?, at requester: Requester)
        -> Never
    {
        switch refusal {
        case .cycle(let waiters):
            Self.fail(crossThreadCycle(waiters, requester: requester), resolving: type, name: name, at: requester)
        case .heldByStoppedWorker(let cause):
            // Only verification workers are told of stopped workers.
            ResolutionStack.current.verificationWorker!.verifier.abort(blockedOn: (type, name), by: cause)
        }
    }

    /// A registration found for a resolve, with the slot its instance is kept in (for a cached
    /// scope) and what that slot held when it was looked up. Not generic, on purpose: see
    /// `AnyRegistration`.
    struct Found {
        let registration: AnyRegistration
        let slot: InstanceSlot?
        /// An `InstanceBox` for `.singleton` and custom scopes, the object itself for `.weak`.
        /// (The removal epoch of the lookup that found it is on the thread's stack, not here:
        /// see `ResolutionStack.recordLookupEpoch`.)
        let kept: AnyObject?
    }

    /// What one lookup found: a built instance to return as it is, or a registration to resolve.
    enum Lookup {
        case kept(AnyObject, AnyRegistration.Lifetime)
        /// A registration of this store whose instances no slot keeps (`.unique`, `.graph`), found
        /// by a store without observers: the registration alone, so that the resolve neither
        /// retains nor releases a slot and an instance that are not there.
        case unkept(AnyRegistration, epoch: Int)
        /// Found by a store that has observers: the resolve is timed and reported (see `Tracing/`).
        case observed(Found)
        case found(Found)
        /// A cached scope of an ancestor whose instance this store shares (see `findInherited`):
        /// resolved in that ancestor, by `resolveBorrowed`.
        case borrowed(AnyRegistration, from: DependencyStore)
        /// A value provided to this store, in a room of its core (see `ProvidedValueRoom`), found
        /// by a resolve that takes kept instances: the value's address, valid only while the
        /// store's lock is held, which the lookup left held. The resolve copies the value and
        /// then releases the lock (`handOut(_:as:)`), so that a removal on another thread cannot
        /// move the value out during the copy. No allocation per value, and no retain of a box.
        case valueUnderLock(AddressUnderLock)
    }

    /// The value at `address`, a `T` in a room, copied out; then the store's lock, which the
    /// lookup that found it left held (`Lookup.valueUnderLock`), released. A copy only retains:
    /// no user code runs under the lock.
    @inline(__always)
    func handOut<T>(_ held: AddressUnderLock, as type: T.Type) -> T {
        let value = held.address.assumingMemoryBound(to: T.self).pointee
        registry.unlockLeftHeld()
        return value
    }

    /// Looks the registration up once. With `takingKeptInstance`, a built instance of a
    /// registration of this store whose factory takes no arguments comes back alone, so that
    /// neither the registration nor its slot is retained; unless the store has observers, which
    /// the resolve must report to.
    @inline(__always)
    func lookUp(_ key: ObjectIdentifier, name: String?, takingKeptInstance: Bool) -> Lookup? {
        // What a miss reads of this store, for the look through its ancestors.
        var miss: (observed: Bool, shares: Bool) = (false, false)
        let own: Lookup? = registry.withLockMaybeLeftHeld { registry, leaveHeld in
            guard let stored = registry.stored(key, name) else {
                switch lookUpMissingRegistration(key, name: name, in: &registry, takingKeptInstance: takingKeptInstance)
                {
                case .provided(let provided):
                    if case .valueUnderLock = provided { leaveHeld = true }
                    return provided
                case .absent(let observed, let shares):
                    miss = (observed, shares)
                    return nil
                }
            }
            if registry.observers != nil {
                ResolutionStack.recordLookupEpoch()
                return .observed(Found(registration: stored, slot: stored.slot, kept: stored.slot?.kept))
            }
            guard let slot = stored.slot else {
                // A provided value is handed out as a kept instance is, unless a stage (a
                // decorator, as for any `.unique` registration) is in scope.
                if takingKeptInstance, stored.isProvided, !hasStagesInScope {
                    return .kept(stored, .unique)
                }
                return .unkept(stored, epoch: Tombstones.currentEpoch)
            }
            if takingKeptInstance, stored.isPlain, let kept = slot.kept {
                return .kept(kept, stored.lifetime)
            }
            ResolutionStack.recordLookupEpoch()
            return .found(Found(registration: stored, slot: slot, kept: slot.kept))
        }
        if let own { return own }
        return findInherited(
            key, name: name, shares: miss.shares && verifier == nil, takingKeptInstance: takingKeptInstance,
            observed: miss.observed)
    }

    /// What `lookUp` finds in this store for `key` and `name` when no registration is stored for
    /// them.
    enum MissingRegistration {
        /// A value provided for `key` (see `ProvidedValue`).
        case provided(Lookup)
        /// Nothing: what the look through the ancestors reads of this store.
        case absent(observed: Bool, shares: Bool)
    }

    /// `lookUp` when no registration is stored for `key` and `name`. Out of line, and answering
    /// with a value rather than through an `inout`, so that the look that finds a registration
    /// keeps its few registers. Call with this store's lock held, on its registry.
    @inline(never)
    private func lookUpMissingRegistration(
        _ key: ObjectIdentifier, name: String?, in registry: inout StoreCore.Registry, takingKeptInstance: Bool
    ) -> MissingRegistration {
        if name == nil, !registry.providedValues.isEmpty,
            let provided = lookUpProvidedValue(key, in: &registry, takingKeptInstance: takingKeptInstance)
        {
            return .provided(provided)
        }
        return .absent(observed: registry.observers != nil, shares: core.sharesAncestorsInstances(&registry))
    }

    /// What `lookUp` finds for a value provided for `key` (see `ProvidedValue`), `nil` for none:
    /// the value itself, as a kept instance, when a resolve takes one and no stage or observer
    /// must see a build; otherwise the registration the value turns into, found as a provided
    /// registration is. Call with this store's lock held, on its registry.
    @inline(__always)
    private func lookUpProvidedValue(
        _ key: ObjectIdentifier, in registry: inout StoreCore.Registry, takingKeptInstance: Bool
    ) -> Lookup? {
        guard let place = registry.providedValues.place(of: key) else { return nil }
        if takingKeptInstance, handsOutProvidedValues(registry) {
            switch place {
            case .room(let room): return .valueUnderLock(AddressUnderLock(room.valueAddress))
            case .box(let box): return .kept(box, .unique)
            }
        }
        let registration = registry.registerProvidedValue(key).unsafelyUnwrapped
        if registry.observers != nil {
            ResolutionStack.recordLookupEpoch()
            return .observed(Found(registration: registration, slot: nil, kept: nil))
        }
        return .unkept(registration, epoch: Tombstones.currentEpoch)
    }

    /// Whether a resolve that takes kept instances hands a provided value out as it is: no
    /// observer and no stage (a decorator) must see a build of it. Call with this store's lock
    /// held, on its registry.
    @inline(__always)
    private func handsOutProvidedValues(_ registry: borrowing StoreCore.Registry) -> Bool {
        registry.observers == nil && !hasStagesInScope
    }

    /// Where the value provided for `key` is, in a room of this store, when a resolve that takes
    /// kept instances hands it out as it is. Call with this store's lock held, on its registry.
    @inline(__always)
    private func roomAddress(of key: ObjectIdentifier, in registry: borrowing StoreCore.Registry)
        -> AddressUnderLock?
    {
        guard !registry.providedValues.isEmpty, handsOutProvidedValues(registry),
            case .room(let room) = registry.providedValues.place(of: key)
        else { return nil }
        return AddressUnderLock(room.valueAddress)
    }

    /// What this store itself has for `key` (without a name or arguments), for a property's first
    /// read (`findForFirstRead`), found without the generic lookup (about 200 instructions a read).
    enum OwnValue {
        /// The address of what a resolve would hand out as it is, with the store's lock left held
        /// for the caller to copy it and release it: a value provided in a room
        /// (`Lookup.valueUnderLock`), or the instance this store keeps for its own registration of
        /// a cached scope, built already, of a registration without arguments or isolation, in a
        /// store without observers (`Lookup.kept`, which the lock keeps in its slot meanwhile).
        case held(AddressUnderLock)
        /// Something this store registers or provides for `key`, which the resolve must build or
        /// hand out itself. The lock is released.
        case resolvedHere
        /// Nothing this store registers or provides for `key` (the key filter's bit was another
        /// type's, or a name's): the read goes on as for a type the store never registered. The
        /// lock is released.
        case absent
    }

    /// `OwnValue` of `key`, under this store's lock. Not generic.
    @inline(never)
    func ownValueLeavingLockHeld(_ key: ObjectIdentifier) -> OwnValue {
        guard verifier == nil else { return .resolvedHere }
        let mayBeInRoom = core.mayHoldInRoom(key)
        return registry.withLockMaybeLeftHeld { registry, leaveHeld in
            if let stored = registry.stored(key, nil) {
                guard registry.observers == nil, stored.isPlain, stored.lifetime == .cached, let kept = stored.slot?.box
                else { return .resolvedHere }
                leaveHeld = true
                return .held(AddressUnderLock(unsafeDowncast(kept, to: InstanceBox.self).valueAddress))
            }
            if mayBeInRoom, let held = roomAddress(of: key, in: registry) {
                leaveHeld = true
                return .held(held)
            }
            return registry.providedValues.contains(key) ? .resolvedHere : .absent
        }
    }

    /// What the first read of an `@Injected` property through this store finds of `key` (without
    /// a name or arguments) before it copies anything, with what holds it: a value this store
    /// provides, in a room, or an instance it keeps of its own registration, under this store's
    /// lock (`ownValueLeavingLockHeld`); or an instance the parent publishes
    /// (`StoreCore.sharedInstanceValue`), under this thread's hazard (`hazard`), without retaining
    /// its box. `nil`, with nothing held, when the read resolves through the store instead. See
    /// `OnceStorage.beginFirstRead(of:)`.
    ///
    /// The parent's instance is looked for only when this store has nothing for `key`: it never
    /// registered it (its `keyFilter` says so, and this store's lock is not taken), or its own look
    /// found nothing (`OwnValue.absent`: the filter's bit was another type's, or a name's). And
    /// only while the store shares its ancestors' instances and has no observers
    /// (`mayShareWithoutObservers`): what the lookup of an unnamed `key` without arguments would
    /// find after a miss in this store (`findInherited`), found without the generic lookup, so
    /// that a request's property for an app-wide singleton takes no lock. Its words are read
    /// with no lock: a registration, override, decorator or observer this store gets meanwhile on
    /// another thread may or may not be seen, as with any change made while a resolve runs; one
    /// made before, on this thread or one it synchronised with, is. When an ancestor registered
    /// something since this store last checked what it registers against theirs
    /// (`StoreCore.checkedGeneration`), the check is the resolve's path's to make, under this
    /// store's lock: `nil` sends the read down that path. `resolve` itself does not look here
    /// first, since for a store without a parent (most resolves) the look would be pure cost.
    func findForFirstRead(
        _ key: ObjectIdentifier, hazard: UnsafeMutablePointer<dependency_store_atomic_address>
    ) -> FirstRead? {
        if core.mayRegister(key) {
            switch ownValueLeavingLockHeld(key) {
            case .held(let held): return FirstRead(found: UnsafeRawPointer(held.address), hazard: nil)
            case .resolvedHere: return nil
            case .absent: break
            }
        }
        // A store without a parent pays this one test. The bit `mayRegister` read is this
        // store's own, set under its lock: a registration made before this read, on this thread or
        // one it synchronised with, sets it, so no ordering with the ancestors' words read below is
        // needed.
        guard core.parent != nil, verifier == nil else { return nil }
        // The checked sum first, then the ancestors' counts, then the word that says the store
        // still shares: see `StoreCore.checkedGeneration`.
        let checked = core.checkedGeneration
        // Borrowed: this store holds its parent.
        let address: UnsafeRawPointer? = Unmanaged.passUnretained(core.parent.unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { parent in
                let parentCore = parent.core
                guard checked == parentCore.generationWithAncestors, core.mayShareWithoutObservers else { return nil }
                return parentCore.sharedInstanceValue(key, protectedBy: hazard)
            }
        return address.map { FirstRead(found: $0, hazard: hazard) }
    }

    /// Lets go of what `findForFirstRead` left held for `read`: the hazard, or this store's lock.
    @inline(__always)
    func letGo(of read: FirstRead) {
        if let hazard = read.hazard {
            Tombstones.unprotect(hazard)
        } else {
            registry.unlockLeftHeld()
        }
    }

    /// What `findForFirstRead` finds of `type`, copied out, with what held it let go of: what the
    /// first read of a property that keeps no room for its value (a handle's, an optional or
    /// releasable property's) tries before the store's resolve.
    func valueForFirstRead<T>(of type: T.Type) -> T? {
        ResolutionStack.withCurrent { stack in
            guard let read = findForFirstRead(ObjectIdentifier(type), hazard: stack.hazard) else { return nil }
            // A copy only retains: no user code runs while the lock or the hazard is held.
            defer { letGo(of: read) }
            return read.address.unsafelyUnwrapped.assumingMemoryBound(to: T.self).pointee
        }
    }

    /// Finds the registration in an ancestor. A cached scope's instance is the ancestor's, shared,
    /// when every store from this one to the ancestor shares its ancestors' instances (`shares`
    /// says whether this one does) and no build of it ever resolved a value only a store layered
    /// over the ancestor registers: then the lookup gives the ancestor's kept instance, or the
    /// ancestor to resolve it in (`.borrowed`). When this store shares but a store between it and
    /// the ancestor does not (a test's store that overrides something, under a request's), the
    /// instance is that store's copy, shared in the same way: the lookup gives that store to
    /// resolve it in, which keeps its own. Otherwise the registration gets a slot in this store,
    /// so the instance built through this store is this store's, built with what this store
    /// overrides.
    @inline(never)
    private func findInherited(
        _ key: ObjectIdentifier, name: String?, shares: Bool, takingKeptInstance: Bool, observed: Bool
    ) -> Lookup? {
        // The parent's instances that it publishes for layered stores: no lock (see
        // `SharedInstances`). A request store's resolve of an app-wide singleton ends here.
        let readsShared = shares && takingKeptInstance && !observed && name == nil
        if readsShared, let parent, let box = parent.core.sharedInstance(key) {
            return .kept(box, .cached)
        }
        var shares = shares
        // The nearest store passed on the way that keeps its own copies of its ancestors'
        // instances, when every store before it shares: the one whose copy this store shares.
        var copyKeeper: DependencyStore?
        var ancestor = parent
        while let store = ancestor {
            let step: (registration: AnyRegistration, shared: Lookup?)? = store.registry.withLock { registry in
                guard let registration = registry[key, name] else {
                    if shares, copyKeeper == nil {
                        if store.verifier != nil {
                            shares = false
                        } else if !store.core.sharesAncestorsInstances(&registry) {
                            copyKeeper = store
                        }
                    }
                    return nil
                }
                guard shares, let slot = registration.slot, !slot.dependsOnLayeredValues else {
                    ResolutionStack.recordLookupEpoch()
                    return (registration, nil)
                }
                if let copyKeeper { return (registration, .borrowed(registration, from: copyKeeper)) }
                if takingKeptInstance, registration.isPlain, registry.observers == nil, let kept = slot.kept {
                    // Published for the next resolve through a store over the parent, which reads
                    // it without this lock.
                    if readsShared, store === parent, registration.lifetime == .cached, store.verifier == nil,
                        !registry.isClosed
                    {
                        // A `.cached` slot keeps its instance in a box.
                        store.core.share(kept as! InstanceBox, for: key, keptIn: slot)
                    }
                    return (registration, .kept(kept, registration.lifetime))
                }
                return (registration, .borrowed(registration, from: store))
            }
            guard let step else {
                ancestor = store.parent
                continue
            }
            if let shared = step.shared { return shared }
            let registration = step.registration
            // `nil`: replaced meanwhile; look again, from the same ancestor.
            if let found = found(
                registration, inheritedFrom: store, stillHeld: { $0.stored(key, name) === registration })
            {
                return observed ? .observed(found) : .found(found)
            }
        }
        guard _slowPath(Tombstones.anyKept) else { return nil }
        return lookUpTombstone(key, name: name)
    }

    /// Whether a resolve of `registration`'s type and name through this store finds it: this store
    /// or an ancestor holds it.
    func stillResolves(to registration: AnyRegistration) -> Bool {
        let key = ObjectIdentifier(registration.type)
        return sequence(first: self, next: \.parent).contains { store in
            store.registry.withLock { $0[key, registration.name] === registration }
        }
    }

    /// What a removal took away after the chain running on this thread began (see
    /// `Tombstones`): the chain finishes as if the removal came after it.
    @inline(never)
    private func lookUpTombstone(_ key: ObjectIdentifier, name: String?) -> Lookup? {
        // The chain on this thread, and the `async` chain of this task (which a synchronous
        // resolve inside an `async` factory is part of): the one that began first.
        let stack = ResolutionStack.currentIfCreated.flatMap { $0.isInChain ? $0 : nil }
        let began = [stack?.chainBegun, AsyncResolution.current.removals?.begun].compactMap { $0 }.min()
        guard let began,
            let (registration, how) = Tombstones.registration(key, name: name, resolvingIn: self, chainBegun: began)
        else { return nil }
        guard registration.slot != nil else { return .found(Found(registration: registration, slot: nil, kept: nil)) }
        // Kept for the rest of the chain: the synchronous one on this thread if there is one,
        // else the `async` chain of this task.
        let slot =
            if let stack {
                stack.chainSlot(for: registration, in: self, removedBy: how)
            } else {
                AsyncResolution.current.removals!.slot(for: registration, in: self, removedBy: how)
            }
        return .found(Found(registration: registration, slot: slot, kept: registry.withLock { _ in slot.kept }))
    }

    /// `registration`, which `owner` (an ancestor) holds, as this store resolves it: with this
    /// store's own slot for a cached scope, so the instance built through this store is this
    /// store's. `nil` when `owner` no longer has it, as `stillHeld` tells from its registry.
    func found(
        _ registration: AnyRegistration,
        inheritedFrom owner: DependencyStore,
        stillHeld: (StoreCore.Registry) -> Bool
    ) -> Found? {
        guard registration.slot != nil else {
            return Found(registration: registration, slot: nil, kept: nil)
        }
        // On the parent's list before a slot is made, so that a removal or a reset in an ancestor
        // that lists its children after this reaches the slot (see `StoreCore.joinAncestors`).
        core.joinAncestors()
        return registry.withLock { registry in
            let id = ObjectIdentifier(registration)
            // The entry keeps its registration alive, so `id` names this one while it exists.
            if let slot = registry.inheritedSlots[id]?.slot {
                return Found(registration: registration, slot: slot, kept: slot.kept)
            }
            // Only for a registration the ancestor still has: one replaced since it was looked up
            // has had this store's slots for it purged, and a slot made now would keep its instance
            // for ever. (This store's lock, then the ancestor's: a purge never holds both.)
            guard owner.registry.withLock({ stillHeld($0) }) else { return nil }
            let slot = InstanceSlot()
            registry.inheritedSlots[id] = (registration, slot)
            return Found(registration: registration, slot: slot, kept: nil)
        }
    }

    /// `found`, resolved, reporting to the store's observers when `observed`: for a caller that
    /// looked the registration up itself (a collection's elements, the store's `isObserved` read
    /// once per collection), or an observer's own resolve (`observed: false`).
    func resolve<T>(
        _ found: Found, as type: T.Type, arguments: GivenArguments = .none, observed: Bool, requester: Requester
    ) throws(ResolutionError) -> T {
        if observed {
            return try resolveReporting(found, as: type, arguments: arguments, requester: requester)
        }
        return try resolve(found, as: type, arguments: arguments, requester: requester)
    }

    /// The resolve of a found registration: the everyday copy of the path, unless a stage is in
    /// scope (see `ResolveStage`).
    @inline(never)
    private func resolve<T>(
        _ found: Found,
        as type: T.Type,
        arguments: GivenArguments,
        requester: Requester
    ) throws(ResolutionError) -> T {
        if _slowPath(hasStagesInScope) {
            return try resolveStaged(found, lookedUpIn: nil, as: type, arguments: arguments, requester: requester)
        }
        return try resolve(
            found.registration, slot: found.slot, kept: found.kept, lookedUpIn: nil, as: type, arguments: arguments,
            requester: requester, stage: PlainBuild.self)
    }

    /// `resolve(_:as:arguments:requester:)` for an `.unkept` lookup: the same body, with no slot
    /// and no kept instance. It takes the registration over from the lookup, which then has
    /// nothing left to release.
    @inline(never)
    private func resolve<T>(
        building registration: consuming AnyRegistration,
        lookedUpIn epoch: Int,
        as type: T.Type,
        arguments: GivenArguments,
        requester: Requester
    ) throws(ResolutionError) -> T {
        if _slowPath(hasStagesInScope) {
            return try resolveStaged(
                Found(registration: registration, slot: nil, kept: nil), lookedUpIn: epoch, as: type,
                arguments: arguments, requester: requester)
        }
        return try resolve(
            registration, slot: nil, kept: nil, lookedUpIn: epoch, as: type, arguments: arguments, requester: requester,
            stage: PlainBuild.self)
    }

    /// The path of a found registration, with what `Stage` adds to it (see `ResolveStage`). A
    /// caller that knows there is no slot passes `nil`s, without making a `Found` (which would
    /// retain and release the registration).
    @inline(__always)
    func resolve<T, Stage: ResolveStage>(
        _ registration: AnyRegistration,
        slot: InstanceSlot?,
        kept: AnyObject?,
        lookedUpIn epoch: Int?,
        as type: T.Type,
        arguments: GivenArguments,
        requester: Requester,
        stage: Stage.Type
    ) throws(ResolutionError) -> T {
        if let value = try Stage.willResolve(
            registration, as: type, arguments: arguments, in: self, requester: requester)
        {
            return value as! T
        }
        guard registration.accepts(arguments) else {
            throw wrongArguments(for: registration, given: arguments, requester: requester)
        }
        if registration.isolation != .none {
            try checkSynchronousResolve(of: registration, requester: requester)
        }
        if let kept {
            return Self.instance(kept, as: type, lifetime: registration.lifetime)
        }
        // Stored under ObjectIdentifier(T.self), so it is a Registration<T> by construction.
        let typed = unsafeDowncast(registration, to: Registration<T>.self)

        return try ResolutionStack.withCurrent { (stack) throws(ResolutionError) -> T in
            // The outermost build on this thread begins a chain (see `Tombstones`).
            let beginsChain = !stack.isInChain
            if _slowPath(beginsChain), !stack.beginChain(building: registration, in: self, lookedUpIn: epoch) {
                // A removal may have come between the lookup and now: look again, after it.
                defer { stack.lookupRetries -= 1 }
                return try resolveChecked(type, name: registration.name, arguments: arguments, requester: requester)
            }
            defer { if _slowPath(beginsChain) { stack.endChain() } }
            if let start = stack.indexOfFrame(building: registration, in: self) {
                throw cycle(closedBy: registration, from: start, requester: requester, stack: stack)
            }
            switch registration.lifetime {
            case .unique:
                if _slowPath(registration.isForward) {
                    stack.forwardRequesters.append(requester)
                    defer { stack.forwardRequesters.removeLast() }
                    return Stage.build(typed, in: self, arguments: arguments, on: stack)
                }
                return Stage.build(typed, in: self, arguments: arguments, on: stack)
            case .graph:
                return buildSharingGraph(typed, arguments: arguments, on: stack, stage: Stage.self)
            case .cached, .weak:
                // Every cached scope has a slot (see `lookUp` and `findInherited`).
                return try buildOnce(
                    typed, in: slot!, arguments: arguments, on: stack, requester: requester, stage: Stage.self)
            }
        }
    }

    /// The `.graph` instance of `registration` for this top-level resolution: the one this store
    /// already built, or a new one, shared from now on. Out of line: holding on to the value
    /// while it is shared takes room for a `T`, which the everyday `.unique` build would otherwise
    /// set up too.
    ///
    /// One built for a store layered over this one that resolved that store's value (see
    /// `Borrow`) holds the value: whatever takes it depends on the value as if it had resolved it,
    /// and is that store's own too. Should nothing being built be that store's (no borrow made
    /// for it runs), a new one is built instead.
    @inline(never)
    private func buildSharingGraph<T>(
        _ registration: Registration<T>,
        arguments: GivenArguments,
        on stack: ResolutionStack,
        stage: (some ResolveStage).Type
    ) -> T {
        if let shared = stack.graphEntry(of: registration, in: self) {
            guard let layer = shared.layer else { return shared.instance as! T }
            let reached = taintBorrow(on: stack) { borrower in
                sequence(first: borrower, next: \.parent).contains { $0.core === layer.core }
            }
            if reached != nil { return shared.instance as! T }
        }
        let value = stage.build(registration, in: self, arguments: arguments, on: stack)
        stack.rememberInGraph(value, of: registration, in: self)
        return value
    }

    /// The instance a slot keeps, as the `T` it was built as.
    @inline(__always)
    static func instance<T>(_ kept: AnyObject, as type: T.Type, lifetime: AnyRegistration.Lifetime) -> T {
        if _fastPath(lifetime == .cached) {
            return unsafeDowncast(kept, to: InstanceBox.self).value(as: T.self)
        }
        if lifetime == .weak {
            // A `.weak` slot keeps the object itself, built as a T.
            return kept as! T
        }
        return providedValue(kept, as: type)
    }

    /// A provided value: `kept` is its box (see `ProvidedValue`), or the registration it turned
    /// into (or a named provided value's), whose `build` hands the value out and takes no notice
    /// of the store it is given. Out of line, so that the resolve of a built singleton, which
    /// shares `instance`, saves the registers this call would take.
    @inline(never)
    private static func providedValue<T>(_ kept: AnyObject, as type: T.Type) -> T {
        if ObjectIdentifier(Swift.type(of: kept)) == ObjectIdentifier(ProvidedValue.self) {
            return unsafeDowncast(kept, to: ProvidedValue.self).value(as: T.self)
        }
        return unsafeDowncast(kept, to: Registration<T>.self).build(root, .none)
    }

    /// `instance(_:as:lifetime:)` of a kept object the lookup hands over: released here, as the one
    /// thing to release, rather than with the `Lookup` it came in.
    @inline(never)
    static func instance<T>(taking kept: consuming AnyObject, as type: T.Type, lifetime: AnyRegistration.Lifetime)
        -> T
    {
        instance(kept, as: type, lifetime: lifetime)
    }

    /// Enters `slot`'s gate to build `registration`: waits for a build under way on another
    /// thread, throws a cycle across threads, and traps for a gate a stopped worker holds. The
    /// caller leaves the gate.
    @inline(__always)
    func enterGate<T>(
        of slot: InstanceSlot, building registration: Registration<T>, as type: T.Type, on stack: ResolutionStack,
        requester: Requester
    ) throws(ResolutionError) {
        if let refusal = slot.gate.raw.enter(on: stack, waitingFor: .instance(registration, store: self)) {
            switch refusal {
            case .cycle(let waiters):
                throw Self.crossThreadCycle(waiters, requester: requester)
            case .heldByStoppedWorker:
                Self.refused(refusal, resolving: T.self, name: registration.name, at: requester)
            }
        }
    }

    /// Builds the instance of a cached scope exactly once however many threads ask at the same
    /// time: the first takes the slot's gate and builds; the others wait on the gate and take
    /// what it built.
    ///
    /// Holding the gate while the factory runs is safe for the same reason as in `Injected`: only
    /// resolvers of this one registration in this store wait on it, and they need exactly the
    /// instance being built. The factory can only come back to this gate through a cycle, which on
    /// this thread is trapped above, before the gate, and across threads by the gate itself,
    /// before a thread waits for one that waits for it.
    private func buildOnce<T>(
        _ registration: Registration<T>,
        in slot: InstanceSlot,
        arguments: GivenArguments,
        on stack: ResolutionStack,
        requester: Requester,
        stage: (some ResolveStage).Type
    ) throws(ResolutionError) -> T {
        // Only a first build (or a `.weak` one's rebuild) reads the modifiers; a registration with
        // a cache policy never keeps its instance where a lookup finds it, so comes here each time.
        let options = registration.optionsForBuild()
        if let options, let policy = options.caching {
            return try buildCached(
                registration, policy: policy, mayBeNil: options.mayBeNil, in: slot, arguments: arguments, on: stack,
                requester: requester, stage: stage)
        }
        try enterGate(of: slot, building: registration, as: T.self, on: stack, requester: requester)
        defer { slot.gate.raw.leave() }
        let (kept, generation) = registry.withLock { _ in (slot.kept, slot.generation) }
        if let kept { return Self.instance(kept, as: T.self, lifetime: registration.lifetime) }

        let value = stage.build(registration, in: self, arguments: arguments, on: stack)
        // A `nil` is not kept: the next resolve asks the factory again (see Docs/Lifetimes.md).
        if let options, options.mayBeNil, isNil(value) { return value }
        _ = try keep(value, of: registration, in: slot, builtIn: generation, finishing: nil, requester: requester)
        return value
    }
}
