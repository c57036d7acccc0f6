import DependencyStore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live ``Networking``: HTTP over `URLSession`, with a deadline for the whole request, a cap
/// on the body enforced while it streams in, and redirects followed only to http and https.
///
/// URLSession's own limits are not enough for any of these, on Linux in particular:
///
/// - its request timeout is truncated to whole seconds and restarts on every received chunk (a
///   server that trickles a byte every half second never times out), and
///   `timeoutIntervalForResource` is ignored. So each request has a timer of its own that ends it
///   when the deadline passes.
/// - a plain data task buffers the whole body before anyone can look at its size, and on Linux
///   even a delegate's queue fills with every piece received, because libcurl cannot be paused.
///   So a delegate counts bytes as they arrive, and its queue is a ``BoundedOperationQueue`` that
///   holds the reading thread back while the delegate catches up: memory stays bounded for any
///   body, compressed (a gzip bomb) or chunked.
/// - on Linux a redirect to `file:///x` is silently turned into `http://same-host/x`. So the
///   delegate judges each redirect by its `Location` header and refuses other schemes.
///
/// It is ``AsyncClosable``: the store that keeps it closes it when it lets go of it (a shutdown,
/// a `reset(.singleton)`, the store's end). Closing refuses new requests and awaits the ones under
/// way, as `URLSession.finishTasksAndInvalidate()` does; if the close is cancelled (a shutdown's
/// deadline passed), it cancels them, as `invalidateAndCancel()` does. Copies share what they have
/// under way, so closing one closes them all.
public struct URLSessionNetworking: Networking, AsyncClosable {
    private let requests = InFlightRequests()

    public init() {}

    public func data(for endpoint: Endpoint) async throws(NetworkError) -> Data {
        let request = RequestDelegate(endpoint: endpoint)
        guard requests.add(request) else {
            throw .transport(
                url: endpoint.url,
                reason: "the networking was closed: the store that owned it let go of it (a shutdown, a reset or its "
                    + "end); resolve Networking again for one that is open")
        }
        defer { requests.remove(request) }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                request.start(continuation)
            }
        } onCancel: {
            request.cancel()
        }
        return try result.get()
    }

    /// Refuses new requests, and returns once the requests under way have finished; cancelled,
    /// it cancels them, and returns as soon as they have ended.
    public func close() async {
        await withTaskCancellationHandler {
            await requests.closeAndWait()
        } onCancel: {
            requests.cancelAll()
        }
    }
}

/// The requests of one `URLSessionNetworking` (and its copies) under way, and whether it is closed.
private final class InFlightRequests: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`:
    private var requests: [ObjectIdentifier: RequestDelegate] = [:]
    private var closed = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Adds `request`, unless the networking is closed.
    func add(_ request: RequestDelegate) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            requests[ObjectIdentifier(request)] = request
            return true
        }
    }

    func remove(_ request: RequestDelegate) {
        let done: [CheckedContinuation<Void, Never>] = lock.withLock {
            requests[ObjectIdentifier(request)] = nil
            guard requests.isEmpty else { return [] }
            defer { waiters = [] }
            return waiters
        }
        for waiter in done { waiter.resume() }
    }

    /// Closes, and returns once no request is under way.
    func closeAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle: Bool = lock.withLock {
                closed = true
                guard !requests.isEmpty else { return true }
                waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Closes, and cancels every request under way: each ends at once, as cancelled.
    func cancelAll() {
        let underWay: [RequestDelegate] = lock.withLock {
            closed = true
            return Array(requests.values)
        }
        for request in underWay { request.cancel() }
    }
}

/// One request: its session, the bytes received so far, where it has been redirected, and the
/// one place it finishes.
private final class RequestDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// How many delegate calls may wait in the queue: with libcurl's 16 KiB pieces, 64 KiB.
    private static let queuedPieces = 4

    private let endpoint: Endpoint
    private let lock = NSLock()
    // Guarded by `lock`:
    private var body = Data()
    private var currentURL: URL
    private var continuation: CheckedContinuation<Result<Data, NetworkError>, Never>?
    private var session: URLSession?
    private var task: URLSessionDataTask?
    private var finished = false

    init(endpoint: Endpoint) {
        self.endpoint = endpoint
        currentURL = endpoint.url
    }

    func start(_ continuation: CheckedContinuation<Result<Data, NetworkError>, Never>) {
        let queue = BoundedOperationQueue(limit: Self.queuedPieces)
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: queue)
        var request = URLRequest(url: endpoint.url)
        // URLSession's timeout is per chunk and in whole seconds here; the deadline below is the
        // real one, so this only has to be longer than it.
        request.timeoutInterval = endpoint.timeout.rounded(.up) + 1
        // Ask for the body as it is: a server that compresses anyway is still held to the cap,
        // counted after decompression.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let startNow: Bool = lock.withLock {
            guard !finished else { return false }
            self.continuation = continuation
            self.session = session
            return true
        }
        guard startNow else {
            continuation.resume(returning: .failure(.transport(url: endpoint.url, reason: "cancelled")))
            session.invalidateAndCancel()
            return
        }
        let task = session.dataTask(with: request)
        lock.withLock { self.task = task }
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + endpoint.timeout) { [weak self] in
            guard let self else { return }
            finish(.failure(.timedOut(url: endpoint.url, after: endpoint.timeout)))
        }
    }

    func cancel() {
        finish(.failure(.transport(url: endpoint.url, reason: "cancelled")))
    }

    /// Ends the request once: the first outcome wins and is handed back at once; later callbacks
    /// find nothing to do.
    private func finish(_ result: Result<Data, NetworkError>) {
        let ending: (CheckedContinuation<Result<Data, NetworkError>, Never>?, URLSession?, URLSessionDataTask?)? =
            lock.withLock {
                guard !finished else { return nil }
                finished = true
                defer {
                    continuation = nil
                    session = nil
                    task = nil
                    body = Data()
                }
                return (continuation, session, task)
            }
        guard let (continuation, session, task) = ending else { return }
        continuation?.resume(returning: result)
        // Cancelling waits for URLSession's work queue, which may be waiting for room in the
        // delegate queue this may run on: so it happens elsewhere, on a serial queue of its own
        // (which Dispatch gives a thread of its own, never one of the shared pool's few).
        DispatchQueue(label: "URLSessionNetworking.teardown").async {
            task?.cancel()
            session?.invalidateAndCancel()
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let url = lock.withLock { currentURL }
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            finish(.failure(.httpStatus(http.statusCode, url: url)))
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(endpoint.maxResponseBytes) {
            finish(.failure(.responseTooLarge(url: url, limit: endpoint.maxResponseBytes)))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge: URL? = lock.withLock {
            // After the request finished, what still arrives is dropped, not kept.
            guard !finished else { return nil }
            body.append(data)
            return body.count > endpoint.maxResponseBytes ? currentURL : nil
        }
        if let url = tooLarge {
            finish(.failure(.responseTooLarge(url: url, limit: endpoint.maxResponseBytes)))
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let from = lock.withLock { currentURL }
        // Judged by the Location header as sent, not by the request URLSession made of it.
        let location = response.value(forHTTPHeaderField: "Location")
        let target = location.flatMap { URL(string: $0, relativeTo: from)?.absoluteURL } ?? request.url
        let scheme = target?.scheme?.lowercased()
        // A refusal answers URLSession first and finishes after: `finish` cancels the task on
        // another thread, and corelibs Foundation traps ("Received callback for HTTP redirection,
        // but we're not waiting for it") when the answer arrives after that cancel. The delegate
        // queue is serial, so no completion can be delivered between the two calls.
        guard let target, scheme == "http" || scheme == "https" else {
            completionHandler(nil)
            finish(.failure(.redirectRefused(from: from, to: location ?? "nowhere", reason: .notHTTP)))
            return
        }
        if from.scheme?.lowercased() == "https" && scheme == "http" {
            completionHandler(nil)
            finish(.failure(.redirectRefused(from: from, to: target.absoluteString, reason: .insecure)))
            return
        }
        lock.withLock { currentURL = target }
        var redirected = request
        redirected.url = target
        completionHandler(redirected)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (body, url) = lock.withLock { (self.body, currentURL) }
        guard let error else {
            finish(.success(body))
            return
        }
        finish(.failure(networkError(for: error, url: url)))
    }

    private func networkError(for error: any Error, url: URL) -> NetworkError {
        guard let urlError = error as? URLError else {
            return .transport(url: url, reason: error.localizedDescription.terminalSafe())
        }
        let redirectedFrom = url == endpoint.url ? nil : endpoint.url
        switch urlError.code {
        case .timedOut:
            return .timedOut(url: endpoint.url, after: endpoint.timeout)
        case .cannotConnectToHost:
            return .unreachable(
                url: url, reason: "nothing answered there (connection refused)", redirectedFrom: redirectedFrom)
        case .cannotFindHost, .dnsLookupFailed:
            return .unreachable(url: url, reason: "the host name could not be resolved", redirectedFrom: redirectedFrom)
        case .notConnectedToInternet:
            return .unreachable(
                url: url, reason: "this machine has no network connection", redirectedFrom: redirectedFrom)
        case .networkConnectionLost:
            return .unreachable(url: url, reason: "the connection was lost", redirectedFrom: redirectedFrom)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return .transport(url: url, reason: "the secure (TLS) connection could not be made")
        case .badServerResponse:
            return .transport(url: url, reason: "the server's answer is not valid HTTP")
        case .httpTooManyRedirects:
            return .transport(url: url, reason: "it redirected more than 20 times")
        default:
            // libcurl's own words, when there are any, say more than the code does.
            let underlying = (urlError as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let detail = underlying.map { ": " + $0.localizedDescription.terminalSafe() } ?? ""
            return .transport(url: url, reason: "URL error \(urlError.code.rawValue)\(detail)")
        }
    }
}
