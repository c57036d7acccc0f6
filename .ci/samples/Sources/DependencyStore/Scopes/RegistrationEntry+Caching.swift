// The app's access token, and the documents whose models are cached per document, in the
// session scope.
final class AccessToken: Sendable {
    static func fetch() -> AccessToken { AccessToken() }
}

struct DocumentID: Hashable, Sendable {
    init(_ value: String) {}
}

protocol DocumentStorage {}

final class DocumentModel {
    init(id: DocumentID, storage: DocumentStorage) {}
}

extension Scope { static let session = Scope("session") }
