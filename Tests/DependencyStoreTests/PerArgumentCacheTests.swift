import DependencyStore
import Foundation
import Testing

/// A document's model, one per document id when cached per argument.
final class DocumentModel: Closable, Sendable {
    let id: Int
    let kind: String
    let closes = Counter()
    let log: CloseLog?

    init(id: Int, kind: String = "", log: CloseLog? = nil) {
        self.id = id
        self.kind = kind
        self.log = log
    }

    func close() {
        closes.increment()
        log?.append("\(kind)\(id)")
    }
}

/// An argument type that is not `Hashable`.
final class OpenPanel {}

@Suite struct PerArgumentCacheTests {
    @Test func aCachedRegistrationKeepsOneInstancePerDistinctArgumentValue() {
        let store = DependencyStore()
        let builds = Counter()
        store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in
            builds.increment()
            return DocumentModel(id: id)
        }
        .cachedPerArgument()

        let one = store.resolve(DocumentModel.self, arguments: 1)
        let two = store.resolve(DocumentModel.self, arguments: 2)

        #expect(one.id == 1)
        #expect(two.id == 2)
        #expect(store.resolve(DocumentModel.self, arguments: 1) === one)
        #expect(store.resolve(DocumentModel.self, arguments: 2) === two)
        #expect(builds.value == 2)
        #expect(store.registrations.first?.keptInstances == 2)
        #expect(store.registrations.first?.description.hasSuffix("2 instances kept") == true)
    }

    @Test func withoutItTheFirstInstanceIsHandedToEveryLaterResolve() {
        let store = DependencyStore()
        store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in DocumentModel(id: id) }

        let one = store.resolve(DocumentModel.self, arguments: 1)

        #expect(store.resolve(DocumentModel.self, arguments: 2) === one)
    }

    @Test func valuesOfSeveralArgumentsAreToldApartByEveryArgument() {
        let store = DependencyStore()
        store.register(DocumentModel.self, scope: .singleton) { (_, id: Int, kind: String?) in
            DocumentModel(id: id, kind: kind ?? "none")
        }
        .cachedPerArgument()

        let a = store.resolve(DocumentModel.self, arguments: 1, "a" as String?)
        let b = store.resolve(DocumentModel.self, arguments: 1, "b" as String?)
        let none = store.resolve(DocumentModel.self, arguments: 1, nil as String?)

        #expect(a !== b)
        #expect(b !== none)
        #expect(store.resolve(DocumentModel.self, arguments: 1, "a" as String?) === a)
        #expect(store.resolve(DocumentModel.self, arguments: 1, nil as String?) === none)
        #expect(none.kind == "none")
    }

    @Test(.onThreadsOfItsOwn) func eightThreadsAskingForSeveralValuesBuildEachValueOnce() {
        let values = 5
        for round in 0..<20 {
            let store = DependencyStore()
            let builds = Recorded<[Int: Int]>([:])
            store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in
                spin(microseconds: 200)
                builds.update { $0[id, default: 0] += 1 }
                return DocumentModel(id: id)
            }
            .cachedPerArgument()
            let seen = Recorded<[Int: Set<ObjectIdentifier>]>([:])
            onManyThreads(threads: 8) { _, thread in
                for step in 0..<values {
                    let id = (thread + step) % values
                    let model = store.resolve(DocumentModel.self, arguments: id)
                    seen.update { _ = $0[id, default: []].insert(ObjectIdentifier(model)) }
                }
            }

            #expect(builds.value == Dictionary(uniqueKeysWithValues: (0..<values).map { ($0, 1) }), "round \(round)")
            #expect(seen.value.values.allSatisfy { $0.count == 1 }, "round \(round)")
        }
    }

    @Test func aLimitLetsGoOfTheLeastRecentlyUsedAndClosesIt() {
        let store = DependencyStore()
        store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in DocumentModel(id: id) }
            .cachedPerArgument(limit: 2)
        let one = store.resolve(DocumentModel.self, arguments: 1)
        let two = store.resolve(DocumentModel.self, arguments: 2)
        _ = store.resolve(DocumentModel.self, arguments: 1)

        let three = store.resolve(DocumentModel.self, arguments: 3)

        #expect(two.closes.value == 1)
        #expect(one.closes.value == 0)
        #expect(three.closes.value == 0)
        #expect(store.resolve(DocumentModel.self, arguments: 1) === one)
        #expect(store.resolve(DocumentModel.self, arguments: 2) !== two)
        #expect(store.registrations.first?.keptInstances == 2)
    }

    @Test func aResetOfTheScopeClosesEveryValuesInstanceOnceNewestFirst() {
        let store = DependencyStore()
        let log = CloseLog()
        store.register(DocumentModel.self, scope: .session) { (_, id: Int) in DocumentModel(id: id, log: log) }
            .cachedPerArgument()
        let models = (1...3).map { store.resolve(DocumentModel.self, arguments: $0) }

        #expect(store.reset(.session) == 3)
        #expect(log.names == ["3", "2", "1"])
        #expect(models.allSatisfy { $0.closes.value == 1 })
        #expect(store.resolve(DocumentModel.self, arguments: 1) !== models[0])
        #expect(store.registrations.first?.keptInstances == 1)
    }

    @Test func aResetOfTheRegistrationAndAShutdownCloseEveryValuesInstanceOnce() async {
        let store = DependencyStore()
        store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in DocumentModel(id: id) }
            .cachedPerArgument()
        let first = (1...3).map { store.resolve(DocumentModel.self, arguments: $0) }

        #expect(store.reset(DocumentModel.self) == 3)
        #expect(first.allSatisfy { $0.closes.value == 1 })

        let second = (1...2).map { store.resolve(DocumentModel.self, arguments: $0) }
        let report = await store.shutdown(timeout: poolDeadline)

        #expect(report.closed == 2)
        #expect(second.allSatisfy { $0.closes.value == 1 })
        #expect(first.allSatisfy { $0.closes.value == 1 })
    }

    @Test func unregisterAndTheStoresEndCloseEveryValuesInstance() {
        let log = CloseLog()
        do {
            let store = DependencyStore()
            store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in
                DocumentModel(id: id, kind: "a", log: log)
            }
            .cachedPerArgument()
            store.register(DocumentModel.self, name: "b", scope: .singleton) { (_, id: Int) in
                DocumentModel(id: id, kind: "b", log: log)
            }
            .cachedPerArgument()
            _ = store.resolve(DocumentModel.self, arguments: 1)
            _ = store.resolve(DocumentModel.self, arguments: 2)
            _ = store.resolve(DocumentModel.self, name: "b", arguments: 1)
            _ = store.resolve(DocumentModel.self, name: "b", arguments: 2)

            store.unregister(DocumentModel.self)
            #expect(log.names == ["a2", "a1"])
        }
        #expect(log.names == ["a2", "a1", "b2", "b1"])
    }

    @Test func eachValuesInstanceExpiresOnItsOwn() {
        let clock = ManualCacheClock()
        let store = DependencyStore()
        store.useCacheClock(clock)
        store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in DocumentModel(id: id) }
            .cachedPerArgument()
            .expiring(after: 10)
        let one = store.resolve(DocumentModel.self, arguments: 1)
        clock.advance(by: 6)
        let two = store.resolve(DocumentModel.self, arguments: 2)
        clock.advance(by: 6)

        #expect(store.resolve(DocumentModel.self, arguments: 2) === two)
        #expect(store.resolve(DocumentModel.self, arguments: 1) !== one)
        #expect(one.closes.value == 1)
        #expect(two.closes.value == 0)
    }

    /// A hit reads the cache under the store's lock, not behind the gate, so it never waits for
    /// another value's build.
    @Test(.onThreadsOfItsOwn) func aHitDoesNotWaitForAnotherValuesBuild() {
        let store = DependencyStore()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in
            if id == 1 {
                entered.signal()
                _ = release.wait(timeout: .now() + 2 * testDeadline)
            }
            return DocumentModel(id: id)
        }
        .cachedPerArgument()
        let cached = store.resolve(DocumentModel.self, arguments: 2)

        let building = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = store.resolve(DocumentModel.self, arguments: 1)
            building.signal()
        }
        #expect(entered.wait(timeout: .now() + testDeadline) == .success)
        let hit = DispatchSemaphore(value: 0)
        let found = Recorded<DocumentModel?>(nil)
        Thread.detachNewThread {
            found.set(store.resolve(DocumentModel.self, arguments: 2))
            hit.signal()
        }
        // The build goes on for twice this long, so a hit that waited for it cannot be in time.
        let waited = hit.wait(timeout: .now() + testDeadline)
        release.signal()
        #expect(waited == .success, "the hit waited for the build of another value")
        #expect(building.wait(timeout: .now() + 2 * testDeadline) == .success)
        if waited != .success {
            // The hit waited behind the build; once the build is released it must still end.
            #expect(hit.wait(timeout: .now() + testDeadline) == .success, "the hit never returned")
        }
        #expect(found.value === cached)
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test func aFactoryThatResolvesItsOwnRegistrationForAnotherValueIsACycle() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(DocumentModel.self, scope: .singleton) { (store, id: Int) in
                    if id > 0 { _ = store.resolve(DocumentModel.self, arguments: id - 1) }
                    return DocumentModel(id: id)
                }
                .cachedPerArgument()
                _ = store.resolve(DocumentModel.self, arguments: 1)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("DependencyStore: dependency cycle"))
        #expect(stderr.contains("builds one value at a time, so its factory cannot ask it for another value either"))
        #expect(stderr.contains("To fix: resolve what the other value needs from a registration of its own"))
    }

    @Test func aFactoryWithoutArgumentsTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(DocumentModel.self, scope: .singleton) { _ in DocumentModel(id: 0) }
                    .cachedPerArgument()
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                "cachedPerArgument() on 'DependencyStoreTests.DocumentModel' cannot apply: its factory takes no arguments"
            ))
    }

    @Test func anArgumentThatIsNotHashableTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(DocumentModel.self, scope: .singleton) { (_, id: Int, _: OpenPanel) in
                    DocumentModel(id: id)
                }
                .cachedPerArgument()
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("its argument of type OpenPanel is not Hashable"))
        #expect(stderr.contains("To fix: make the argument's type Hashable"))
    }

    @Test func aLimitThatIsNotPositiveTraps() async throws {
        let result = try await #require(
            #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                endTheProcessIfItHangs()
                let store = DependencyStore()
                store.register(DocumentModel.self, scope: .singleton) { (_, id: Int) in DocumentModel(id: id) }
                    .cachedPerArgument(limit: 0)
            }
        )
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("cachedPerArgument(limit: 0) on 'DependencyStoreTests.DocumentModel' cannot apply"))
    }
    #endif
}
