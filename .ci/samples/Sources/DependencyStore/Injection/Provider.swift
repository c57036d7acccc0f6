final class Session {}
protocol Greeting { var text: String { get } }
struct FixedGreeting: Greeting {
    let text: String
    init(_ text: String) { self.text = text }
}
