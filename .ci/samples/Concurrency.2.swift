// "Async factories" declares Database and elides its body; the rest is the reader's app.
import DependencyStore
import Foundation

struct Configuration {
    var databaseURL: URL
}

// The guide elides Database's body; what the sample calls on it:
extension Database {
    static func open(at url: URL) async throws -> Database { Database() }
}

let store = DependencyStore()
