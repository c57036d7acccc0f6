/// A property whose value is resolved from a ``DependencyStore`` on first read.
///
/// Declare what a type needs and use it; no initialiser parameter, no wiring code:
///
/// ```swift
/// final class SomeViewModel {
///     @Injected private var accessTokenService: AccessTokenServiceType
///
///     func greeting() -> String {
///         "token: \(accessTokenService.accessToken() ?? "none")"
///     }
/// }
/// ```
///
/// The property binds to ``DependencyStore/shared`` when it is created (the store of the
/// enclosing `execute { }` in a test, the root store in the app) and resolves from that store on
/// its first read, exactly once, even when many threads read it for the first time together.
/// Later reads return the same value.
///
/// Until its first read the property keeps its store alive, so `let model = store.execute {
/// Model() }` works however early `store` is released; after it, it holds only its value, unless
/// it was the store's last owner: then it keeps the store, so that what the store keeps (the value
/// among them) stays open for as long as the property lives. A
/// property created while a store builds an instance it keeps (in a `.singleton`'s initialiser)
/// holds only what that store resolves with, so the store and its instances can be freed; see
/// "When a store goes" in <doc:Lifetimes>.
///
/// `Injected` is `Sendable` when its value is, so it can be used in a `Sendable` struct, an actor,
/// a `@MainActor` class or a plain class alike.
///
/// Give the registration's name to inject one of several registrations of a type:
/// `@Injected(name: "formal") var greeting: Greeting`. For a dependency that may not be
/// registered at all, use ``OptionalInjected``.
///
/// Its projected value tells whether the first read has happened: `$greeting.isResolved`. It
/// cannot be released: reads take no lock, and a read racing a release that frees the value would
/// return freed memory, unless every read paid for a lock. For a value to drop and resolve again,
/// use ``ReleasableInjected``; for a delegate or a parent, held weakly, ``WeakInjected``.
///
/// > Important: A missing registration traps on the first read, with a message that names this
/// > property's declaration (file and line), the store, and how to fix it. A registration whose
/// > factory takes arguments cannot be injected: resolve it with `resolve(_:arguments:)`.
@propertyWrapper
public struct Injected<T> {
    /// The value once resolved, read without a lock, and what the first read resolves with
    /// (binding, name, requester), in one allocation (see `OnceCell`).
    @usableFromInline let cell: OnceCell<T>

    /// Binds the property to the current ``DependencyStore/shared``.
    ///
    /// ```swift
    /// @Injected var networking: Networking
    /// @Injected(name: "formal") var greeting: Greeting
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name the dependency was registered under; `nil`, the default, for the
    ///     unnamed one.
    ///   - fileID: Where the property is declared, for diagnostics. Leave the default.
    ///   - line: The line of the declaration. Leave the default.
    @inlinable
    public init(name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        // One call into the library, which binds, allocates and declares (see `OnceCell`).
        cell = OnceCell(propertyDeclaredAt: fileID, line: line, name: name, declaring: T.self, optional: false)
    }

    /// Binds to `store`, for `requester`: how `Lazy` handles resolve exactly as a property does.
    init(boundTo store: DependencyStore, name: String?, requester: Requester) {
        self.init(binding: InjectedBinding(store), name: name, requester: requester)
    }

    private init(binding: consuming InjectedBinding, name: String?, requester: Requester) {
        let verifier = binding.verifier
        // The cell's last use of `binding` and `name`, which it takes over: the verifier reads
        // them from the cell, so that neither is copied for the cell and released here.
        cell = OnceCell(binding: binding, name: name, requester: requester)
        if let verifier {
            verifier.declared(T.self, name: cell.name, optional: false, in: cell.bindingStore, at: requester.location)
        }
    }

    /// The resolved dependency: resolved on first read, the same value afterwards; or the value
    /// last set.
    ///
    /// A set, as a test does to put a mock in, is what every later read returns:
    ///
    /// ```swift
    /// final class GreetingViewModel {
    ///     @Injected var accessTokenService: AccessTokenServiceType
    /// }
    ///
    /// let model = GreetingViewModel()
    /// model.accessTokenService = MockAccessTokenService()
    /// ```
    ///
    /// It resolves nothing. Set before the first read, the property lets go of the store it was
    /// bound to and never resolves; set after, it replaces the value it resolved. A set waits
    /// for a first read under way on another thread, so it is never lost to it. Each value set
    /// after the first stays allocated until the property goes (a read takes no lock, so a read
    /// on another thread may still be copying the value a set replaced). A set inside the
    /// property's own first read (from a factory or an observer that read runs) traps, naming
    /// the property.
    ///
    /// The setter is for tests and previews, not for state: a value type's property changed in
    /// place (`config.retries += 1`) is a read and a set, not atomic across threads, and each
    /// such set keeps one more value allocated. The property's storage is shared by the copies of
    /// a struct that holds it, as its resolved value is: a set through one copy (even a `let`)
    /// is what every copy reads.
    @inlinable
    public var wrappedValue: T {
        get {
            if let published = cell.gate.published {
                return published.assumingMemoryBound(to: T.self).pointee
            }
            return resolveFirst()
        }
        nonmutating set {
            set(newValue)
        }
    }

    /// The setter's work, in the library.
    @usableFromInline
    func set(_ value: T) {
        cell.set(value, wrapper: "@Injected", declaring: T.self)
    }

    /// The property itself, for `$greeting.isResolved`.
    ///
    /// ```swift
    /// #expect(!screen.$greeting.isResolved)
    /// ```
    public var projectedValue: Injected<T> { self }

    /// Whether the first read has resolved the value, or a set has given it one: `false` until
    /// then, `true` for ever after.
    ///
    /// There is no `release()`: see ``Injected`` for why, and use ``ReleasableInjected`` for a
    /// value to drop and resolve again.
    ///
    /// ```swift
    /// _ = screen.greeting
    /// #expect(screen.$greeting.isResolved)
    /// ```
    public var isResolved: Bool {
        cell.gate.published != nil
    }

    /// The first read: resolves exactly once, then publishes. Specialised in the caller's
    /// module for `T`, so that the value is copied without the type's witnesses: the library
    /// finds it and holds it meanwhile (`OnceStorage.beginFirstRead(of:)`), this code copies it
    /// (a copy runs no user code, only retains), and the library publishes the copy. What the
    /// library cannot find that way is resolved through the store, generically.
    @inlinable @inline(never)
    func resolveFirst() -> T {
        let read = cell.storage.beginFirstRead(of: T.self)
        guard let address = read.address else { return resolveFirstThroughTheStore(insideGate: read.insideGate) }
        let value = address.assumingMemoryBound(to: T.self).pointee
        if read.found {
            let slot = cell.valueSlot(for: read)
            slot.bindMemory(to: T.self, capacity: 1).initialize(to: value)
            cell.storage.finishFirstRead(read, publishing: slot)
        }
        return value
    }

    /// The first read, resolved through the store: what `resolveFirst` does with what the library
    /// does not find on its own, inside the gate `beginFirstRead(of:)` entered, which this leaves
    /// once it has published. Outside it, in a cycle: this thread is inside this property's own
    /// resolution, and resolving again lets the store trap with the whole chain (see
    /// `resolveOnce`).
    @usableFromInline @inline(never)
    func resolveFirstThroughTheStore(insideGate: Bool) -> T {
        // What `beginFirstRead` looks at (the store's own values and kept instances, the parent's
        // published ones) is not looked at again: the store's resolve.
        resolveEntered(cell, insideGate: insideGate) {
            InjectedBinding.resolve(T.self, from: $0.header, arguments: .none, lookingFirstWithoutResolve: false)
        }
    }
}

extension Injected {
    /// The value, or the error its first read would trap with: for code that must turn a missing
    /// or failing dependency into an answer of its own, as a server's handler turns it into a
    /// response instead of ending the process.
    ///
    /// ```swift
    /// final class ReportHandler {
    ///     @Injected var prices: PriceFetching
    ///
    ///     func respond() -> String {
    ///         do {
    ///             let prices = try $prices.tryValue()
    ///             return "\(prices)"
    ///         } catch {
    ///             return "500: \(error)"   // the trap's message, "To fix" included
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// After a success, it and every read return the same value, as after a first read. A failure
    /// publishes nothing: the next read, or `tryValue()`, resolves again. As with
    /// ``DependencyStore/tryResolve(_:name:fileID:line:)``, only this resolve is checked: a
    /// factory it runs that resolves something missing still traps.
    ///
    /// - Returns: The value the property reads.
    /// - Throws: ``ResolutionError`` when its first resolve cannot succeed.
    public func tryValue() throws(ResolutionError) -> T {
        if let published = cell.gate.published {
            return published.assumingMemoryBound(to: T.self).pointee
        }
        return try resolveOnce(cell: cell, type: T.self) { (cell) throws(ResolutionError) -> T in
            let header = cell.header
            return try header.pointee.binding.tryResolve(
                T.self, name: OnceHeader.name(in: header), arguments: .none, requester: header.pointee.requester)
        }
    }

    /// The value, resolved on the first read with `arguments`: what a `Lazy` handle resolved with
    /// arguments reads. Passed at the read rather than kept here, so that a property pays nothing
    /// for what only a handle needs.
    func value(resolvingWith arguments: GivenArguments) -> T {
        if let published = cell.gate.published {
            return published.assumingMemoryBound(to: T.self).pointee
        }
        return resolveOnce(cell: cell, type: T.self) { cell in
            InjectedBinding.resolve(T.self, from: cell.header, arguments: arguments)
        }
    }
}

extension Injected: @unchecked Sendable where T: Sendable {}
