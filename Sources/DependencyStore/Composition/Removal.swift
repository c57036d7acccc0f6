/// What `unregister` or `unload` removed: the missing-registration diagnostic of a later resolve
/// says so, since a resolve after logout is the usual way to meet it.
struct Removal {
    let registeredAt: SourceLocation
    let removedAt: SourceLocation
    /// `unregister(_:)`, or `unload(SessionAssembly.self)`.
    let how: String
}
