// Child processes are not allowed on iOS, tvOS and watchOS.
#if os(macOS) || os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `wait4`, for what Foundation's
/// `Process` does not tell or do: the child's peak memory, a signal that ended it, and a stdout or
/// stderr that is a device or a pipe nobody reads.
enum ChildProcess {
    /// Where a child's stdout or stderr goes.
    enum Output: Sendable {
        /// A fresh file, read back when the child has ended.
        case captured
        /// An existing file or device, such as `/dev/full`.
        case path(String)
        /// A pipe whose reading end is already closed.
        case closedPipe
    }

    struct Result: Sendable {
        /// The exit status, or `nil` when a signal ended the child.
        let status: Int32?
        /// The signal that ended the child, if one did.
        let signal: Int32?
        let stdout: String
        let stderr: String
        /// The most memory the child ever had resident, in bytes.
        let peakMemory: Int
    }

    /// One spawn at a time: a pipe made for one child is not yet marked close-on-exec when it is
    /// made, and must not leak into another child started at that moment.
    private static let spawning = NSLock()

    /// Two children at a time, one a core: the CLI's tests start dozens at once, and all of them
    /// together would starve the rest of the suite of CPU.
    private static let running = DispatchSemaphore(value: 2)

    /// How long a child may run before it is killed and its test fails: the CLI's slowest run in
    /// the tests (a timeout of 2 s, under the thread sanitizer) ends well within it.
    static let childDeadline: Double = 60
    /// How long a child waits for its turn: two children ahead of it that each ran to the deadline.
    static let slotDeadline: Double = 2 * childDeadline + 10

    /// A child that did not start, or did not end, in time: a hang fails its test instead of the run.
    struct Timeout: Error, CustomStringConvertible {
        let what: String
        let seconds: Double
        var description: String { "\(what) did not happen within \(seconds) s" }
    }

    /// The executable `name` in the build directory that holds the test bundle: on Linux the
    /// test runner is the bundle itself; on macOS `xctest` loads it, so look at the loaded
    /// bundles too.
    static func binary(named name: String) throws -> String {
        let starts = [URL(fileURLWithPath: CommandLine.arguments[0])] + Bundle.allBundles.map(\.bundleURL)
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
                directory.deleteLastPathComponent()
            }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) near \(starts.map(\.path))"])
    }

    /// Runs `executable` with `arguments` in exactly `environment`, stdin from `/dev/null`, and
    /// awaits its end.
    ///
    /// The child is started and reaped on a thread of its own: a thread of the concurrency pool
    /// blocked in `wait4` for as long as a child runs holds up every other test's awaits (the
    /// pool has as many threads as cores and grows only slowly), and a suite that awaits closes
    /// or shutdowns with deadlines missed them.
    static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        stdout: Output,
        stderr: Output
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                guard running.wait(timeout: .now() + slotDeadline) == .success else {
                    continuation.resume(throwing: Timeout(what: "a turn to start \(executable)", seconds: slotDeadline))
                    return
                }
                defer { running.signal() }
                continuation.resume(
                    with: Swift.Result {
                        try runWaiting(executable, arguments, environment: environment, stdout: stdout, stderr: stderr)
                    })
            }.start()
        }
    }

    #if os(Linux)
    /// The peak resident memory, in bytes, of process `pid` once it runs `executable`; `nil`
    /// before (it still shares its parent's memory) or once it has ended.
    private static func residentPeak(of pid: pid_t, running executable: String) -> Int? {
        let image = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        guard image == URL(fileURLWithPath: executable).resolvingSymlinksInPath().path,
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
    #endif

    private static func runWaiting(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        stdout: Output,
        stderr: Output
    ) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let captured = (
            stdout: directory.appendingPathComponent("stdout").path,
            stderr: directory.appendingPathComponent("stderr").path
        )

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        posix_spawnattr_init(&attributes)
        // Only the descriptors set up below reach the child.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        defer { posix_spawnattr_destroy(&attributes) }
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var parentEnds: [Int32] = []
        defer { for end in parentEnds { _ = close(end) } }
        func direct(_ output: Output, to descriptor: Int32, capturedAt path: String) throws {
            switch output {
            case .captured:
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .path(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY, 0)
            case .closedPipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
                _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
                close(ends[0])
                parentEnds.append(ends[1])
                posix_spawn_file_actions_adddup2(&actions, ends[1], descriptor)
            }
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned: Int32 = try spawning.withLock {
            try direct(stdout, to: 1, capturedAt: captured.stdout)
            try direct(stderr, to: 2, capturedAt: captured.stderr)
            let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            for end in parentEnds { _ = close(end) }
            parentEnds = []
            return spawned
        }
        guard spawned == 0 else { throw POSIXError(.init(rawValue: spawned) ?? .EIO) }

        var status: Int32 = 0
        var usage = rusage()
        // Reaped without blocking, every 2 ms, so that a child that never ends is killed at its
        // deadline. On macOS, ru_maxrss is the child's own peak. Linux's counts the peak of this
        // process too (the child shares this process's memory until it executes, and the kernel
        // keeps the larger peak across that), so there the child's own peak (VmHWM, kept by the
        // kernel) is read while it runs, once it runs the executable; a peak reached after the
        // last look is missed.
        #if os(Linux)
        var sampledPeak = 0
        #endif
        let deadline = Date().addingTimeInterval(childDeadline)
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            guard reaped == 0 || errno == EINTR else { throw POSIXError(.init(rawValue: errno) ?? .ECHILD) }
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                throw Timeout(
                    what: "the end of \(executable) \(arguments.joined(separator: " "))", seconds: childDeadline)
            }
            #if os(Linux)
            sampledPeak = max(sampledPeak, residentPeak(of: pid, running: executable) ?? 0)
            #endif
            usleep(2_000)
        }
        #if os(Linux)
        let peakMemory = sampledPeak
        #else
        let peakMemory = Int(usage.ru_maxrss)  // bytes
        #endif
        let signal = status & 0x7F
        func read(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
        return Result(
            status: signal == 0 ? (status >> 8) & 0xFF : nil,
            signal: signal == 0 ? nil : signal,
            stdout: read(captured.stdout),
            stderr: read(captured.stderr),
            peakMemory: peakMemory
        )
    }
}
#endif
