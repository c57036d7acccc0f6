// The app types Docs/Composition.md assumes.
import DependencyStore

protocol AnalyticsSink: AnyObject {
    func track(_ event: String)
}
final class ConsoleSink: AnalyticsSink {
    func track(_ event: String) {}
}
final class CrashSink: AnalyticsSink {
    func track(_ event: String) {}
}
final class RecordingSink: AnalyticsSink {
    func track(_ event: String) {}
}
final class RemoteSink: AnalyticsSink {
    init(networking: Networking) {}
    func track(_ event: String) {}
}
final class SamplingSink: AnalyticsSink {
    init(wrapping sink: AnalyticsSink, rate: Double) {}
    func track(_ event: String) {}
}

protocol Networking {}

protocol TokenProviding: AnyObject {}
protocol UserProviding: AnyObject {}
final class SessionStore: TokenProviding, UserProviding {}

final class Parent {
    var child: Child?
}
final class Child {
    weak var parent: Parent?
}

struct User: Sendable {}
struct SessionAssembly: Assembly {
    let user: User
    func assemble(into store: DependencyStore) {}
}

let store = DependencyStore()
let live = DependencyStore()
