import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live ``Networking``: HTTP over `URLSession`, with a deadline for the whole request and a cap
/// on the body enforced while it streams in.
///
/// URLSession's own limits are not enough for either, on Linux in particular: its request timeout
/// is truncated to whole seconds and restarts on every received chunk (a server that trickles a
/// byte every half second never times out), `timeoutIntervalForResource` is ignored, and a plain
/// data task buffers the whole body before anyone can look at its size. So each request runs with
/// a delegate that counts bytes as they arrive, and a timer of its own that cancels the request
/// when the deadline passes.
public struct URLSessionNetworking: Networking {
    public init() {}

    public func data(for endpoint: Endpoint) async throws(NetworkError) -> Data {
        let request = RequestDelegate(endpoint: endpoint)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                request.start(continuation)
            }
        } onCancel: {
            request.cancel()
        }
        return try result.get()
    }
}

/// One request: its session, the bytes received so far, and the one place it finishes.
private final class RequestDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let endpoint: Endpoint
    private let lock = NSLock()
    // Guarded by `lock`:
    private var body = Data()
    private var continuation: CheckedContinuation<Result<Data, NetworkError>, Never>?
    private var session: URLSession?
    private var task: URLSessionDataTask?
    private var finished = false

    init(endpoint: Endpoint) {
        self.endpoint = endpoint
    }

    func start(_ continuation: CheckedContinuation<Result<Data, NetworkError>, Never>) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: queue)
        var request = URLRequest(url: endpoint.url)
        // URLSession's timeout is per chunk and in whole seconds here; the deadline below is the
        // real one, so this only has to be longer than it.
        request.timeoutInterval = endpoint.timeout.rounded(.up) + 1
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

    /// Ends the request once: the first outcome wins, the session is torn down, and later
    /// callbacks find nothing to do.
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
        task?.cancel()
        session?.invalidateAndCancel()
        continuation?.resume(returning: result)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            finish(.failure(.httpStatus(http.statusCode, url: endpoint.url)))
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(endpoint.maxResponseBytes) {
            finish(.failure(.responseTooLarge(url: endpoint.url, limit: endpoint.maxResponseBytes)))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge: Bool = lock.withLock {
            // After the request finished, what still arrives is dropped, not kept.
            guard !finished else { return false }
            body.append(data)
            return body.count > endpoint.maxResponseBytes
        }
        if tooLarge {
            finish(.failure(.responseTooLarge(url: endpoint.url, limit: endpoint.maxResponseBytes)))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let error else {
            let body = lock.withLock { self.body }
            finish(.success(body))
            return
        }
        finish(.failure(Self.networkError(for: error, url: endpoint.url, timeout: endpoint.timeout)))
    }

    private static func networkError(for error: any Error, url: URL, timeout: TimeInterval) -> NetworkError {
        guard let urlError = error as? URLError else {
            return .transport(url: url, reason: error.localizedDescription)
        }
        switch urlError.code {
        case .timedOut:
            return .timedOut(url: url, after: timeout)
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .networkConnectionLost,
             .dnsLookupFailed:
            return .unreachable(url: url, reason: urlError.localizedDescription)
        default:
            return .transport(url: url, reason: urlError.localizedDescription)
        }
    }
}
