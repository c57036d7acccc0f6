import Testing

// `#expect(throws:)` and `#require(throws:)` return the error only from Swift 6.1 on; with Swift
// 6.0, which Package.swift admits, they return nothing. A test that reads the error gets it from
// these instead, which use only what Swift Testing had in 6.0 (`Issue.record(_:sourceLocation:)`,
// `Issue.record(_:_:sourceLocation:)`, `#_sourceLocation`). DependencyStoreTests has the same
// (synchronous) helper in its Fixtures.swift.

/// Runs `body` and returns the error it throws, as an `E`. When it throws nothing, or an error that
/// is not an `E`, records an issue at the caller's line and returns nil: a test that reads the error
/// writes `let error = try #require(thrownError(PriceError.self) { ... })`, and fails there.
func thrownError<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
    do {
        _ = try body()
        return expected(E.self, from: nil, at: sourceLocation)
    } catch {
        return expected(E.self, from: error, at: sourceLocation)
    }
}

/// `thrownError(_:sourceLocation:_:)` for a body that awaits.
func thrownError<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R
) async -> E? {
    do {
        _ = try await body()
        return expected(E.self, from: nil, at: sourceLocation)
    } catch {
        return expected(E.self, from: error, at: sourceLocation)
    }
}

/// `error` as an `E`, what both forms return; records an issue when it is `nil` (nothing was
/// thrown) or of another type.
private func expected<E: Error>(_ type: E.Type, from error: (any Error)?, at sourceLocation: SourceLocation) -> E? {
    guard let error else {
        Issue.record("expected an error of type \(E.self), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }
    if let error = error as? E { return error }
    Issue.record(error, "expected an error of type \(E.self), got another", sourceLocation: sourceLocation)
    return nil
}
