extension Scope { static let session = Scope("session") }
