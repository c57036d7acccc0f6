/// A property resolved from a ``DependencyStore`` on first read, whose value can be dropped so that
/// the next read resolves again.
///
/// For a dependency that should not live as long as its holder: a session that ends at logout, a
/// cache to rebuild after a memory warning, a `.unique` helper to replace after an error. Read it
/// as you read an ``Injected`` property, and release it through its projected value, `$session`:
///
/// ```swift
/// final class AccountModel {
///     @ReleasableInjected var session: Session
///
///     func logOut() {
///         session.close()
///         $session.release()     // the next read of `session` resolves again
///     }
///
///     var isSignedIn: Bool { $session.isResolved }
/// }
/// ```
///
/// Like ``Injected``, the property binds to ``DependencyStore/shared`` when it is created and
/// resolves from that store on its first read, exactly once, even when many threads read it first
/// together. After ``release()``, the next read resolves again from the same store: a `.unique`
/// registration builds a new value, a `.singleton` returns the one its store keeps.
///
/// Unlike ``Injected``, every read takes a small lock, so that a release on another thread cannot
/// free the value while a read copies it. Use ``Injected`` for what the holder keeps for its whole
/// life: its reads take no lock.
///
/// To resolve again from the same store, the property keeps what it was bound to for as long as it
/// lives. Created outside the factories of the instances a store keeps (in `execute { }`, in app
/// code, in a `.unique` factory), that is the store, which lives at least as long as the property's
/// holder. Created while a store builds an instance it keeps (in a `.singleton`'s initialiser), it
/// holds only what that store resolves with, so the store and the instance can still be freed; see
/// "When a store goes" in <doc:Lifetimes>.
///
/// `ReleasableInjected` is `Sendable` when its value is. A `Sendable` class cannot hold a property
/// wrapper (its storage is a `var`), so declare a constant there and read its ``wrappedValue``:
/// `private let session = ReleasableInjected<any SessionType>()`.
///
/// > Important: A missing registration traps on a read that resolves, with a message that names
/// > this property's declaration (file and line), the store, and how to fix it. A registration
/// > whose factory takes arguments cannot be injected: resolve it with `resolve(_:arguments:)`.
@propertyWrapper
public final class ReleasableInjected<T> {
    /// Its name, declaration and binding, its gate, and the value, `nil` before the first read
    /// and after a release.
    private let property: EmptiableProperty<T>

    /// Binds the property to the current ``DependencyStore/shared``.
    ///
    /// ```swift
    /// @ReleasableInjected var session: Session
    /// @ReleasableInjected(name: "guest") var guestSession: Session
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name the dependency was registered under; `nil`, the default, for the
    ///     unnamed one.
    ///   - fileID: Where the property is declared, for diagnostics. Leave the default.
    ///   - line: The line of the declaration. Leave the default.
    public init(name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        property = EmptiableProperty("@ReleasableInjected", declaring: T.self, name: name, fileID: fileID, line: line)
    }

    /// The resolved dependency: resolved on the first read and on the first read after each
    /// ``release()``, the same value in between; or the value last set, until a `release()`.
    ///
    /// A set (a test's mock) resolves nothing and keeps the binding: after `release()`, the next
    /// read resolves from the store again. A set waits for a first read under way on another
    /// thread, and one inside the property's own first read traps, as ``Injected``'s does.
    ///
    /// ```swift
    /// let token = session.token
    /// ```
    public var wrappedValue: T {
        get {
            let requester = Requester.releasableInjectedProperty(property.declaration)
            return property.read(
                T.self, requester: requester, view: { $0 },
                resolve: { $0.resolve(T.self, name: property.name, arguments: .none, requester: requester) },
                keep: { $0 })
        }
        set {
            property.set(newValue, T.self, requester: .releasableInjectedProperty(property.declaration))
        }
    }

    /// The property itself, for `$session.isResolved` and `$session.release()`.
    ///
    /// ```swift
    /// if $session.isResolved { $session.release() }
    /// ```
    public var projectedValue: ReleasableInjected<T> { self }

    /// Whether the property holds a value: `true` from the first read until ``release()``, so
    /// `false` means the next read resolves.
    ///
    /// ```swift
    /// #expect(!model.$session.isResolved)
    /// _ = model.session
    /// #expect(model.$session.isResolved)
    /// ```
    public var isResolved: Bool {
        property.isResolved
    }

    /// Drops the value, so that the next read resolves again from the store the property was
    /// bound to.
    ///
    /// The property lets go of the value after it has unlocked, so the value's `deinit` (if this
    /// was its last owner) may resolve, and may even read this property again. A read racing a
    /// release returns the old value or a newly resolved one, never a freed one. Releasing an
    /// empty property does nothing.
    ///
    /// ```swift
    /// $session.release()
    /// ```
    ///
    /// > Note: The store's own instance is not affected: releasing a `.singleton` only lets this
    /// > property resolve it again, which returns the same instance until the store's scope is
    /// > reset (``DependencyStore/reset(_:fileID:line:)``).
    public func release() {
        property.release()
    }
}

extension ReleasableInjected: @unchecked Sendable where T: Sendable {}
