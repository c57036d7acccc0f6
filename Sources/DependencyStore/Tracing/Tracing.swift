import Dispatch

/// What the tracing files share: the clock, and how labels and durations are written.
enum Tracing {
    /// The clock builds are timed with, in nanoseconds: monotonic, and not Duration-based, which
    /// iOS 13 lacks.
    @TaskLocal static var clock: Clock = .monotonic

    /// A source of nanoseconds. Tests give one that moves only when told to (see
    /// `withClock(_:operation:)`), so that durations and their order do not depend on the machine.
    struct Clock: Sendable {
        let now: @Sendable () -> UInt64

        static let monotonic = Clock { DispatchTime.now().uptimeNanoseconds }
    }

    /// `Greeting`, or `Greeting (named "formal")`: as `registrations` lists them; with a scope,
    /// `Greeting (.singleton)`, or `Greeting (named "formal", .singleton)`.
    static func label(of type: Any.Type, name: String?, scope: Scope? = nil) -> String {
        let details = [name.map { "named \"\($0)\"" }, scope?.description].compactMap { $0 }
        let shortName = Diagnostics.shortName(of: type)
        return details.isEmpty ? shortName : "\(shortName) (\(details.joined(separator: ", ")))"
    }

    /// `1 factory`, `2 factories`: `count` with the noun in the number it takes.
    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }

    /// `end - start`, or 0 for a clock that went back.
    static func elapsed(from start: UInt64, to end: UInt64) -> UInt64 {
        end >= start ? end - start : 0
    }

    /// Nanoseconds as milliseconds with three decimals, `12.345`, rounded to the microsecond.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let microseconds = nanoseconds / 1_000 + (nanoseconds % 1_000 >= 500 ? 1 : 0)
        let fraction = String(microseconds % 1_000)
        return "\(microseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

extension DependencyStore {
    /// Runs `operation` with builds timed by `now` instead of the monotonic clock, in this task
    /// and the tasks it creates: for tests whose durations must not depend on the machine.
    package static func withTracingClock<R>(
        _ now: @escaping @Sendable () -> UInt64,
        operation: () throws -> R
    ) rethrows -> R {
        try Tracing.$clock.withValue(Tracing.Clock(now: now), operation: operation)
    }

    /// `withTracingClock(_:operation:)` for an asynchronous `operation`.
    package static func withTracingClock<R>(
        _ now: @escaping @Sendable () -> UInt64,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await Tracing.$clock.withValue(Tracing.Clock(now: now), operation: operation, isolation: isolation)
    }
}
