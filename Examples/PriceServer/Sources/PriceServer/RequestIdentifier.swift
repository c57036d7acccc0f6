/// The id of the request being served: a request value, registered in the request's store by
/// ``RequestStoreMiddleware`` and read there by the handlers.
///
/// It is Hummingbird's request id (`context.id`), the one its log lines carry, so a response can be
/// matched with the log.
public struct RequestIdentifier: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
