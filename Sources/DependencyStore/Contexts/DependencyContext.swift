#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A context the app can run in, for which a registration may carry an alternative factory:
/// under tests, in a SwiftUI preview, in a debug build, on the simulator or a device, or launched
/// with an argument.
///
/// ```swift
/// store.register(Networking.self, scope: .singleton) { _ in URLSessionNetworking() }
///     .on(.test) { _ in MockNetworking() }
///     .on(.argument("-mock-network")) { _ in StubNetworking() }
///     .on(.preview) { _ in PreviewNetworking() }
/// ```
///
/// The store detects the contexts once, on first use, from what the platform offers:
///
/// | context | in force when |
/// |---|---|
/// | ``argument(_:)`` | the process was launched with that argument (`CommandLine.arguments`), as a UI test's `launchArguments` do |
/// | ``preview`` | the environment has `XCODE_RUNNING_FOR_PREVIEWS=1`, which Xcode sets for SwiftUI previews |
/// | ``test`` | the process is a test runner: XCTest's environment (`XCTestConfigurationFilePath`, `XCTestBundlePath`, `XCTestSessionIdentifier`), or an executable or argument that is an `.xctest` bundle, `xctest` or `swiftpm-testing-helper` (what `swift test` runs, on Linux and on macOS) |
/// | ``simulator`` | the build targets a simulator (`targetEnvironment(simulator)`) |
/// | ``device`` | the build targets a physical iPhone, iPad, Apple TV, Apple Watch or Vision Pro: never on macOS, Mac Catalyst or Linux |
/// | ``debug`` | this library was compiled with `DEBUG` defined, as SwiftPM and Xcode do for a debug build |
///
/// Tests set the contexts in force for the code they run with ``withActive(_:operation:)``, which
/// replaces detection for that task, without relaunching.
public struct DependencyContext: Hashable {
    /// Which context, in the precedence of alternatives, lowest first (its raw value).
    enum Kind: Int {
        case argument
        case preview
        case test
        case simulator
        case device
        case debug
    }

    let kind: Kind
    /// The argument's text, for ``argument(_:)``; `nil` for the others.
    var argument: String?

    /// Under unit tests: XCTest or Swift Testing, run by Xcode or `swift test`.
    public static let test = Self(kind: .test)
    /// In an Xcode SwiftUI preview.
    public static let preview = Self(kind: .preview)
    /// In a debug build.
    public static let debug = Self(kind: .debug)
    /// On the iOS, tvOS, watchOS or visionOS simulator.
    public static let simulator = Self(kind: .simulator)
    /// On a physical iPhone, iPad, Apple TV, Apple Watch or Vision Pro; never on macOS or Linux.
    public static let device = Self(kind: .device)

    /// When the process was launched with `argument`, as a UI test passes it:
    /// `app.launchArguments = ["-mock-network"]`.
    ///
    /// The argument is matched exactly, as one whole launch argument. It need not start with `-`
    /// (a launch argument is whatever the launch passes); an empty one makes `on(_:_:)` trap.
    ///
    /// - Parameter argument: The launch argument, exactly as passed: `"-mock-network"`.
    /// - Returns: The context.
    public static func argument(_ argument: String) -> Self {
        Self(kind: .argument, argument: argument)
    }

}

extension DependencyContext {
    /// Whether `context` is in force for the calling task: set by ``withActive(_:operation:)``
    /// around it, or else detected.
    ///
    /// ```swift
    /// if DependencyContext.isActive(.argument("-reset-onboarding")) {
    ///     onboarding.reset()
    /// }
    /// ```
    ///
    /// - Parameter context: The context to ask about.
    /// - Returns: `true` when it is in force.
    public static func isActive(_ context: DependencyContext) -> Bool {
        active.contains(context)
    }

    /// The contexts in force for the calling task: those set by
    /// ``withActive(_:operation:)`` around it, or else the ones detected for the process, with one
    /// ``argument(_:)`` for each of its launch arguments.
    ///
    /// ```swift
    /// print(DependencyContext.active.contains(.test))   // true under `swift test`
    /// ```
    public static var active: Set<DependencyContext> {
        override ?? DetectedContexts.shared.contexts
    }

    /// Runs `operation` with exactly `contexts` in force, instead of the detected ones: what a
    /// test does to run the alternative of a context without relaunching.
    ///
    /// ```swift
    /// @Test func showsTheStubbedFeed() {
    ///     DependencyContext.withActive([.argument("-mock-network")]) {
    ///         let store = DependencyStore()
    ///         store.register(Networking.self) { _ in URLSessionNetworking() }
    ///             .on(.argument("-mock-network")) { _ in StubNetworking() }
    ///         #expect(store.resolve(Networking.self) is StubNetworking)
    ///     }
    /// }
    /// ```
    ///
    /// The contexts belong to the calling task (or thread, outside tasks): tests that run at the
    /// same time each see their own, and the detected ones apply again when `operation` returns
    /// or throws. Calls nest; the innermost wins, whole: `withActive([])` runs with no context in
    /// force. Child tasks and `Task {}` created inside inherit them; `Task.detached`, GCD queues
    /// and threads you start yourself do not.
    ///
    /// > Important: An alternative is chosen when the registration builds, so a `.singleton` (or
    /// > custom-scoped) instance built before, or by another task under other contexts, is the
    /// > one handed out until it is reset. Register in a store of the test's own to be sure.
    ///
    /// - Parameters:
    ///   - contexts: The contexts in force inside `operation`, and no others.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @discardableResult
    public static func withActive<R>(_ contexts: Set<DependencyContext>, operation: () throws -> R) rethrows -> R {
        try $override.withValue(contexts, operation: operation)
    }

    /// Runs asynchronous `operation` with exactly `contexts` in force, across its suspension points
    /// and in the child tasks it creates: the async form of ``withActive(_:operation:)``.
    ///
    /// ```swift
    /// @Test func previewsTheFeed() async {
    ///     await DependencyContext.withActive([.preview]) {
    ///         let store = DependencyStore()
    ///         store.register(Networking.self) { _ in URLSessionNetworking() }
    ///             .on(.preview) { _ in PreviewNetworking() }
    ///         #expect(store.resolve(Networking.self) is PreviewNetworking)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - contexts: The contexts in force inside `operation`, and no others.
    ///   - isolation: The actor to run on; the default is the caller's. Leave the default.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @discardableResult
    public static func withActive<R>(
        _ contexts: Set<DependencyContext>,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await $override.withValue(contexts, operation: operation, isolation: isolation)
    }

    /// The contexts `withActive` set for this task, replacing detection.
    @TaskLocal static var override: Set<DependencyContext>?
}

extension DependencyContext: CustomStringConvertible {
    /// As you write it: `.test`, `.argument("-mock-network")`.
    public var description: String {
        argument.map { ".argument(\"\($0)\")" } ?? ".\(kind)"
    }
}

extension DependencyContext: Sendable {}

/// The contexts the process runs in, detected once, on first use (a `static let` is initialised
/// lazily, once, thread-safely).
struct DetectedContexts: Sendable {
    /// Every context detected: one ``DependencyContext/argument(_:)`` per launch argument.
    let contexts: Set<DependencyContext>

    static let shared = DetectedContexts(
        arguments: CommandLine.arguments, environment: { name in getenv(name).map { String(cString: $0) } })

    /// The contexts of a process launched with `arguments` (the executable first) in an
    /// environment that `environment` reads.
    init(arguments: [String], environment: (String) -> String?) {
        var contexts = Set(arguments.dropFirst().map(DependencyContext.argument))
        if environment("XCODE_RUNNING_FOR_PREVIEWS") == "1" { contexts.insert(.preview) }
        if Self.isTestRunner(arguments: arguments, environment: environment) { contexts.insert(.test) }
        #if targetEnvironment(simulator)
        contexts.insert(.simulator)
        #elseif (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && !targetEnvironment(macCatalyst)
        contexts.insert(.device)
        #endif
        #if DEBUG
        contexts.insert(.debug)
        #endif
        self.contexts = contexts
    }

    /// Whether the process is a test runner. XCTest on Apple platforms sets its environment
    /// variables in the process it tests (an app hosting tests too); `swift test` runs an
    /// `.xctest` bundle: on Linux as the executable itself, on macOS through `xctest` or
    /// `swiftpm-testing-helper` with the bundle as an argument.
    static func isTestRunner(arguments: [String], environment: (String) -> String?) -> Bool {
        let variables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        if variables.contains(where: { environment($0) != nil }) { return true }
        let executable = arguments.first?.split(separator: "/").last
        if executable == "xctest" || executable == "swiftpm-testing-helper" { return true }
        // The bundle, or the executable inside it (`Tests.xctest/Contents/MacOS/Tests`).
        return arguments.contains { $0.split(separator: "/").contains { $0.hasSuffix(".xctest") } }
    }
}
