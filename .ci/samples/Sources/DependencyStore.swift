// What every `///` sample of DependencyStore assumes: the library and Foundation imported, and a
// store to register in. The preludes beside this one stub each source file's app types (see
// .ci/check-source-samples).
import DependencyStore
import Foundation

let store = DependencyStore()
