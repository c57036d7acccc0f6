// The README's tests continue its ten-line program: the same app types, and its wiring.
import DependencyStore
import Testing

protocol Greeting { var text: String { get } }
struct English: Greeting { let text = "Hello" }
struct French: Greeting { let text = "Bonjour" }

final class Screen {
    @Injected var greeting: Greeting
}

extension DependencyStore {
    func registerAll() {
        register(English(), for: Greeting.self)
    }
}
