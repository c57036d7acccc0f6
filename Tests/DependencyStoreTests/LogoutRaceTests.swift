import DependencyStore
import Foundation
import Testing

// A logout (`unload`) that races work already resolving session types: a resolve chain that
// began before the unload finishes as if the unload came after it; one that begins after fails
// as a missing registration does, naming the unload. Whatever might trap runs in a child process.

/// The session's token: kept by the store, closed when the session ends.
final class RaceToken: Closable, @unchecked Sendable {
    let user: String
    let closes = Counter()
    init(user: String) { self.user = user }
    func close() { closes.increment() }
}

/// Built from the token, after some work.
final class RaceProfile: Sendable {
    let token: RaceToken
    init(token: RaceToken) { self.token = token }
}

/// Built from the profile and the token, after some work: a chain of three session types.
final class RaceFeed: Sendable {
    let profile: RaceProfile
    let token: RaceToken
    init(profile: RaceProfile, token: RaceToken) {
        self.profile = profile
        self.token = token
    }
}

/// The session's registrations. `pause` runs in the factories of the profile and the feed,
/// before they resolve what they need: where a test makes the logout happen.
struct RaceSessionAssembly: Assembly {
    let user: String
    var pause: @Sendable () -> Void = { usleep(200) }

    func assemble(into store: DependencyStore) {
        let user = user
        let pause = pause
        store.register(RaceToken.self, scope: .singleton) { _ in RaceToken(user: user) }
        store.register(RaceProfile.self) { store in
            pause()
            return RaceProfile(token: store.resolve())
        }
        store.register(RaceFeed.self) { store in
            pause()
            let profile: RaceProfile = store.resolve()
            return RaceFeed(profile: profile, token: store.resolve())
        }
    }
}

@Suite struct LogoutRaceTests {
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aResolveThatBeganBeforeTheUnloadFinishesAsIfTheUnloadCameAfter() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            let inFactory = DispatchSemaphore(value: 0)
            let unloaded = DispatchSemaphore(value: 0)
            let calls = Counter()
            store.apply(
                RaceSessionAssembly(
                    user: "ada",
                    pause: {
                        // The feed's factory, the chain's first: the logout happens here.
                        if calls.increment() == 1 {
                            inFactory.signal()
                            unloaded.waitInChildProcess(for: "the unload")
                        }
                    }))
            let token = store.resolve(RaceToken.self)
            let feed = Recorded<RaceFeed?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                feed.set(store.resolve(RaceFeed.self))
                done.signal()
            }
            inFactory.waitInChildProcess(for: "the feed's factory")
            let result = store.unload(RaceSessionAssembly.self)
            unloaded.signal()
            done.waitInChildProcess(for: "the resolve of the feed")
            guard let feed = feed.value, result.removed == 3 else { exit(4) }
            // The profile and the token came from what the unload removed: the session's user,
            // and one token in the chain, built after the unload (which closed the first one),
            // and closed when the chain ended.
            guard feed.profile.token === feed.token, feed.token.user == "ada" else { exit(5) }
            guard token.closes.value == 1, feed.token.closes.value == 1 else { exit(6) }
            // A resolve that begins now finds nothing.
            guard (try? store.tryResolve(RaceFeed.self)) == nil else { exit(7) }
        }
    }

    @Test func anAsyncResolveThatBeganBeforeTheUnloadFinishesAsIfTheUnloadCameAfter() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let inFactory = DispatchSemaphore(value: 0)
            let unloaded = DispatchSemaphore(value: 0)
            struct AsyncSession: Assembly {
                let inFactory: DispatchSemaphore
                let unloaded: DispatchSemaphore
                func assemble(into store: DependencyStore) {
                    let (inFactory, unloaded) = (inFactory, unloaded)
                    store.register(RaceToken.self, scope: .singleton) { _ in RaceToken(user: "ada") }
                    store.register(RaceProfile.self) { store in RaceProfile(token: store.resolve()) }
                    // An `async` factory: the logout happens while it runs, and then it resolves
                    // a session type synchronously and another one asynchronously, twice.
                    store.register(RaceFeed.self) { store async throws in
                        inFactory.signal()
                        unloaded.waitInChildProcess(for: "the unload")
                        let profile: RaceProfile = store.resolve()
                        let token = try await store.resolveAsync(RaceToken.self)
                        // The chain's `.singleton`: built once in it, not closed while it runs.
                        guard try await store.resolveAsync(RaceToken.self) === token, token.closes.value == 0 else {
                            exit(6)
                        }
                        return RaceFeed(profile: profile, token: token)
                    }
                }
            }
            let store = DependencyStore()
            store.apply(AsyncSession(inFactory: inFactory, unloaded: unloaded))
            let feed = Recorded<RaceFeed?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                feed.set(try? await store.resolveAsync(RaceFeed.self))
                done.signal()
            }
            inFactory.waitInChildProcess(for: "the feed's factory")
            guard store.unload(AsyncSession.self).removed == 3 else { exit(4) }
            unloaded.signal()
            done.waitInChildProcess(for: "the resolve of the feed")
            guard let feed = feed.value, feed.token.user == "ada", feed.profile.token.user == "ada" else { exit(5) }
            // Both tokens were closed when their chains ended: the profile's when its synchronous
            // resolve did, the feed's when the `async` resolve did.
            guard feed.profile.token.closes.value == 1, feed.token.closes.value == 1 else { exit(7) }
        }
    }

    @Test func aResolveThatBeginsAfterTheUnloadFailsNamingIt() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = DependencyStore()
                store.apply(RaceSessionAssembly(user: "ada"))
                store.unload(RaceSessionAssembly.self)
                // Not a session type: its factory resolves one, after the logout.
                store.register(String.self) { store in "feed of \(store.resolve(RaceFeed.self).token.user)" }
                _ = store.resolve(String.self)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("RaceFeed"))
        #expect(stderr.contains("unload(RaceSessionAssembly.self)"))
    }
    #endif

    @Test func aThrowingResolveThatBeginsAfterTheUnloadThrowsNamingIt() {
        let store = DependencyStore()
        store.apply(RaceSessionAssembly(user: "ada"))
        store.unload(RaceSessionAssembly.self)
        #expect {
            try store.tryResolve(RaceFeed.self)
        } throws: { error in
            "\(error)".contains("unload(RaceSessionAssembly.self)")
        }
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// In a process of its own: a chain of any other test that began before the unload would keep
    /// what it removed.
    @Test func whatAnUnloadRemovedIsFreedOnceNoChainThatBeganBeforeItRuns() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            final class User: Sendable {}
            struct UserAssembly: Assembly {
                let user: User
                func assemble(into store: DependencyStore) {
                    store.register(user, for: User.self)
                }
            }
            let store = DependencyStore()
            weak var user: User?
            do {
                let made = User()
                user = made
                store.apply(UserAssembly(user: made))
            }
            store.unload(UserAssembly.self)
            // No chain was running: nothing of the removal is kept.
            guard user == nil else { exit(4) }

            // A chain running across the unload keeps it until the chain ends.
            let inFactory = DispatchSemaphore(value: 0)
            let unloaded = DispatchSemaphore(value: 0)
            do {
                let made = User()
                user = made
                store.apply(UserAssembly(user: made))
            }
            store.register(Int.self) { _ in
                inFactory.signal()
                unloaded.waitInChildProcess(for: "the unload")
                return 1
            }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = store.resolve(Int.self)
                done.signal()
            }
            inFactory.waitInChildProcess(for: "the factory")
            store.unload(UserAssembly.self)
            guard user != nil else { exit(5) }
            unloaded.signal()
            done.waitInChildProcess(for: "the resolve")
            guard user == nil else { exit(6) }
        }
    }
    #endif

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// Logouts and logins, one after another, while 8 threads resolve session types whose
    /// factories sleep and then resolve more session types: no resolve traps; each either builds a
    /// feed or throws the missing registration.
    @Test func logoutsWhileEightThreadsResolveSessionTypesNeverTrap() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs(after: 60)
            let store = DependencyStore()
            store.apply(RaceSessionAssembly(user: "user 0"))
            let stop = Recorded(false)
            let built = Counter()
            let namingTheUnload = Counter()
            let wrong = Recorded<[String]>([])
            let group = DispatchGroup()
            for _ in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    while !stop.value {
                        do throws(ResolutionError) {
                            _ = try store.tryResolve(RaceFeed.self)
                            built.increment()
                        } catch {
                            // The message is written after the miss, from what is registered then:
                            // after the next login it cannot name the unload any more.
                            guard error.kind == .notRegistered else {
                                wrong.update { $0.append("\(error)") }
                                continue
                            }
                            if error.description.contains("unload(RaceSessionAssembly.self)") {
                                namingTheUnload.increment()
                            }
                        }
                    }
                    group.leave()
                }
            }
            for login in 1...150 {
                usleep(1_000)
                store.unload(RaceSessionAssembly.self)
                usleep(200)
                store.apply(RaceSessionAssembly(user: "user \(login)"))
            }
            stop.set(true)
            guard group.wait(timeout: .now() + 30) == .success else { exit(3) }
            if !wrong.value.isEmpty {
                FileHandle.standardError.write(Data(wrong.value.prefix(3).joined(separator: "\n").utf8))
                exit(4)
            }
            // Both outcomes happened: the race was run.
            guard built.value > 0, namingTheUnload.value > 0 else { exit(5) }
        }
    }
    #endif
}
