import Services

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin  // the C library, as Glibc or Musl is on Linux
#endif

/// Standard output and standard error, written with `write(2)` so that every failure is seen:
/// `print` and `FileHandle` lose a failed write to stdout without a word, and crash on a failed
/// write to stderr.
///
/// Everything written is made terminal-safe line by line (see `terminalSafe`), whatever its
/// source, so no control character reaches the terminal.
enum Output {
    /// Called once at start-up: a write to a closed pipe then fails with `EPIPE` instead of
    /// killing the process before it can decide what to do.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `text` to stdout whole. When the reader has gone (a closed pipe, as after
    /// `| head -1`) the process ends quietly the way Unix tools do, by SIGPIPE; any other failure
    /// (a full disk, `/dev/full`) is an error, exit status 1.
    static func report(_ text: String) {
        guard let code = write(text, to: STDOUT_FILENO) else { return }
        if code == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        fail("error: cannot write to standard output: \(String(cString: strerror(code)))", status: 1)
    }

    /// Writes `access-token-cli: message` to stderr, and exits with `status`. A failed write to
    /// stderr has nowhere to be reported, so it changes nothing but the lost message.
    static func fail(_ message: String, status: Int32) -> Never {
        _ = write("access-token-cli: \(message)\n", to: STDERR_FILENO)
        exit(status)
    }

    /// Writes all of `text`, retrying after interruptions; the `errno` of a failure, else `nil`.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        let safe = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).terminalSafe(limit: .max) }
            .joined(separator: "\n")
        var bytes = Array(safe.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                // The same write(2) on every platform, named by the module that declares it.
                #if canImport(Darwin)
                Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #elseif canImport(Musl)
                Musl.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }
}
