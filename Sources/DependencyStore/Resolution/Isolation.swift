// Where a factory may run: whether this is the main actor, and which registrations a synchronous
// resolve may build here. The policy of the resolve path; the text of its failure is in
// `Diagnostics/`.

import Dispatch
import Foundation

/// Whether the caller runs on the main actor, which is the main dispatch queue: on the main
/// thread, or on the main queue drained by another thread (on Linux, once `dispatch_main()` has
/// run, as a test runner does, the main queue and so every `@MainActor` function run on a worker
/// thread). When this says yes, `MainActor.assumeIsolated` does not trap.
///
/// The standard library has no non-trapping "am I on the main actor?" before Swift 6.2's
/// isolation checks (iOS 26); the queue-specific value answers it on every OS we support.
func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMark) != nil
}

/// A value set on the main queue only, so that `DispatchQueue.getSpecific` tells it apart.
private let mainQueueMark: DispatchSpecificKey<Void> = {
    let key = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: key, value: ())
    return key
}()

extension DependencyStore {
    /// Throws when `registration` cannot be built by a synchronous resolve here: a main-actor one
    /// off the main thread, an `async` one anywhere.
    func checkSynchronousResolve(of registration: AnyRegistration, requester: Requester) throws(ResolutionError) {
        guard registration.isolation == .none || registration.isolation == .mainActor && isOnMainActor() else {
            throw wrongIsolation(of: registration, requester: requester)
        }
    }
}
