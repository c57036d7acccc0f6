import DependencyStore
import Foundation
import Testing

// The sharing rule (Docs/Lifetimes.md, "Stores layered over others"): an instance a store keeps
// for its own registration is shared with every store layered over it, unless that store overrides
// something (then it builds its own, with its overrides), or the instance was found to depend on a
// value only such a store registers (a request's: then each builds its own).

/// A request's own value, registered only in request stores.
private struct RequestID: Equatable {
    let value: Int
}

/// An app-wide repository: what a server keeps once, for every request.
private final class Repository: @unchecked Sendable {
    let number: Int
    private let lock = NSLock()
    private var saved: [String] = []

    init(_ number: Int) {
        self.number = number
        // Real work, so that threads asking at the same moment overlap the build.
        Thread.sleep(forTimeInterval: 0.002)
    }

    func save(_ item: String) { lock.withLock { saved.append(item) } }
    var items: [String] { lock.withLock { saved } }
}

/// Built by an `async` factory, as a connection pool is.
private final class Pool: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// Built from a request's value: each request must get its own.
private final class RequestLogger {
    let request: RequestID
    let repository: Repository
    init(request: RequestID, repository: Repository) {
        self.request = request
        self.repository = repository
    }
}

/// An app singleton whose `@Injected` property is read after its build.
private final class Reporter {
    @Injected var greeting: Greeting
}

/// An app singleton built with a request's value, if there is one.
private final class Tagged {
    let request: RequestID?
    init(_ request: RequestID?) { self.request = request }
}

/// A screen's state: a `.graph` registration, one per resolve.
private final class FormState {
    let request: RequestID?
    init(request: RequestID? = nil) { self.request = request }
}

/// An app-wide repository that keeps the form state it was built with.
private final class FormRepository {
    let form: FormState
    init(form: FormState) { self.form = form }
}

/// A second app-wide instance built with the same form state.
private final class FormArchive {
    let form: FormState
    init(form: FormState) { self.form = form }
}

/// What a request builds, from the same resolve: the repository, and the form state twice.
private final class FormScreen {
    let repository: FormRepository
    let archive: FormArchive?
    let form: FormState
    let sameForm: FormState
    init(repository: FormRepository, archive: FormArchive? = nil, form: FormState, sameForm: FormState) {
        self.repository = repository
        self.archive = archive
        self.form = form
        self.sameForm = sameForm
    }
}

/// Adds a decorator, or contributes an element, so that a store that applies it changes what its
/// ancestors' factories build; unloaded again in the tests.
private struct ChangingAssembly: Assembly {
    let decorates: Bool

    func assemble(into store: DependencyStore) {
        if decorates {
            store.decorate(Clock.self) { _, clock in clock }
        } else {
            store.contribute(FixedGreeting("element"), to: Greeting.self)
        }
    }
}

private final class Draft {}

private final class DraftEditor {
    let draft: Draft
    init(draft: Draft) { self.draft = draft }
}

@Suite struct SharingRuleTests {
    private func appStore(builds: Counter) -> DependencyStore {
        let app = DependencyStore()
        app.register(FixedGreeting("app"), for: Greeting.self)
        app.register(Repository.self, scope: .singleton) { _ in Repository(builds.increment()) }
        return app
    }

    private func requestStore(over app: DependencyStore, id: Int) -> DependencyStore {
        let request = DependencyStore(parent: app)
        request.register(RequestID(value: id), for: RequestID.self)
        return request
    }

    @Test func requestStoresShareTheAppsSingletonSoWhatOneRequestSavesTheNextSees() {
        let builds = Counter()
        let app = appStore(builds: builds)

        requestStore(over: app, id: 1).resolve(Repository.self).save("posted in request 1")
        let second = requestStore(over: app, id: 2).resolve(Repository.self)

        #expect(second.items == ["posted in request 1"])
        #expect(builds.value == 1)
        #expect(second === app.resolve(Repository.self), "the instance is the app store's")
    }

    @Test(.onThreadsOfItsOwn) func aThousandRequestStoresOnEightThreadsMakeExactlyOneBuild() {
        let builds = Counter()
        let app = appStore(builds: builds)
        let seen = Recorded<Set<ObjectIdentifier>>([])

        onManyThreads(threads: 8, rounds: 125) { round, thread in
            let request = requestStore(over: app, id: round * 8 + thread)
            let repository = request.resolve(Repository.self)
            seen.update { $0.insert(ObjectIdentifier(repository)) }
        }

        #expect(builds.value == 1)
        #expect(seen.value.count == 1)
    }

    @Test func aThousandRequestStoresInTasksMakeExactlyOneBuild() async {
        let builds = Counter()
        let app = appStore(builds: builds)
        app.register(Pool.self, scope: .singleton) { _ async in
            try? await Task.sleep(nanoseconds: 1_000_000)
            return Pool(builds.increment())
        }

        let numbers = await withTaskGroup(of: Set<Int>.self) { group in
            for id in 0..<1_000 {
                group.addTask {
                    let request = requestStore(over: app, id: id)
                    let pool = try? await request.resolveAsync(Pool.self)
                    let repository = request.resolve(Repository.self)
                    return [pool?.number ?? -1, repository.number]
                }
            }
            return await group.reduce(into: Set<Int>()) { $0.formUnion($1) }
        }

        #expect(builds.value == 2, "one Repository and one Pool, for 1,000 requests")
        #expect(numbers.count == 2)
        #expect(!numbers.contains(-1))
    }

    @Test(arguments: [true, false])
    func aStoreThatOverridesADependencyBuildsItsOwnCopyWithTheOverride(parentFirst: Bool) {
        let app = DependencyStore()
        app.register(FixedGreeting("live"), for: Greeting.self)
        app.register(FixedClock(1), for: Clock.self)
        app.register(Banner.self, scope: .singleton) { store in
            Banner(greeting: store.resolve(), clock: store.resolve())
        }
        let test = DependencyStore(parent: app)
        test.register(FixedGreeting("mock"), for: Greeting.self)

        let appFirst = parentFirst ? app.resolve(Banner.self) : nil
        let testBanner = test.resolve(Banner.self)
        let appBanner = appFirst ?? app.resolve(Banner.self)

        #expect(testBanner.text == "mock @1")
        #expect(appBanner.text == "live @1")
        #expect(testBanner !== appBanner)
        #expect(test.resolve(Banner.self) === testBanner, "the test store keeps its copy")
        #expect(app.reset(.singleton) == 1, "the app store keeps its own instance only")
        #expect(test.reset(.singleton) == 1, "the test store keeps its copy")
    }

    @Test func aStoreThatStartsOverridingStopsSharingAndOneWhoseParentRegistersItsTypeToo() {
        let builds = Counter()
        let app = appStore(builds: builds)
        let overriding = DependencyStore(parent: app)
        let shadowed = requestStore(over: app, id: 1)
        let shared = app.resolve(Repository.self)
        #expect(overriding.resolve(Repository.self) === shared)
        #expect(shadowed.resolve(Repository.self) === shared)

        overriding.register(FixedGreeting("mock"), for: Greeting.self)
        app.register(RequestID(value: 0), for: RequestID.self)

        #expect(overriding.resolve(Repository.self) !== shared)
        #expect(shadowed.resolve(Repository.self) !== shared)
        #expect(requestStore(over: app, id: 2).resolve(Repository.self) !== shared, "it overrides RequestID now")
        #expect(DependencyStore(parent: app).resolve(Repository.self) === shared)
    }

    @Test func aDecoratorInTheChildGivesTheChildItsOwnDecoratedCopy() {
        let builds = Counter()
        let app = appStore(builds: builds)
        let child = DependencyStore(parent: app)
        let decorated = Counter()
        child.decorate(Repository.self) { _, repository in
            decorated.increment()
            return repository
        }

        let shared = app.resolve(Repository.self)
        let own = child.resolve(Repository.self)

        #expect(own !== shared)
        #expect(decorated.value == 1)
        #expect(builds.value == 2)
    }

    @Test func aRequestValueIsNeverCapturedInAnAppWideInstance() {
        let builds = Counter()
        let loggers = Counter()
        let app = appStore(builds: builds)
        app.register(RequestLogger.self, scope: .singleton) { store in
            loggers.increment()
            return RequestLogger(request: store.resolve(), repository: store.resolve())
        }

        let first = requestStore(over: app, id: 1)
        let second = requestStore(over: app, id: 2)
        let firstLogger = first.resolve(RequestLogger.self)
        let secondLogger = second.resolve(RequestLogger.self)

        #expect(firstLogger.request.value == 1)
        #expect(secondLogger.request.value == 2)
        #expect(first.resolve(RequestLogger.self) === firstLogger, "a singleton of the request store now")
        #expect(firstLogger.repository === secondLogger.repository, "what it uses that is app-wide is shared")
        #expect(builds.value == 1)
        // The first request's build in the app store was set aside when it reached the request's
        // value, and built again in the request store; every later request builds once.
        #expect(loggers.value == 3)
        #expect(app.reset(.singleton) == 1, "the app store keeps the Repository only")
    }

    @Test func aRequestValueReachedThroughAnotherAppSingletonMakesBothPerRequest() {
        let app = DependencyStore()
        let outerBuilds = Counter()
        app.register(Session.self, scope: .singleton) { store in
            _ = store.resolve(RequestLogger.self)
            return Session(outerBuilds.increment())
        }
        app.register(RequestLogger.self, scope: .singleton) { store in
            RequestLogger(request: store.resolve(), repository: store.resolve())
        }
        app.register(Repository.self, scope: .singleton) { _ in Repository(0) }

        let sessions = (1...3).map { requestStore(over: app, id: $0).resolve(Session.self) }

        #expect(Set(sessions.map(ObjectIdentifier.init)).count == 3)
        #expect(outerBuilds.value == 4, "once set aside, then once per request")
        #expect(app.reset(.singleton) == 1, "the Repository, which reached no request value, stays shared")
    }

    @Test(.onThreadsOfItsOwn) func theRuleHoldsWhenManyThreadsLearnThatAnInstanceIsPerRequest() {
        let app = appStore(builds: Counter())
        app.register(RequestLogger.self, scope: .singleton) { store in
            RequestLogger(request: store.resolve(), repository: store.resolve())
        }
        let wrong = Counter()

        onManyThreads(threads: 8, rounds: 20) { round, thread in
            let id = round * 8 + thread
            let request = requestStore(over: app, id: id)
            if request.resolve(RequestLogger.self).request.value != id { wrong.increment() }
        }

        #expect(wrong.value == 0)
        #expect(app.reset(.singleton) == 1)
    }

    @Test func resetAndReRegistrationInTheAppReachEveryStoreThatShares() {
        let builds = Counter()
        let app = appStore(builds: builds)
        let requests = (0..<3).map { requestStore(over: app, id: $0) }
        let first = requests[0].resolve(Repository.self)

        #expect(app.reset(.singleton) == 1)
        let second = requests[1].resolve(Repository.self)
        #expect(second !== first)
        #expect(requests[2].resolve(Repository.self) === second)

        app.register(Repository.self, scope: .singleton) { _ in Repository(100) }
        #expect(requests.allSatisfy { $0.resolve(Repository.self).number == 100 })
        #expect(requests[0].reset(.singleton) == 0, "a request store keeps nothing it shares")
    }

    @Test func requestStoresAreFreedAndTheSharedInstanceReadsFromTheAppStore() throws {
        let app = appStore(builds: Counter())
        app.register(Reporter.self, scope: .singleton) { _ in Reporter() }
        var requests: [WeakBox<DependencyStore>] = []
        var reporters: [WeakBox<Reporter>] = []
        for id in 0..<100 {
            do {
                let request = requestStore(over: app, id: id)
                reporters.append(WeakBox(request.resolve(Reporter.self)))
                requests.append(WeakBox(request))
            }
        }

        #expect(requests.allSatisfy { $0.object == nil })
        let reporter = try #require(reporters[0].object, "the app store keeps it")
        #expect(reporters.allSatisfy { $0.object === reporter })
        #expect(reporter.greeting.text == "app", "its property is bound to the app store, not a request's")
    }

    // MARK: - Asking for a request's value that may be absent

    /// How an app singleton's factory asks for the request's value.
    enum Ask: String, CaseIterable, CustomStringConvertible {
        case resolve, resolveIfRegistered, resolveOptional, provider

        var description: String { rawValue }
    }

    private static func tagged(_ ask: Ask, in store: DependencyStore) -> Tagged {
        switch ask {
        case .resolve: Tagged(store.resolve(RequestID.self))
        case .resolveIfRegistered: Tagged(store.resolveIfRegistered(RequestID.self))
        case .resolveOptional: Tagged(store.resolve(RequestID?.self))
        case .provider: Tagged(store.resolve(Provider<RequestID>.self)())
        }
    }

    @Test(arguments: Ask.allCases)
    func everyWayOfAskingForARequestsValueMakesTheAppSingletonPerRequest(_ ask: Ask) {
        let builds = Counter()
        let app = DependencyStore()
        app.register(Tagged.self, scope: .singleton) { store in
            builds.increment()
            return Self.tagged(ask, in: store)
        }
        let first = requestStore(over: app, id: 1)
        let second = requestStore(over: app, id: 2)

        let firstTagged = first.resolve(Tagged.self)
        let secondTagged = second.resolve(Tagged.self)

        #expect(firstTagged.request?.value == 1, "\(ask) in the app's build gets the request's value")
        #expect(secondTagged.request?.value == 2)
        #expect(first.resolve(Tagged.self) === firstTagged, "kept by the request's store")
        #expect(builds.value == 3, "once set aside in the app's store, then once per request")
        #expect(app.reset(.singleton) == 0, "the app's store keeps nothing that holds a request's value")
    }

    @Test(arguments: [true, false])
    func aRequestWithoutTheValueMakesTheInstancePerRequestWhenTheValueIsDeclaredPerRequest(declared: Bool) {
        let app = DependencyStore()
        if declared { app.providedPerRequest(RequestID.self) }
        app.register(Tagged.self, scope: .singleton) { store in Tagged(store.resolveIfRegistered(RequestID.self)) }
        let anonymous = DependencyStore(parent: app)

        let first = anonymous.resolve(Tagged.self)
        let second = requestStore(over: app, id: 2).resolve(Tagged.self)

        #expect(first.request == nil)
        if declared {
            // Its absence is the anonymous request's: the next request builds its own.
            #expect(second.request?.value == 2)
            #expect(app.reset(.singleton) == 0)
        } else {
            // Nothing tells the app's store that another request may have one: the instance
            // built without it is the app's, and shared.
            #expect(second === first)
            #expect(app.reset(.singleton) == 1)
        }
    }

    // MARK: - `.graph` across the stores of one resolve

    @Test func aGraphInstanceIsSharedWithinEachStoreOfOneResolve() {
        let app = DependencyStore()
        app.register(FormState.self, scope: .graph) { _ in FormState() }
        app.register(FormRepository.self, scope: .singleton) { store in FormRepository(form: store.resolve()) }
        app.register(FormScreen.self) { store in
            FormScreen(repository: store.resolve(), form: store.resolve(), sameForm: store.resolve())
        }

        let throughARequest = DependencyStore(parent: app).resolve(FormScreen.self)
        #expect(throughARequest.form === throughARequest.sameForm, "what the request's store builds shares one")
        #expect(
            throughARequest.form !== throughARequest.repository.form,
            "the app-wide repository is built by the app's store, with a graph of its own")

        let app2 = DependencyStore()
        app2.register(FixedGreeting("live"), for: Greeting.self)
        app2.register(FormState.self, scope: .graph) { _ in FormState() }
        app2.register(FormRepository.self, scope: .singleton) { store in FormRepository(form: store.resolve()) }
        app2.register(FormScreen.self) { store in
            FormScreen(repository: store.resolve(), form: store.resolve(), sameForm: store.resolve())
        }
        let fromTheApp = app2.resolve(FormScreen.self)
        #expect(fromTheApp.form === fromTheApp.repository.form, "one store, one graph")

        let test = DependencyStore(parent: app2)
        test.register(FixedGreeting("mock"), for: Greeting.self)
        let throughATest = test.resolve(FormScreen.self)
        #expect(
            throughATest.form === throughATest.repository.form,
            "a store that keeps its own copy builds it in its own graph")
    }

    @Test(arguments: [true, false])
    func aGraphInstanceBuiltWithARequestsValueNeverEndsUpInAnAppWideInstance(archiveFirst: Bool) {
        let app = DependencyStore()
        app.register(FormState.self, scope: .graph) { store in FormState(request: store.resolve(RequestID.self)) }
        app.register(FormRepository.self, scope: .singleton) { store in FormRepository(form: store.resolve()) }
        app.register(FormArchive.self, scope: .singleton) { store in FormArchive(form: store.resolve()) }
        app.register(FormScreen.self) { store in
            let archive: FormArchive? = archiveFirst ? store.resolve(FormArchive.self) : nil
            let repository: FormRepository = store.resolve()
            return FormScreen(
                repository: repository, archive: archive ?? store.resolve(FormArchive.self), form: store.resolve(),
                sameForm: store.resolve())
        }

        let screens = (1...2).map { requestStore(over: app, id: $0).resolve(FormScreen.self) }

        for (index, screen) in screens.enumerated() {
            #expect(screen.repository.form.request?.value == index + 1)
            // The second app singleton got the form state the first one's build made in the app's
            // store, which holds the request's value: it is that request's too.
            #expect(screen.archive?.form.request?.value == index + 1)
            #expect(screen.form.request?.value == index + 1)
            #expect(screen.repository.form === screen.archive?.form, "rebuilt in the request's graph")
        }
        #expect(screens[0].archive !== screens[1].archive)
        #expect(app.reset(.singleton) == 0, "the app's store keeps nothing that holds a request's value")
    }

    // MARK: - Stores layered over a store that keeps its own copies

    @Test func aStoreThatChangesNothingSharesTheCopyOfTheNearestStoreThatKeepsOne() {
        let builds = Counter()
        let app = DependencyStore()
        app.register(FixedGreeting("live"), for: Greeting.self)
        app.register(FixedClock(1), for: Clock.self)
        app.register(Banner.self, scope: .singleton) { store in
            builds.increment()
            return Banner(greeting: store.resolve(), clock: store.resolve())
        }
        let test = DependencyStore(parent: app)
        test.register(FixedGreeting("mock"), for: Greeting.self)
        let requests = (1...2).map { requestStore(over: test, id: $0) }

        let banners = requests.map { $0.resolve(Banner.self) }

        #expect(banners[0].text == "mock @1", "built with the overriding store's mock")
        #expect(banners[1] === banners[0], "the requests share one copy")
        #expect(test.resolve(Banner.self) === banners[0], "the overriding store's own")
        #expect(builds.value == 1)
        #expect(requests.map { $0.reset(.singleton) } == [0, 0], "a store that shares keeps nothing")
        #expect(test.reset(.singleton) == 1)
        #expect(app.reset(.singleton) == 0, "the app's store never built one")
    }

    /// What stops a store sharing, and how it is taken away again.
    enum Change: String, CaseIterable, CustomStringConvertible {
        case override, decorator, element

        var description: String { rawValue }
    }

    @Test(arguments: Change.allCases)
    func aStoreThatStoppedSharingKeepsItsCopiesWhenTheChangeIsRemoved(_ change: Change) {
        let app = DependencyStore()
        app.register(FixedGreeting("live"), for: Greeting.self)
        app.register(FixedClock(1), for: Clock.self)
        app.register(Banner.self, scope: .singleton) { store in
            Banner(greeting: store.resolve(), clock: store.resolve())
        }
        let shared = app.resolve(Banner.self)
        let test = DependencyStore(parent: app)
        switch change {
        case .override: test.register(FixedGreeting("live"), for: Greeting.self)
        case .decorator: test.apply(ChangingAssembly(decorates: true))
        case .element: test.apply(ChangingAssembly(decorates: false))
        }
        let copy = test.resolve(Banner.self)
        #expect(copy !== shared)

        switch change {
        case .override: #expect(test.unregister(Greeting.self))
        case .decorator: #expect(test.unload(ChangingAssembly.self).wasApplied)
        case .element: #expect(test.unload(ChangingAssembly.self).removed == 1)
        }

        #expect(test.resolve(Banner.self) === copy, "the copy it kept is still the one it hands out")
        #expect(requestStore(over: test, id: 1).resolve(Banner.self) === copy, "and what stores over it share")
        #expect(test.reset(.singleton) == 1)
        #expect(test.resolve(Banner.self) !== shared, "it goes on building its own")
    }

    @Test func aSharedBuildInsideAnotherThatReachesARequestsValueIsBuiltAgainOnlyInTheRequestsStore() {
        // The client is the middle store's own, the socket the app's; the socket's factory needs
        // the request's Int. Built through the request's store, both builds are set aside and
        // built again there: the middle store, which cannot see the value either, builds nothing
        // again. The set-aside client is closed before the socket it holds.
        let log = CloseLog()
        let socketBuilds = Counter()
        let clientBuilds = Counter()
        let app = DependencyStore()
        app.register(Socket.self, scope: .singleton) { store in
            socketBuilds.increment()
            _ = store.resolve(Int.self)
            return Socket(log: log)
        }.closing { $0.close() }
        let middle = DependencyStore(parent: app)
        middle.register(Client.self, scope: .singleton) { store in
            clientBuilds.increment()
            return Client(socket: store.resolve(), log: log)
        }.closing { $0.close() }
        let request = DependencyStore(parent: middle)
        request.register(7, for: Int.self)

        let client = request.resolve(Client.self)

        #expect(socketBuilds.value == 2, "set aside in the app's store, then built in the request's")
        #expect(clientBuilds.value == 2, "set aside in the middle store, then built in the request's")
        #expect(log.names == ["Client", "Socket"], "the set-aside pair, dependents first")
        #expect(request.resolve(Client.self) === client)
        #expect(request.reset(.singleton) == 2, "both are the request's")
        #expect(middle.reset(.singleton) == 0)
        #expect(app.reset(.singleton) == 0)
    }

    @Test func aWeakValueOfTheRequestThatTheSetAsideBuildResolvedIsTheOneTheRebuildGets() {
        // The editor's factory needs the request's draft, a `.weak` instance that only the
        // editor holds. The build in the app's store is set aside and built again in the
        // request's; the set-aside editor is let go only after that (the store keeps it to the
        // rebuild's end explicitly, since Swift may end a local's life at its last use), so the
        // rebuild finds the draft alive and gets the same one.
        let app = DependencyStore()
        let editorBuilds = Counter()
        app.register(DraftEditor.self, scope: .singleton) { store in
            editorBuilds.increment()
            return DraftEditor(draft: store.resolve())
        }
        let request = DependencyStore(parent: app)
        let draftBuilds = Counter()
        request.register(Draft.self, scope: .weak) { _ in
            draftBuilds.increment()
            return Draft()
        }

        let editor = request.resolve(DraftEditor.self)

        #expect(editorBuilds.value == 2, "set aside in the app's store, then built in the request's")
        #expect(draftBuilds.value == 1, "the rebuild got the draft the set-aside build made")
        #expect(request.resolve(Draft.self) === editor.draft)
    }

    @Test func aStoreThatSharesListsTheInstanceAsKeptByTheStoreThatKeepsIt() {
        let app = appStore(builds: Counter())
        let request = requestStore(over: app, id: 1)
        let test = DependencyStore(parent: app)
        test.register(FixedGreeting("mock"), for: Greeting.self)
        _ = request.resolve(Repository.self)
        _ = test.resolve(Repository.self)

        func kept(in store: DependencyStore) -> Bool? {
            store.registrations.first { $0.type == "Repository" }?.hasKeptInstance
        }
        #expect(kept(in: app) == true, "the app's store keeps the instance the request shares")
        #expect(kept(in: request) == false, "the request's store keeps nothing of it: its reset would discard nothing")
        #expect(kept(in: test) == true, "the overriding store keeps its own copy")
    }
}

/// A store that registers a type an ancestor registers stops sharing the ancestor's instances,
/// whichever of the two registers first, even when both register at the same moment: each side
/// records its registration before it looks at the other's (see Docs/ThreadSafety.md).
@Suite struct ShadowingRaceTests {
    private final class AppWide: Sendable {}
    private struct Overridden: Sendable { let owner: String }

    /// With `childProvides`, the child provides its value instead: a store that only provides
    /// values is not on its parent's list, so it learns of the parent's registration from the
    /// parent's count of registrations (`StoreCore.registrationGeneration`), on its next resolve.
    /// Its threads are awaited off the concurrency pool, which other suites' awaits need.
    @Test(arguments: [false, true])
    func aParentAndAChildRegisteringTheSameTypeAtOnceLeaveTheChildNotSharing(childProvides: Bool) async {
        let failures = Counter()
        for _ in 0..<300 {
            let parent = DependencyStore()
            parent.register(AppWide.self, scope: .singleton) { _ in AppWide() }
            let child = DependencyStore(parent: parent)
            let finished = await onManyThreadsAwaitingThem(threads: 2) { thread in
                if thread == 0 {
                    parent.register(Overridden(owner: "parent"), for: Overridden.self)
                } else if childProvides {
                    child.provide(Overridden(owner: "child"), for: Overridden.self)
                } else {
                    child.register(Overridden(owner: "child"), for: Overridden.self)
                }
            }
            guard finished else { return }
            if child.resolve(AppWide.self) === parent.resolve(AppWide.self) { failures.increment() }
        }
        #expect(failures.value == 0, "the child kept sharing in \(failures.value) of 300 rounds")
    }

    @Test func aChildThatRegistersWhatTheParentRegisteredBeforeStopsSharing() {
        let parent = DependencyStore()
        parent.register(AppWide.self, scope: .singleton) { _ in AppWide() }
        parent.register(Overridden(owner: "parent"), for: Overridden.self)
        let child = DependencyStore(parent: parent)
        let sharing = DependencyStore(parent: parent)
        child.register(Overridden(owner: "child"), for: Overridden.self)
        sharing.register(7, for: Int.self)

        #expect(child.resolve(AppWide.self) !== parent.resolve(AppWide.self))
        #expect(sharing.resolve(AppWide.self) === parent.resolve(AppWide.self), "a type no ancestor registers")
    }
}
