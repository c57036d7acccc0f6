/// A property resolved from a ``DependencyStore`` on first read and held weakly: `nil` once the
/// object is gone.
///
/// For what a type must not keep alive: its delegate, its parent, a coordinator that owns it.
/// Holding them strongly would make a cycle that is never freed:
///
/// ```swift
/// final class CheckoutStep {
///     @WeakInjected var coordinator: CheckoutCoordinator?
///
///     func finish() {
///         coordinator?.stepDidFinish()
///     }
/// }
/// ```
///
/// Like ``Injected``, the property binds to ``DependencyStore/shared`` when it is created and
/// resolves from that store on its first read, exactly once, even when many threads read it first
/// together. It then holds the object weakly: later reads return it while something else keeps it
/// alive, and `nil` after it is gone. The property does not resolve again by itself; after
/// `$coordinator.release()` (see ``release()``) the next read does. So register what it injects
/// with a scope that keeps it: `.singleton`, a custom scope, or `.weak` while its owner holds it.
/// A `.unique` registration builds an object that nothing else holds, which is gone as soon as the
/// first read's caller lets go of it.
///
/// The type may be any protocol, class-bound or not, but what its registration builds must be a
/// class instance. The property keeps what it was bound to for as long as it lives, as
/// ``ReleasableInjected`` does. Every read takes a small lock.
///
/// `WeakInjected` is `Sendable` when its value is. A `Sendable` class cannot hold a property
/// wrapper (its storage is a `var`), so declare a constant there and read its ``wrappedValue``:
/// `private let coordinator = WeakInjected<any Coordinating>()`.
///
/// > Important: A read that resolves traps when nothing is registered for the type (a weak
/// > dependency is still a dependency: use `@OptionalInjected` where it may be absent), and when
/// > the registration builds a struct or an enum, which cannot be held weakly. Both messages name
/// > this property's declaration (file and line) and how to fix it.
@propertyWrapper
public final class WeakInjected<T> {
    /// Its name, declaration and binding, its gate, and the object it points at, held weakly:
    /// `nil` before the first read and after a release.
    private let property: EmptiableProperty<WeakObject>

    /// What the property holds once it has read: a weak reference, which is `nil` once the object
    /// is gone.
    private struct WeakObject {
        weak var object: AnyObject?
    }

    /// Binds the property to the current ``DependencyStore/shared``.
    ///
    /// ```swift
    /// @WeakInjected var coordinator: CheckoutCoordinator?
    /// @WeakInjected(name: "root") var root: Coordinating?
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name the dependency was registered under; `nil`, the default, for the
    ///     unnamed one.
    ///   - fileID: Where the property is declared, for diagnostics. Leave the default.
    ///   - line: The line of the declaration. Leave the default.
    public init(name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        property = EmptiableProperty("@WeakInjected", declaring: T.self, name: name, fileID: fileID, line: line)
    }

    /// The resolved object while something else keeps it alive, `nil` after it is gone.
    ///
    /// Resolved on the first read and on the first read after each ``release()``; in between,
    /// reads return what that read resolved, or `nil`, and never resolve again.
    ///
    /// A set holds its object weakly too, and counts as the read: reads return it while
    /// something else keeps it alive, until a `release()`. Keep a mock you set alive yourself:
    /// `holder.parent = MockParent()` reads `nil` at once. Set to an instance that is not a class's,
    /// it traps, naming the property. A set waits for a first read under way on another thread,
    /// and one inside the property's own first read traps, as ``Injected``'s does.
    ///
    /// ```swift
    /// coordinator?.stepDidFinish()
    /// ```
    public var wrappedValue: T? {
        get {
            let requester = Requester.weakInjectedProperty(property.declaration)
            return property.read(
                T.self, requester: requester, view: { held in held.object.map { $0 as! T } },
                resolve: { binding in
                    let value = binding.resolve(T.self, name: property.name, arguments: .none, requester: requester)
                    guard Swift.type(of: value as Any) is AnyClass else {
                        let error = binding.store.weakInjectedNeedsAClass(
                            T.self, name: property.name, built: value, declaration: property.declaration)
                        DependencyStore.fail(error, resolving: T.self, name: property.name, at: requester)
                    }
                    return value
                },
                keep: { WeakObject(object: $0.map { $0 as AnyObject }) })
        }
        set {
            if let newValue, !(Swift.type(of: newValue as Any) is AnyClass) {
                Diagnosis.propertySetRefused(
                    wrapper: "@WeakInjected", type: Diagnostics.shortName(of: T.self), declaredAt: property.declaration,
                    problem: .notAnObject(Diagnostics.shortName(of: Swift.type(of: newValue as Any)))
                ).trap(file: property.declaration.fileID, line: property.declaration.line)
            }
            property.set(
                WeakObject(object: newValue.map { $0 as AnyObject }), T.self,
                requester: .weakInjectedProperty(property.declaration))
        }
    }

    /// The property itself, for `$coordinator.isResolved` and `$coordinator.release()`.
    ///
    /// ```swift
    /// $coordinator.release()
    /// ```
    public var projectedValue: WeakInjected<T> { self }

    /// Whether a read has resolved since the property was created or last released: `true` even
    /// after the object is gone, since reads then return `nil` without resolving; `false` means
    /// the next read resolves.
    ///
    /// ```swift
    /// if !$coordinator.isResolved { print("not looked up yet") }
    /// ```
    public var isResolved: Bool {
        property.isResolved
    }

    /// Forgets the object, so that the next read resolves again from the store the property was
    /// bound to.
    ///
    /// Use it when the object the property pointed at is gone and a new one is registered or kept
    /// by the store (a new coordinator after the flow restarted). Releasing an empty property does
    /// nothing.
    ///
    /// ```swift
    /// $coordinator.release()
    /// ```
    public func release() {
        property.release()
    }
}

extension WeakInjected: @unchecked Sendable where T: Sendable {}
