import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, over plain sockets, that answers each path the way a
/// test asks: normally, slowly, a byte at a time, with an error status, with an endless body,
/// with a gzip bomb, with a long chunked body, or with a redirect. One thread per connection;
/// every response closes its connection.
final class TestHTTPServer: @unchecked Sendable {
    indirect enum Reply: Sendable {
        /// A whole response, with or without a Content-Length header.
        case body(status: Int, Data, contentLength: Bool)
        /// Waits before answering.
        case delayed(seconds: TimeInterval, Reply)
        /// A 200 whose body is sent one byte every `interval` seconds.
        case trickle(Data, interval: TimeInterval)
        /// A 200 whose body is `bytes` zeros (announced with a Content-Length when
        /// `contentLength`), of which it sends the first `sending` in 64 KiB chunks, then nothing
        /// more: it holds the connection open until the client goes away or the server stops. A
        /// client that wants the whole body before it looks at its size waits for ever.
        case stalledStream(bytes: Int, sending: Int, contentLength: Bool)
        /// A 200 with `Content-Encoding: gzip` and no length, whose small body inflates to
        /// `inflatedBytes` zeros, sent as fast as the client takes it.
        case gzipBomb(inflatedBytes: Int)
        /// A 200 with `Transfer-Encoding: chunked`: `bytes` zeros in 64 KiB chunks, as fast as the
        /// client takes them.
        case chunked(bytes: Int)
        /// A 302 to `location`, sent as it is.
        case redirect(to: String)

        static func json(_ text: String, status: Int = 200) -> Reply {
            .body(status: status, Data(text.utf8), contentLength: true)
        }
    }

    let port: UInt16
    private let listener: Int32
    private let route: @Sendable (String) -> Reply
    private let connections = DispatchGroup()
    private let acceptLoopEnded = DispatchSemaphore(value: 0)
    /// Signalled by `stop()`, under which a delayed reply sleeps.
    private let stopping = NSCondition()
    private let lock = NSLock()
    // Guarded by `lock`:
    private var stopped = false

    /// Starts listening on an ephemeral port; `route` picks the reply for a request's path
    /// (with its query).
    init(route: @escaping @Sendable (String) -> Reply) throws {
        self.route = route
        (listener, port) = try Self.boundSocket(listening: true)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A socket bound to an ephemeral port of 127.0.0.1, listening or not, marked close-on-exec
    /// (the CLI tests start children while servers run, and none may hold a socket open).
    fileprivate static func boundSocket(listening: Bool) throws -> (Int32, UInt16) {
        #if canImport(Darwin)
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #else
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0
                    && (!listening || listen(socket, 16) == 0)
                    && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String = "") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting, wakes the connections that sleep on purpose (`.delayed`), and waits (at
    /// most `seconds`, a deadline that only turns a hang into a failure) for open connections to
    /// finish. The wait is short, so a test's `defer` does not hold a thread of the concurrency
    /// pool for the seconds a delayed reply would still sleep.
    ///
    /// The listening socket is closed only once the accept loop has ended: closed earlier, its
    /// number could go to another test's new server while the loop is about to accept on it, and
    /// this server would answer that one's requests.
    func stop(waitingUpTo seconds: TimeInterval = 20) {
        stopping.lock()
        lock.withLock { stopped = true }
        stopping.broadcast()
        stopping.unlock()
        // Wakes a blocked accept on Linux; the connection below wakes it where shutdown does not.
        shutdown(listener, Int32(SHUT_RDWR))
        if let (waker, _) = try? Self.boundSocket(listening: false) {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(waker, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(waker)
        }
        if acceptLoopEnded.wait(timeout: .now() + seconds) == .timedOut {
            Issue.record("the test server's accept loop did not end within \(seconds) s")
        }
        close(listener)
        _ = connections.wait(timeout: .now() + seconds)
    }

    private func acceptLoop() {
        defer { acceptLoopEnded.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            if lock.withLock({ stopped }) {
                if connection >= 0 { close(connection) }
                return
            }
            guard connection >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            connections.enter()
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                connections.leave()
            }
            thread.start()
        }
    }

    /// Sleeps `seconds`, or less if the server is stopped meanwhile: `false` then.
    private func sleepUnlessStopped(for seconds: TimeInterval) -> Bool {
        let until = Date().addingTimeInterval(seconds)
        stopping.lock()
        defer { stopping.unlock() }
        while !lock.withLock({ stopped }) {
            guard stopping.wait(until: until) else { return true }
        }
        return false
    }

    /// Returns once the client has closed `connection` (or reset it), or the server stops:
    /// looks every 100 ms, so that a client that never leaves holds the thread only until then.
    private func waitForTheClientToLeave(_ connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !lock.withLock({ stopped }) {
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready > 0 {
                // The request was read whole: what is readable now is the end of the stream.
                if recv(connection, &buffer, buffer.count, 0) <= 0 { return }
            } else if ready < 0, errno != EINTR {
                return
            }
        }
    }

    private func serve(_ connection: Int32) {
        #if canImport(Darwin)
        var noSigPipe: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard let path = readRequestPath(connection) else { return }
        var reply = route(path)
        while case .delayed(let seconds, let next) = reply {
            // The server under test is slow on purpose, until the test stops it.
            guard sleepUnlessStopped(for: seconds) else { return }
            reply = next
        }
        var bodyBytes = 0

        switch reply {
        case .body(let status, let body, let contentLength):
            guard send(connection, header(status: status, length: contentLength ? body.count : nil)) else { return }
            if send(connection, body) { bodyBytes += body.count }
        case .gzipBomb(let inflatedBytes):
            let body = Self.gzipBomb(inflatingTo: inflatedBytes)
            guard send(connection, header(status: 200, length: nil, extra: ["Content-Encoding: gzip"])) else { return }
            if send(connection, body) { bodyBytes += body.count }
        case .chunked(let total):
            guard send(connection, header(status: 200, length: nil, extra: ["Transfer-Encoding: chunked"])) else {
                return
            }
            let chunk = Data("10000\r\n".utf8) + Data(count: 64 << 10) + Data("\r\n".utf8)
            while bodyBytes < total {
                guard send(connection, chunk) else { return }
                bodyBytes += 64 << 10
            }
            _ = send(connection, Data("0\r\n\r\n".utf8))
        case .redirect(let location):
            _ = send(connection, header(status: 302, length: 0, extra: ["Location: \(location)"]))
        case .trickle(let body, let interval):
            guard send(connection, header(status: 200, length: body.count)) else { return }
            for byte in body {
                guard send(connection, Data([byte])) else { return }
                bodyBytes += 1
                Thread.sleep(forTimeInterval: interval)
            }
        case .stalledStream(let total, let sending, let contentLength):
            guard send(connection, header(status: 200, length: contentLength ? total : nil)) else { return }
            let chunk = Data(count: 64 << 10)
            while bodyBytes < min(sending, total) {
                let piece = chunk.prefix(min(sending, total) - bodyBytes)
                guard send(connection, piece) else { return }
                bodyBytes += piece.count
            }
            waitForTheClientToLeave(connection)
        case .delayed:
            return
        }
    }

    private func header(status: Int, length: Int?, extra: [String] = []) -> Data {
        var lines = ["HTTP/1.1 \(status) Test", "Content-Type: application/json", "Connection: close"] + extra
        if let length { lines.append("Content-Length: \(length)") }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// A gzip stream of one deflate block with fixed Huffman codes: a literal zero, then "258
    /// bytes more of the same" (13 bits) over and over, about 160 to 1. The block is never
    /// closed and the gzip trailer never sent: a client that read it all would find it cut short,
    /// but a client under test must refuse it long before.
    static func gzipBomb(inflatingTo bytes: Int) -> Data {
        var output: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // gzip header: deflate, no name
        var bits: UInt64 = 0
        var count = 0
        // Deflate packs bits from the least significant; Huffman codes go in most significant
        // bit first, so they are written here reversed.
        func put(_ value: UInt64, _ length: Int) {
            bits |= value << count
            count += length
            while count >= 8 {
                output.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                count -= 8
            }
        }
        put(0, 1)  // BFINAL: not the last block
        put(1, 2)  // BTYPE 01: fixed Huffman codes
        put(0b0000_1100, 8)  // literal 0 (code 00110000)
        for _ in 0..<(bytes / 258) {
            put(0b1010_0011, 8)  // length 258 (code 11000101)
            put(0, 5)  // distance 1 (code 00000)
        }
        if count > 0 { output.append(UInt8(truncatingIfNeeded: bits)) }
        return Data(output)
    }

    private func readRequestPath(_ connection: Int32) -> String? {
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        // `range(of:)`, not `contains(_:)`, which needs macOS 13 or iOS 16.
        while request.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            request.append(contentsOf: buffer[0..<count])
            if request.count > 65_536 { return nil }
        }
        let firstLine = String(decoding: request, as: UTF8.self).prefix { $0 != "\r" }
        let parts = firstLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    private func send(_ connection: Int32, _ data: Data) -> Bool {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        return data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.send(connection, raw.baseAddress! + offset, raw.count - offset, flags)
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}

/// A port of 127.0.0.1 that is bound but not listening, so a connection to it is refused, and no
/// other test's server can take it while this is open.
final class ClosedPort: @unchecked Sendable {
    let port: UInt16
    private let socket: Int32

    init() throws {
        (socket, port) = try TestHTTPServer.boundSocket(listening: false)
    }

    deinit {
        close(socket)
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String = "") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }
}
