protocol AnalyticsSink { func track(_ event: String) }
protocol Networking {}
struct ConsoleSink: AnalyticsSink { func track(_ event: String) {} }
struct FileSink: AnalyticsSink { func track(_ event: String) {} }
struct RemoteSink: AnalyticsSink {
    let networking: Networking
    func track(_ event: String) {}
}
