/// What ``DependencyStore/shutdown(timeout:)`` or ``DependencyStore/reset(_:timeout:fileID:line:)``
/// did: how many instances it closed, and every close that threw or missed its deadline.
///
/// ```swift
/// let report = await store.shutdown(timeout: 5)
/// if !report.failures.isEmpty {
///     print(report)        // one paragraph per failure, naming the instance
/// }
/// ```
public struct CloseReport: CustomStringConvertible {
    /// How many closes ended without an error before the deadline.
    public let closed: Int
    /// Every close that threw, or had not ended when the deadline passed, in the order they ran.
    public let failures: [CloseFailure]
    /// The instances whose close missed the deadline, as their registrations name them.
    public var missedDeadline: [String] {
        failures.compactMap { failure in
            if case .missedDeadline = failure.reason { failure.instance } else { nil }
        }
    }
    /// What the call did, in a sentence, and then each failure's message.
    public let description: String

    init(closed: Int, failures: [CloseFailure], trigger: String, store: String) {
        self.closed = closed
        self.failures = failures
        let instances = closed == 1 ? "1 instance" : "\(closed) instances"
        let summary =
            failures.isEmpty
            ? "\(trigger) closed \(instances) of \(store)."
            : "\(trigger) closed \(instances) of \(store); \(failures.count) failed:"
        description = ([summary] + failures.map(\.description)).joined(separator: "\n\n")
    }
}

extension CloseReport: Sendable {}
