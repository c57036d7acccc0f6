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
    Thread.isMainThread || DispatchQueue.getSpecific(key: MainQueueMark.key) != nil
}

/// A value set on the main queue only, so that `DispatchQueue.getSpecific` tells it apart.
private enum MainQueueMark {
    static let key: DispatchSpecificKey<Void> = {
        let key = DispatchSpecificKey<Void>()
        DispatchQueue.main.setSpecific(key: key, value: ())
        return key
    }()
}
