// The app types Docs/Tracing.md's report block assumes: Tracing.swift without registerAll(),
// which that block declares itself.
import DependencyStore
import Dispatch
import Testing

/// Stands for real start-up work: busy for about `milliseconds`.
func work(milliseconds: Int) {
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
    while DispatchTime.now().uptimeNanoseconds < end {}
}

final class Database: Sendable {
    static func open() -> Database {
        work(milliseconds: 8)
        return Database()
    }
}

final class Catalog: Sendable {
    init(database: Database) { work(milliseconds: 4) }
}

final class AppModel {
    init(catalog: Catalog, database: Database) {}
}

func log(_ message: String) {}

protocol Networking {}
struct MockNetworking: Networking {}

final class PriceViewModel {
    @Injected private var networking: Networking
    var price: String { "\(networking)" }
}
