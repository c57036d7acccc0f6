// The app types Docs/Diagnostics.md assumes.
import DependencyStore

protocol Analytics {
    func track(_ event: String)
}

let store = DependencyStore()
