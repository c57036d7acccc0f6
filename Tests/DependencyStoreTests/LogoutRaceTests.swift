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

/// Two resolves of the token in one factory.
final class RaceTokenPair: Sendable {
    let first: RaceToken
    let second: RaceToken
    init(first: RaceToken, second: RaceToken) {
        self.first = first
        self.second = second
    }
}

/// The session's registrations. `pause` runs in the factories of the profile and the feed,
/// before they resolve what they need: where a test makes the logout happen.
struct RaceSessionAssembly: Assembly {
    let user: String
    var pause: @Sendable () -> Void = { usleep(200) }
    /// Runs in the token's factory, before it returns the token it made.
    var madeToken: @Sendable (RaceToken) -> Void = { _ in }

    func assemble(into store: DependencyStore) {
        let user = user
        let pause = pause
        let madeToken = madeToken
        store.register(RaceToken.self, scope: .singleton) { _ in
            let token = RaceToken(user: user)
            madeToken(token)
            return token
        }
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

/// A resolve of `RaceFeed` on a thread of its own, held in the feed's factory, the chain's first,
/// until `unloaded` is signalled: where a test makes the logout happen. For child processes.
final class FeedResolvePausedInItsFirstFactory: @unchecked Sendable {
    let store: DependencyStore
    let inFactory = DispatchSemaphore(value: 0)
    let unloaded = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    private let resolved = Recorded<RaceFeed?>(nil)

    /// Applies the session to `store`, its profile's and feed's factories pausing here.
    init(applyingTheSessionTo store: DependencyStore) {
        self.store = store
        let calls = Counter()
        let inFactory = inFactory
        let unloaded = unloaded
        store.apply(
            RaceSessionAssembly(
                user: "ada",
                pause: {
                    if calls.increment() == 1 {
                        inFactory.signal()
                        unloaded.waitInChildProcess(for: "the unload")
                    }
                }))
    }

    /// Starts the resolve, and returns once it is inside the feed's factory.
    func start() {
        Thread.detachNewThread { [self] in
            resolved.set(store.resolve(RaceFeed.self))
            done.signal()
        }
        inFactory.waitInChildProcess(for: "the feed's factory")
    }

    /// The feed the resolve returned, once `done` was signalled.
    var feed: RaceFeed? { resolved.value }
}

@Suite struct LogoutRaceTests {
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aResolveThatBeganBeforeTheUnloadFinishesAsIfTheUnloadCameAfter() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let store = DependencyStore()
            let race = FeedResolvePausedInItsFirstFactory(applyingTheSessionTo: store)
            let token = store.resolve(RaceToken.self)
            race.start()
            let result = store.unload(RaceSessionAssembly.self)
            race.unloaded.signal()
            race.done.waitInChildProcess(for: "the resolve of the feed")
            guard let feed = race.feed, result.removed == 3 else { exit(4) }
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

    /// The token's build is under way when the unload comes: the chain keeps what it built, as
    /// it keeps what it builds from the removed registration after, resolves it again as the
    /// same token, and closes it once when it ends.
    @Test func aSingletonBuildThatAnUnloadOvertakesIsTheChainsAndClosedOnce() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            let inBuild = DispatchSemaphore(value: 0)
            let unloaded = DispatchSemaphore(value: 0)
            let store = DependencyStore()
            store.register(RaceTokenPair.self) { store in
                RaceTokenPair(first: store.resolve(), second: store.resolve())
            }
            // Resolved twice in one chain, and once alone.
            for resolvesAPair in [true, false] {
                let tokens = Counter()
                store.apply(
                    RaceSessionAssembly(
                        user: "ada",
                        madeToken: { _ in
                            // The first build waits for the unload.
                            if tokens.increment() == 1 {
                                inBuild.signal()
                                unloaded.waitInChildProcess(for: "the unload")
                            }
                        }))
                let resolved = Recorded<[RaceToken]>([])
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    if resolvesAPair {
                        let pair = store.resolve(RaceTokenPair.self)
                        resolved.set([pair.first, pair.second])
                    } else {
                        resolved.set([store.resolve(RaceToken.self)])
                    }
                    done.signal()
                }
                inBuild.waitInChildProcess(for: "the token's build")
                guard store.unload(RaceSessionAssembly.self).removed == 3 else { exit(3) }
                unloaded.signal()
                done.waitInChildProcess(for: "the resolve")
                // Built once, the same token both times.
                guard let token = resolved.value.first, tokens.value == 1 else { exit(4) }
                guard resolved.value.allSatisfy({ $0 === token }) else { exit(5) }
                // Closed once, when the chain ended.
                guard token.closes.value == 1 else { exit(6) }
            }
        }
    }

    /// The same for an `async` factory's `.singleton`, which a task builds for the chain.
    @Test func anAsyncSingletonBuildThatAnUnloadOvertakesIsTheChainsAndClosedOnce() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs()
            struct AsyncSession: Assembly {
                let tokens: Counter
                let inBuild: DispatchSemaphore
                let unloaded: DispatchSemaphore
                func assemble(into store: DependencyStore) {
                    let (tokens, inBuild, unloaded) = (tokens, inBuild, unloaded)
                    store.register(RaceToken.self, scope: .singleton) { _ async in
                        // The first build waits for the unload.
                        if tokens.increment() == 1 {
                            inBuild.signal()
                            unloaded.waitInChildProcess(for: "the unload")
                        }
                        return RaceToken(user: "ada")
                    }
                }
            }
            let (tokens, inBuild, unloaded) = (Counter(), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let store = DependencyStore()
            store.apply(AsyncSession(tokens: tokens, inBuild: inBuild, unloaded: unloaded))
            store.register(RaceTokenPair.self) { store async throws in
                RaceTokenPair(first: try await store.resolveAsync(), second: try await store.resolveAsync())
            }
            let pair = Recorded<RaceTokenPair?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                pair.set(try? await store.resolveAsync(RaceTokenPair.self))
                done.signal()
            }
            inBuild.waitInChildProcess(for: "the token's build")
            guard store.unload(AsyncSession.self).removed == 1 else { exit(3) }
            unloaded.signal()
            done.waitInChildProcess(for: "the resolve")
            guard let pair = pair.value, tokens.value == 1, pair.first === pair.second else { exit(4) }
            // Closed once, when the chain's last task ended: the build's task may end just after
            // the resolve returned.
            let deadline = Date().addingTimeInterval(testDeadline)
            while pair.first.closes.value == 0, Date() < deadline { usleep(1_000) }
            guard pair.first.closes.value == 1 else { exit(5) }
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
    /// feed or throws the missing registration; and every token built is closed exactly once, by
    /// the logout or by the chain that built it after the logout (or while it ran).
    @Test func logoutsWhileEightThreadsResolveSessionTypesNeverTrap() async {
        await #expect(processExitsWith: .success) {
            endTheProcessIfItHangs(after: 60)
            let store = DependencyStore()
            let made = Recorded<[RaceToken]>([])
            func session(_ login: Int) -> RaceSessionAssembly {
                RaceSessionAssembly(
                    user: "user \(login)",
                    madeToken: { token in
                        made.update { $0.append(token) }
                        // Some work, during which a logout may come.
                        usleep(100)
                    })
            }
            store.apply(session(0))
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
                store.apply(session(login))
            }
            stop.set(true)
            guard group.wait(timeout: .now() + 30) == .success else { exit(3) }
            store.unload(RaceSessionAssembly.self)
            let closes = made.value.map(\.closes.value)
            guard closes.allSatisfy({ $0 == 1 }) else {
                let never = closes.filter { $0 == 0 }.count
                let twice = closes.filter { $0 > 1 }.count
                let report = "of \(closes.count) tokens, \(never) never closed, \(twice) closed twice\n"
                FileHandle.standardError.write(Data(report.utf8))
                exit(6)
            }
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
