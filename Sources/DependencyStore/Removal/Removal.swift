/// What `unregister` or `unload` removed: the missing-registration diagnostic of a later resolve
/// says so, since a resolve after logout is the usual way to meet it.
struct Removal {
    let registeredAt: SourceLocation
    let removedAt: SourceLocation
    /// `unregister(_:)`, or `unload(SessionAssembly.self)`.
    let how: String
    /// The removal epoch of the removal (`Tombstones.bury`), set as soon as it is taken: what a store
    /// layered over this one compares with the epoch of its last check of the sharing rule, to
    /// learn that a type it registers was registered here, and removed, since (see
    /// `StoreCore.checkShadowing`).
    var epoch = 0
}
