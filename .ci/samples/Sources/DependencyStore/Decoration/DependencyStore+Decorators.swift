final class Child { weak var parent: Parent? }
final class Parent { var child: Child? }
protocol AnalyticsSink {}
struct SamplingSink: AnalyticsSink {
    let wrapping: AnalyticsSink
    let rate: Double
}
