// The request's id, which each request's store registers, and a service built per request.
struct RequestID {
    let value: String
    init(_ value: String) { self.value = value }
}

final class OrderService {
    init(requestID: RequestID) {}
}
