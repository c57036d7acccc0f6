import Foundation
import Testing

@testable import DependencyStore

/// The window no stress test hits reliably: a resolve looked its registration up, then an unload
/// removed it, and only then does the resolve begin its chain. Built from the inside, with the
/// lookup and the build as two calls.
@Suite struct LogoutRaceLookupTests {
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aRegistrationLookedUpBeforeAnUnloadAndBuiltAfterItIsLookedUpAgain() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            store.apply(RaceSessionAssembly(user: "ada", pause: {}))
            guard
                case .unkept(let registration, let epoch)? = store.lookUp(
                    ObjectIdentifier(RaceFeed.self), name: nil, takingKeptInstance: true)
            else { exit(4) }
            store.unload(RaceSessionAssembly.self)
            // Built as looked up, the feed's factory would find its profile gone, and trap. The
            // resolve looks the feed up again instead, after the unload, and finds nothing.
            do throws(ResolutionError) {
                _ = try store.resolve(
                    DependencyStore.Found(registration: registration, slot: nil, kept: nil), lookedUpIn: epoch,
                    as: RaceFeed.self, arguments: .none, requester: .call(SourceLocation(fileID: #fileID, line: #line)),
                    stage: PlainBuild.self)
                exit(5)
            } catch {
                guard error.kind == .notRegistered, error.description.contains("unload(RaceSessionAssembly.self)")
                else { exit(6) }
            }
        }
    }
    #endif
}
