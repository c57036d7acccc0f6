// The app's logger, and the session scope its logout resets.
struct AppLogger: Sendable { func error(_ message: String) {} }
let logger = AppLogger()

extension Scope { static let session = Scope("session") }
