// The app's logger.
struct AppLogger: Sendable { func error(_ message: String) {} }
let logger = AppLogger()
