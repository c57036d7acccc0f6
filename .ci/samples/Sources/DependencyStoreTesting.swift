// DependencyStoreTesting's samples test the Services module (the repository's example app), as
// Docs/Testing.md does; the mocks are the reader's own.
import DependencyStore
import DependencyStoreTesting
import Foundation
import Services
import Testing
import XCTest
