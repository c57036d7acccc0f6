import DependencyStore
import Testing
import XCTest

/// Verifies `store` and records each problem as a Swift Testing issue at the caller's line.
///
/// ```swift
/// @Test func liveGraphIsWiredRight() {
///     let store = DependencyStore()
///     store.registerAll()
///     expectVerified(store)
/// }
/// ```
///
/// - Parameters:
///   - store: The store to verify; by default the current `DependencyStore.shared`.
///   - sampleArguments: Arguments for registrations whose factory takes them.
///   - entryPoints: Types the app creates itself (a view model a view makes), to create and check
///     as registrations are; see `EntryPoint`.
///   - sourceLocation: Where the issues are reported. Leave the default.
/// - Returns: The report, for further checks (its graph, say).
@discardableResult
public func expectVerified(
    _ store: DependencyStore = .shared,
    sampleArguments: [SampleArguments] = [],
    entryPoints: [EntryPoint] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> VerificationReport {
    let report = store.verify(sampleArguments: sampleArguments, entryPoints: entryPoints)
    for failure in failures(of: report, in: store, asyncForm: "await expectVerifiedAsync(store)") {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
    return report
}

/// Verifies `store` as ``expectVerified(_:sampleArguments:entryPoints:sourceLocation:)`` does, and also builds
/// what that form cannot: main-actor factories on the main actor, `async` ones awaited (see
/// `verifyAsync()`). The form that checks everything.
///
/// ```swift
/// @Test func theAppIsWiredRight() async {
///     let store = DependencyStore()
///     store.registerAll()
///     await expectVerifiedAsync(store)
/// }
/// ```
///
/// - Parameters:
///   - store: The store to verify; by default the current `DependencyStore.shared`.
///   - sampleArguments: Arguments for registrations whose factory takes them.
///   - entryPoints: Types the app creates itself (a view model a view makes), to create and check
///     as registrations are; see `EntryPoint`.
///   - timeout: How long one registration's build may take, in seconds, before it is reported
///     as timed out.
///   - sourceLocation: Where the issues are reported. Leave the default.
/// - Returns: The report, for further checks.
@discardableResult
public func expectVerifiedAsync(
    _ store: DependencyStore = .shared,
    sampleArguments: [SampleArguments] = [],
    entryPoints: [EntryPoint] = [],
    timeout: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> VerificationReport {
    let report = await store.verifyAsync(sampleArguments: sampleArguments, entryPoints: entryPoints, timeout: timeout)
    for failure in failures(of: report, in: store, asyncForm: "await expectVerifiedAsync(store)") {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
    return report
}

/// Verifies `store` and records each problem as an XCTest failure at the caller's line.
///
/// ```swift
/// func testLiveGraphIsWiredRight() {
///     let store = DependencyStore()
///     store.registerAll()
///     XCTAssertVerified(store)
/// }
/// ```
///
/// - Parameters:
///   - store: The store to verify; by default the current `DependencyStore.shared`.
///   - sampleArguments: Arguments for registrations whose factory takes them.
///   - entryPoints: Types the app creates itself (a view model a view makes), to create and check
///     as registrations are; see `EntryPoint`.
///   - file: Where the failures are reported. Leave the default.
///   - line: The line of the failures. Leave the default.
/// - Returns: The report, for further checks.
// XCTest's naming convention, which an XCTest user looks for.
// swift-format-ignore: AlwaysUseLowerCamelCase
@discardableResult
public func XCTAssertVerified(
    _ store: DependencyStore = .shared,
    sampleArguments: [SampleArguments] = [],
    entryPoints: [EntryPoint] = [],
    file: StaticString = #filePath,
    line: UInt = #line
) -> VerificationReport {
    let report = store.verify(sampleArguments: sampleArguments, entryPoints: entryPoints)
    for failure in failures(of: report, in: store, asyncForm: "await XCTAssertVerifiedAsync(store)") {
        XCTFail(failure, file: file, line: line)
    }
    return report
}

/// Verifies `store` as ``XCTAssertVerified(_:sampleArguments:entryPoints:file:line:)`` does, and also builds
/// what that form cannot: main-actor factories on the main actor, `async` ones awaited (see
/// `verifyAsync()`). The form that checks everything.
///
/// ```swift
/// func testTheAppIsWiredRight() async {
///     let store = DependencyStore()
///     store.registerAll()
///     await XCTAssertVerifiedAsync(store)
/// }
/// ```
///
/// - Parameters:
///   - store: The store to verify; by default the current `DependencyStore.shared`.
///   - sampleArguments: Arguments for registrations whose factory takes them.
///   - entryPoints: Types the app creates itself (a view model a view makes), to create and check
///     as registrations are; see `EntryPoint`.
///   - timeout: How long one registration's build may take, in seconds, before it is reported
///     as timed out.
///   - file: Where the failures are reported. Leave the default.
///   - line: The line of the failures. Leave the default.
/// - Returns: The report, for further checks.
// XCTest's naming convention, which an XCTest user looks for.
// swift-format-ignore: AlwaysUseLowerCamelCase
@discardableResult
public func XCTAssertVerifiedAsync(
    _ store: DependencyStore = .shared,
    sampleArguments: [SampleArguments] = [],
    entryPoints: [EntryPoint] = [],
    timeout: Double = 5,
    file: StaticString = #filePath,
    line: UInt = #line
) async -> VerificationReport {
    let report = await store.verifyAsync(sampleArguments: sampleArguments, entryPoints: entryPoints, timeout: timeout)
    for failure in failures(of: report, in: store, asyncForm: "await XCTAssertVerifiedAsync(store)") {
        XCTFail(failure, file: file, line: line)
    }
    return report
}

/// What an assertion reports of `report`, one failure a line: each problem, and each registration
/// the verification did not build, since a check that passed over something must not pass. A
/// registration skipped for want of the main actor or an await points at `asyncForm`; one skipped
/// for want of arguments, at `sampleArguments`.
private func failures(of report: VerificationReport, in store: DependencyStore, asyncForm: String) -> [String] {
    var failures = report.problems.map { "\(store) is not wired right: \($0)" }
    failures += report.skippedForIsolation.map { node in
        """
        \(store) was not fully checked: \(node), registered at \(node.registeredAt ?? "?"), was not built, \
        because its factory, or one it resolves, runs on the main actor or is async, which verify() \
        cannot build on its threads. To fix: check with `\(asyncForm)`, which builds main-actor \
        factories on the main actor and awaits async ones.
        """
    }
    failures += report.skipped.map { node in
        let name = node.name.map { ", name: \"\($0)\"" } ?? ""
        return """
            \(store) was not fully checked: \(node), registered at \(node.registeredAt ?? "?"), was not built, \
            because its factory takes arguments. To fix: give it some, \
            `sampleArguments: [SampleArguments(for: \(node.type).self\(name), <its arguments>)]`.
            """
    }
    return failures
}
