// The block that shows two differences declares its own types; it runs, and its output is checked.
import DependencyStore
