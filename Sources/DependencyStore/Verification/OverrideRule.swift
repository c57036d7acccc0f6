/// What ``DependencyStore/verify(sampleArguments:entryPoints:timeout:captives:overrides:)`` makes of a
/// registration that replaced another of the same store.
///
/// ```swift
/// let report = store.verify()                         // .listed, the default
/// let strict = store.verify(overrides: .forbidden)    // every replacement is a problem
/// ```
///
/// A store layered over another (`DependencyStore(parent:)`) overriding its parent is not a
/// replacement: that is what layering is for, and neither rule reports it.
public struct OverrideRule: Hashable, Sendable {
    private let isForbidden: Bool

    /// Each replacement is listed in ``VerificationReport/overrides`` (and in the report's text)
    /// with both places, but is not a problem: the default, since applying a later assembly to
    /// override an earlier one is a pattern apps use on purpose.
    public static let listed = OverrideRule(isForbidden: false)

    /// Each replacement is also a problem of kind ``VerificationProblem/Kind/override``: for an
    /// app whose assemblies must each register distinct things.
    public static let forbidden = OverrideRule(isForbidden: true)
}
