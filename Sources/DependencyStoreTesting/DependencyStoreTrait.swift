// TestScoping, which the trait is built on, arrived in Swift 6.1 (Xcode 16.3); with an older
// compiler the trait is left out, and the rest of the library builds.
#if compiler(>=6.1)
import DependencyStore
import Testing

/// A Swift Testing trait that runs each test (or each test of a suite, and each case of a
/// parameterized test) against a store of its own, so tests running in parallel never see each
/// other's mocks.
///
/// ```swift
/// @Test(.dependencyStore { store in
///     store.register(MockNetworking(reply: .ok), for: Networking.self)
///     store.register(CoinbaseSpotPriceDecoder(), for: SpotPriceDecoding.self)
/// })
/// func fetchesThePrice() async throws {
///     let fetcher = CoinbasePriceFetcher()            // binds to the test's store
///     #expect(try await fetcher.spotPrice(in: "USD").amount == 15_840.01)
/// }
///
/// @Suite(.dependencyStore(layeredOver: .shared) { store in   // live graph, one override
///     store.register(MockNetworking(reply: .ok), for: Networking.self)
/// })
/// struct PriceReportTests { /* its tests */ }
/// ```
///
/// Inside the test, `DependencyStore.shared` is the test's store: register more there, or
/// resolve from it. On a suite, every test in it gets a fresh store built the same way; a trait on
/// a test inside such a suite makes that test's store instead (and `layeredOver: .shared` then
/// layers over the suite's).
public struct DependencyStoreTrait: TestTrait, SuiteTrait, TestScoping {
    let makeParent: (@Sendable () -> DependencyStore)?
    /// Whether the parent is a store of fallbacks, whose every use is a failure of the test.
    var parentIsFallbacks = false
    let configure: @Sendable (DependencyStore) -> Void
    let fileID: StaticString
    let line: UInt

    /// Applies to every test of a suite, each with its own store.
    public var isRecursive: Bool { true }

    /// A scope for each test case: a fresh store each time.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Makes the store, lets `configure` register into it, and runs the test inside `execute`.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let store =
            if let makeParent {
                DependencyStore(parent: makeParent(), fileID: fileID, line: line)
            } else {
                DependencyStore(fileID: fileID, line: line)
            }
        configure(store)
        // At the trait, which says where the test's store comes from: the library's line would
        // say nothing.
        let trait = SourceLocation(
            fileID: "\(fileID)", filePath: "\(fileID)", line: Int(line), column: 1)
        let fallbacks = parentIsFallbacks ? store.parent : nil
        let watch = fallbacks.map { fallbacks in
            store.reportFallbacks(to: fallbacks) { Issue.record(Comment(rawValue: $0), sourceLocation: trait) }
        }
        defer { watch?.cancel() }
        try await store.execute {
            try await function()
        }
    }
}

extension Trait where Self == DependencyStoreTrait {
    /// Runs the test against a fresh, empty store, filled by `configure`: anything it does not
    /// register traps with the usual diagnostic, so a test depends only on what it declares.
    ///
    /// - Parameters:
    ///   - configure: Registers the test's dependencies (mocks) in its store.
    ///   - fileID: Where the trait is written; the store's diagnostics name it. Leave the default.
    ///   - line: The line of the trait. Leave the default.
    public static func dependencyStore(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ configure: @escaping @Sendable (DependencyStore) -> Void = { _ in }
    ) -> Self {
        DependencyStoreTrait(makeParent: nil, configure: configure, fileID: fileID, line: line)
    }

    /// Runs the test against a fresh store layered over `parent` (evaluated when each test
    /// starts): what `configure` registers wins, everything else comes from `parent`, whose
    /// registrations and instances the test never changes.
    ///
    /// - Parameters:
    ///   - parent: The store to layer over, usually `.shared`: the live store outside any other
    ///     scope, the suite's store inside a suite that has this trait.
    ///   - fileID: Where the trait is written. Leave the default.
    ///   - line: The line of the trait. Leave the default.
    ///   - configure: Registers the test's overrides.
    public static func dependencyStore(
        layeredOver parent: @autoclosure @escaping @Sendable () -> DependencyStore,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ configure: @escaping @Sendable (DependencyStore) -> Void = { _ in }
    ) -> Self {
        DependencyStoreTrait(makeParent: parent, configure: configure, fileID: fileID, line: line)
    }

    /// Runs the test against a fresh store layered over `fallbacks` (evaluated when each test
    /// starts), a store of what a test that forgets a mock gets instead of a trap: each resolve the
    /// test's store answers with a registration of `fallbacks` is a failure of the test, once per
    /// type, which goes on with the fallback. The other tests of the run still run and report.
    ///
    /// ```swift
    /// extension DependencyStore {
    ///     static let fallbacks: DependencyStore = {
    ///         let store = DependencyStore()
    ///         store.registerAll()                                    // the app's wiring,
    ///         store.register(OfflineNetworking(), for: Networking.self)   // with no network
    ///         return store
    ///     }()
    /// }
    ///
    /// @Test(.dependencyStore(fallingBackOn: .fallbacks) { store in
    ///     store.register(MockTokens(token: "sk-1234"), for: AccessTokenServiceType.self)
    /// })
    /// func showsTheMaskedToken() {
    ///     #expect(TokenViewModel().maskedToken == "sk-1…1234")
    /// }
    /// ```
    ///
    /// What neither the test's store nor `fallbacks` registers still traps, which ends the run.
    ///
    /// - Parameters:
    ///   - fallbacks: The store of fallbacks. Its registrations and instances are never changed by
    ///     a test; a `.singleton` of it is built once for all the tests that fall back on it.
    ///   - fileID: Where the trait is written. Leave the default.
    ///   - line: The line of the trait. Leave the default.
    ///   - configure: Registers the test's mocks.
    public static func dependencyStore(
        fallingBackOn fallbacks: @autoclosure @escaping @Sendable () -> DependencyStore,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ configure: @escaping @Sendable (DependencyStore) -> Void = { _ in }
    ) -> Self {
        var trait = DependencyStoreTrait(makeParent: fallbacks, configure: configure, fileID: fileID, line: line)
        trait.parentIsFallbacks = true
        return trait
    }
}

// Swift Testing requires every trait to be Sendable: the store factory and the registration
// closure it holds are @Sendable.
extension DependencyStoreTrait: Sendable {}
#endif
