// "Saying how an instance is closed" registers a URL session and a file handle in the reader's
// store. URLSession is in FoundationNetworking on Linux; the check copies the import line alone
// into the block's file, and runs on Linux.
import DependencyStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let store = DependencyStore()

extension Scope {
    static let session = Scope("session")
}
