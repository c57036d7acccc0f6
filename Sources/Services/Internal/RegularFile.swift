import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin  // the C library, as Glibc or Musl is on Linux
#endif

/// A regular file read whole, judged by what it is rather than by its name: a symbolic link is
/// followed, and only a regular file is opened for reading.
///
/// Foundation's readers are not enough here: `Data(contentsOf:)` on a FIFO waits for a writer,
/// on `/dev/zero` reads until memory runs out, and reports a directory as "NSCocoaErrorDomain
/// error 256"; `attributesOfItem` reports a symbolic link's own permissions, not its target's.
struct RegularFile {
    /// The path as given.
    let path: String
    /// Where `path` leads when it is a symbolic link (resolved through every link), else `nil`.
    let linkTarget: String?
    /// The permission bits of the file itself, `0o600`.
    let permissions: Int
    let contents: Data

    /// Why a path could not be read as a regular file. Each description completes "cannot read
    /// PATH: ...".
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notFound
        /// A symbolic link whose target does not exist.
        case danglingLink(target: String)
        /// A directory, FIFO, device or socket: "a directory".
        case notARegularFile(kind: String, linkTarget: String?)
        case permissionDenied
        /// Larger than the caller allows; nothing past the limit was read.
        case tooLarge(limit: Int)
        /// Any other system error, in the system's words.
        case system(String)

        var description: String {
            switch self {
            case .notFound:
                "no such file"
            case .danglingLink(let target):
                "it is a symbolic link to \(target.terminalSafe()), which does not exist"
            case .notARegularFile(let kind, let linkTarget?):
                "it is a symbolic link to \(linkTarget.terminalSafe()), which is \(kind), not a file"
            case .notARegularFile(let kind, nil):
                "it is \(kind), not a file"
            case .permissionDenied:
                "permission denied (this user may not read it)"
            case .tooLarge(let limit):
                "it is larger than \(limit) bytes"
            case .system(let reason):
                reason
            }
        }
    }

    /// Reads the file at `path`, which must be a regular file (or a link to one) of at most
    /// `limit` bytes.
    ///
    /// The type is checked before the file is opened, so a FIFO or a device is never opened,
    /// and checked again on the open descriptor, so a file swapped in between is caught too.
    init(path: String, limit: Int) throws(Failure) {
        var linkStatus = stat()
        guard lstat(path, &linkStatus) == 0 else { throw Self.failure(errno) }
        var linkTarget: String?
        if FileKind(linkStatus.st_mode) == .symbolicLink {
            guard let resolved = Self.realPath(path) else {
                throw .danglingLink(target: Self.immediateTarget(path) ?? "a path that does not exist")
            }
            linkTarget = resolved
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw Self.failure(errno) }
        if let kind = FileKind(status.st_mode).nonRegular {
            throw .notARegularFile(kind: kind, linkTarget: linkTarget)
        }

        // O_NONBLOCK: should a FIFO be swapped in after the check above, opening it does not wait
        // for a writer. O_NOCTTY: a terminal swapped in does not become this process's.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure(errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw Self.failure(errno) }
        if let kind = FileKind(status.st_mode).nonRegular {
            throw .notARegularFile(kind: kind, linkTarget: linkTarget)
        }
        guard Int(status.st_size) <= limit else { throw .tooLarge(limit: limit) }

        // Read one byte past the limit, so a file that grew since fstat is refused, not cut.
        var contents = Data(count: limit + 1)
        var filled = 0
        while filled < contents.count {
            let count = contents.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Self.failure(errno)
            }
            filled += count
        }
        guard filled <= limit else { throw .tooLarge(limit: limit) }
        contents.count = filled
        self.path = path
        self.linkTarget = linkTarget
        permissions = Int(status.st_mode) & 0o777
        self.contents = contents
    }

    private static func failure(_ code: Int32) -> Failure {
        switch code {
        case ENOENT, ENOTDIR: .notFound
        case EACCES, EPERM: .permissionDenied
        case ELOOP: .system("it is a loop of symbolic links")
        default: .system(String(cString: strerror(code)))
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func immediateTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The type bits of a `st_mode`; the values are POSIX's, the same on Linux and Darwin.
private enum FileKind: Equatable {
    case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

    init<Mode: BinaryInteger>(_ mode: Mode) {
        switch Int(mode) & 0o170000 {
        case 0o100000: self = .regular
        case 0o040000: self = .directory
        case 0o120000: self = .symbolicLink
        case 0o010000: self = .fifo
        case 0o020000: self = .characterDevice
        case 0o060000: self = .blockDevice
        case 0o140000: self = .socket
        default: self = .other
        }
    }

    /// "a directory", for anything but a regular file.
    var nonRegular: String? {
        switch self {
        case .regular: nil
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "a special file"
        }
    }
}
