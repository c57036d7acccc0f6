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
/// Give the registration's name to inject one of several registrations of a type:
/// `@Injected(name: "formal") var greeting: Greeting`. For a dependency that may not be
/// registered at all, use ``OptionalInjected``.
///
/// > Important: A missing registration traps on the first read, with a message that names this
/// > property's declaration (file and line), the store, and how to fix it. A registration whose
/// > factory takes arguments cannot be injected: resolve it with `resolve(_:arguments:)`.
@propertyWrapper
public final class Injected<T> {
    private let store: DependencyStore
    private let name: String?
    private let declaration: SourceLocation
    private let state = Lock(InjectedState.unresolved)
    /// The value once resolved, read without a lock.
    private let slot = PublishedSlot()
    private let resolutionGate = Lock()

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
    public init(name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        store = DependencyStore.shared
        self.name = name
        declaration = SourceLocation(fileID: fileID, line: line)
        if let verifier = store.verifier {
            verifier.declared(T.self, name: name, optional: false, in: store, at: declaration)
        }
    }

    /// The resolved dependency: resolved on first read, the same value afterwards.
    public var wrappedValue: T {
        if let published = slot.published {
            return published.assumingMemoryBound(to: T.self).pointee
        }
        return resolveOnce(state: state, gate: resolutionGate, publishingIn: slot) {
            store.resolve(T.self, name: name, arguments: .none, requester: .injectedProperty(declaration))
        }
    }
}

extension Injected: @unchecked Sendable where T: Sendable {}
