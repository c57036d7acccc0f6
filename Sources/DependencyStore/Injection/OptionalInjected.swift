/// A property that is resolved from a ``DependencyStore`` on first read, or `nil` when nothing is
/// registered for it.
///
/// For dependencies that are optional by design, which an app may or may not register (analytics,
/// a debug overlay, a feature behind a flag):
///
/// ```swift
/// final class CheckoutModel {
///     @OptionalInjected var analytics: Analytics?
///
///     func pay() {
///         analytics?.track("pay")
///     }
/// }
/// ```
///
/// Like ``Injected``, it binds to ``DependencyStore/shared`` when it is created and resolves
/// exactly once, on its first read; the answer, `nil` included, is kept, so registering the
/// dependency later does not change a property that was already read.
///
/// > Important: Only absence gives `nil`. A cycle, a registration that needs arguments, or a
/// > missing registration that the dependency's own factory resolves still traps.
@propertyWrapper
public struct OptionalInjected<T> {
    /// The answer once decided, read without a lock, and what the first read resolves with, in
    /// one allocation (see `OnceCell`).
    @usableFromInline let cell: OnceCell<T?>

    /// Binds the property to the current ``DependencyStore/shared``.
    ///
    /// ```swift
    /// @OptionalInjected var analytics: Analytics?
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name the dependency may be registered under; `nil`, the default, for the
    ///     unnamed one.
    ///   - fileID: Where the property is declared, for diagnostics. Leave the default.
    ///   - line: The line of the declaration. Leave the default.
    @inlinable
    public init(name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        cell = OnceCell(propertyDeclaredAt: fileID, line: line, name: name, declaring: T.self, optional: true)
    }

    /// The resolved dependency, or `nil` when it is not registered: decided on first read, the
    /// same afterwards; or the value last set, `nil` included. A set works as
    /// ``Injected/wrappedValue``'s does.
    public var wrappedValue: T? {
        get {
            if let published = cell.gate.published {
                return published.assumingMemoryBound(to: T?.self).pointee
            }
            return resolveOnce(cell: cell, type: T.self) { cell in
                let header = cell.header
                return header.pointee.binding.store.resolveIfRegistered(
                    T.self, name: OnceHeader.name(in: header), requester: header.pointee.requester)
            }
        }
        nonmutating set {
            cell.set(newValue, wrapper: "@OptionalInjected", declaring: T.self)
        }
    }
}

extension OptionalInjected: @unchecked Sendable where T: Sendable {}
