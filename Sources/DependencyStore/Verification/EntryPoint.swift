/// A type the app creates itself rather than resolves, such as a view model a view makes
/// (`@StateObject private var model = WeatherModel()`), named for verification: `verify()` creates
/// it as the app does and checks every `@Injected` (and `@OptionalInjected`, `Lazy`, `Provider`)
/// property it declares, as it checks a registration's.
///
/// ```swift
/// let report = await store.verifyAsync(entryPoints: [
///     EntryPoint(WeatherModel.self, on: MainActor.self) { WeatherModel() },
///     EntryPoint(ReportPrinter.self) { ReportPrinter() },
/// ])
/// ```
///
/// The report names it as it names a registration, at the line of its `EntryPoint`. A type
/// the store registers itself is checked through that registration instead, and its `EntryPoint`
/// is not used. A `@MainActor` type needs `on: MainActor.self`, and the async forms
/// (`verifyAsync()`, `expectVerifiedAsync`) to be created; the synchronous ones list it as not
/// built, as they do a main-actor registration.
public struct EntryPoint {
    /// The type it creates.
    let type: Any.Type
    /// Registers its creation in a verification copy, where it is built as a root.
    let registerIn: (DependencyStore) -> Void

    /// An entry point created off the main actor, by `make`.
    ///
    /// - Parameters:
    ///   - type: The type the app creates.
    ///   - fileID: Where it is named, which the report gives. Leave the default.
    ///   - line: The line where it is named. Leave the default.
    ///   - make: Creates it as the app does.
    public init<T>(_ type: T.Type, fileID: StaticString = #fileID, line: UInt = #line, _ make: @escaping () -> T) {
        self.type = type
        registerIn = { store in store.register(T.self, fileID: fileID, line: line) { _ in make() } }
    }

    /// An entry point created on the main actor, by `make`: a `@MainActor` view model.
    ///
    /// - Parameters:
    ///   - type: The type the app creates.
    ///   - actor: `MainActor.self`.
    ///   - fileID: Where it is named, which the report gives. Leave the default.
    ///   - line: The line where it is named. Leave the default.
    ///   - make: Creates it as the app does, on the main actor.
    public init<T: Sendable>(
        _ type: T.Type, on actor: MainActor.Type, fileID: StaticString = #fileID, line: UInt = #line,
        _ make: @escaping @MainActor () -> T
    ) {
        self.type = type
        registerIn = { store in store.register(T.self, on: actor, fileID: fileID, line: line) { _ in make() } }
    }
}

/// Not `Sendable`: it holds the app's closure as it was given, which need not be.
@available(*, unavailable)
extension EntryPoint: Sendable {}
