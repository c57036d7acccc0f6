#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last words of a generated sequence that trapped.
///
/// The model refuses every operation that traps by design, so the store should never trap while
/// a generated sequence runs. If it does, that is a discrepancy too, but the process dies before
/// the test can report the seed. So while a seeded sequence runs, this keeps a line naming the
/// seed and the operation, and a handler for the trap signals writes it to stderr, then puts back
/// the handler that was there (Swift's backtracer) and returns: the trapping instruction runs
/// again and the trap is reported as usual, with this line before it.
///
/// Only the seeded test writes the note, from its one thread; the handler only reads it when the
/// process is dying.
enum ModelTrapNote {
    private static let capacity = 4096
    nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var length = 0
    #if canImport(Glibc) || canImport(Darwin)
    nonisolated(unsafe) private static var previousIllegal = sigaction()
    nonisolated(unsafe) private static var previousTrap = sigaction()
    #endif

    /// Installs the handlers, once.
    private static let installed: Void = {
        #if canImport(Glibc) || canImport(Darwin)
        let handler: @convention(c) (Int32) -> Void = { signal in
            if ModelTrapNote.length > 0 {
                _ = write(2, ModelTrapNote.buffer, ModelTrapNote.length)
            }
            var previous = signal == SIGILL ? ModelTrapNote.previousIllegal : ModelTrapNote.previousTrap
            sigaction(signal, &previous, nil)
        }
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(SIGILL, &action, &previousIllegal)
        sigaction(SIGTRAP, &action, &previousTrap)
        #endif
    }()

    /// What to write if the process traps from now on; `nil` for nothing.
    static func set(_ note: String?) {
        _ = installed
        length = 0
        guard let note else { return }
        let bytes = Array("\n\(note)\n".utf8.prefix(capacity))
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: bytes.count) }
        length = bytes.count
    }
}
