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
/// `Injected` is `Sendable` when its value is, so it can be used in a `Sendable` struct, an actor,
/// a `@MainActor` class or a plain class alike.
///
/// > Important: A missing registration traps on the first read, with a message that names this
/// > property's declaration (file and line), the store, and how to fix it.
@propertyWrapper
public final class Injected<T> {
    private let store: DependencyStore
    private let declaration: SourceLocation
    private let state = Lock(State.unresolved)
    /// Held by the one thread that runs the resolution, so the others wait for its value instead
    /// of building their own. It is per property and taken only until the value exists; see
    /// `wrappedValue`.
    private let resolutionGate = Lock()

    private enum State {
        case unresolved
        /// Being resolved by the thread whose resolution stack has this identity.
        case resolving(thread: ObjectIdentifier)
        case resolved(T)
    }

    /// Binds the property to the current ``DependencyStore/shared``.
    ///
    /// ```swift
    /// @Injected var networking: Networking
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: Where the property is declared, for diagnostics. Leave the default.
    ///   - line: The line of the declaration. Leave the default.
    public init(fileID: StaticString = #fileID, line: UInt = #line) {
        store = DependencyStore.shared
        declaration = SourceLocation(fileID: fileID, line: line)
    }

    /// The resolved dependency: resolved on first read, the same value afterwards.
    public var wrappedValue: T {
        switch state.withLock({ $0 }) {
        case .resolved(let value):
            return value
        case .resolving(let thread) where thread == ObjectIdentifier(ResolutionStack.current):
            // This thread is inside this property's own resolution: the factory needs the value
            // it is building. Waiting for the gate would deadlock; resolving again lets the store
            // detect the cycle on this thread's chain and trap with the whole chain.
            return store.resolve(T.self, requester: .injectedProperty(declaration))
        case .unresolved, .resolving:
            break
        }
        // The gate is held while the factory runs. That is safe: only readers of this one
        // property wait on it, and they need exactly the value being built. The only way to wait
        // forever is a dependency cycle spanning two threads, which on one thread is the trap above.
        return resolutionGate.withLock {
            if case .resolved(let value) = state.withLock({ $0 }) { return value }
            let thread = ObjectIdentifier(ResolutionStack.current)
            state.withLock { $0 = .resolving(thread: thread) }
            let value = store.resolve(T.self, requester: .injectedProperty(declaration))
            state.withLock { $0 = .resolved(value) }
            return value
        }
    }
}

extension Injected: @unchecked Sendable where T: Sendable {}
