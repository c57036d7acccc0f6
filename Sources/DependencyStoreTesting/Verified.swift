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
///   - sourceLocation: Where the issues are reported. Leave the default.
/// - Returns: The report, for further checks (its graph, say).
@discardableResult
public func expectVerified(
    _ store: DependencyStore = .shared,
    sampleArguments: [SampleArguments] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> VerificationReport {
    let report = store.verify(sampleArguments: sampleArguments)
    for problem in report.problems {
        Issue.record(Comment(rawValue: "\(store) is not wired right: \(problem)"), sourceLocation: sourceLocation)
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
///   - file: Where the failures are reported. Leave the default.
///   - line: The line of the failures. Leave the default.
/// - Returns: The report, for further checks.
// XCTest's naming convention, which an XCTest user looks for.
// swift-format-ignore: AlwaysUseLowerCamelCase
@discardableResult
public func XCTAssertVerified(
    _ store: DependencyStore = .shared,
    sampleArguments: [SampleArguments] = [],
    file: StaticString = #filePath,
    line: UInt = #line
) -> VerificationReport {
    let report = store.verify(sampleArguments: sampleArguments)
    for problem in report.problems {
        XCTFail("\(store) is not wired right: \(problem)", file: file, line: line)
    }
    return report
}
