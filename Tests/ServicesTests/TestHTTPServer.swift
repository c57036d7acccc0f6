import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, over plain sockets, that answers each path the way a
/// test asks: normally, slowly, a byte at a time, with an error status, or with an endless body.
/// One thread per connection; every response closes its connection.
final class TestHTTPServer: @unchecked Sendable {
    indirect enum Reply: Sendable {
        /// A whole response, with or without a Content-Length header.
        case body(status: Int, Data, contentLength: Bool)
        /// Waits before answering.
        case delayed(seconds: TimeInterval, Reply)
        /// A 200 whose body is sent one byte every `interval` seconds.
        case trickle(Data, interval: TimeInterval)
        /// A 200 of `bytes` zeros in 64 KiB chunks, a chunk every 2 ms (about 32 MB/s, a fast real
        /// network), until done or the client goes away.
        case stream(bytes: Int, contentLength: Bool)

        static func json(_ text: String, status: Int = 200) -> Reply {
            .body(status: status, Data(text.utf8), contentLength: true)
        }
    }

    let port: UInt16
    private let listener: Int32
    private let route: @Sendable (String) -> Reply
    private let connections = DispatchGroup()
    private let lock = NSLock()
    private var sent: [String: Int] = [:]

    /// Starts listening on an ephemeral port; `route` picks the reply for a request's path
    /// (with its query).
    init(route: @escaping @Sendable (String) -> Reply) throws {
        self.route = route
        #if canImport(Darwin)
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0
                    && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)

        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String = "") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting, and waits (at most `seconds`) for open connections to finish.
    func stop(waitingUpTo seconds: TimeInterval = 5) {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        _ = connections.wait(timeout: .now() + seconds)
    }

    /// How many body bytes have been sent so far for requests whose path starts with `prefix`.
    func bodyBytesSent(toPathsStartingWith prefix: String) -> Int {
        lock.withLock { sent.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            connections.enter()
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                connections.leave()
            }
            thread.start()
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
            Thread.sleep(forTimeInterval: seconds)   // the server under test is slow on purpose
            reply = next
        }
        var bodyBytes = 0 {
            didSet { lock.withLock { sent[path, default: 0] += bodyBytes - oldValue } }
        }

        switch reply {
        case .body(let status, let body, let contentLength):
            guard send(connection, header(status: status, length: contentLength ? body.count : nil)) else { return }
            if send(connection, body) { bodyBytes += body.count }
        case .trickle(let body, let interval):
            guard send(connection, header(status: 200, length: body.count)) else { return }
            for byte in body {
                guard send(connection, Data([byte])) else { return }
                bodyBytes += 1
                Thread.sleep(forTimeInterval: interval)
            }
        case .stream(let total, let contentLength):
            guard send(connection, header(status: 200, length: contentLength ? total : nil)) else { return }
            let chunk = Data(count: 64 << 10)
            while bodyBytes < total {
                let piece = chunk.prefix(total - bodyBytes)
                guard send(connection, piece) else { return }
                bodyBytes += piece.count
                Thread.sleep(forTimeInterval: 0.002)
            }
        case .delayed:
            return
        }
    }

    private func header(status: Int, length: Int?) -> Data {
        var lines = ["HTTP/1.1 \(status) Test", "Content-Type: application/json", "Connection: close"]
        if let length { lines.append("Content-Length: \(length)") }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private func readRequestPath(_ connection: Int32) -> String? {
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.contains(Data("\r\n\r\n".utf8)) {
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
