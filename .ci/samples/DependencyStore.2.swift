// The landing page's second block continues its first: the same app types.
import DependencyStore

protocol Greeting { var text: String { get } }
struct French: Greeting { let text = "Bonjour" }

final class Screen {
    @Injected var greeting: Greeting
}
