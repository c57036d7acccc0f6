// The `///` samples of Services are the example app's own code: its module, nothing stubbed.
import DependencyStore
import Foundation
import Services
