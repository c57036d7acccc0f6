// The app types Docs/Tracing.md assumes: a start-up graph whose factories take a while (a
// database that opens in about 8 ms, a catalogue that loads in about 4), a logger, and the price
// screen its test block checks. Its registerAll() is the one the guide's report block declares.
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

extension DependencyStore {
    func registerAll() {
        register(Database.self, scope: .singleton) { _ in Database.open() }
        register(Catalog.self, scope: .singleton) { store in Catalog(database: store.resolve()) }
        register(AppModel.self) { store in AppModel(catalog: store.resolve(), database: store.resolve()) }
    }
}
