import DependencyStore
import Testing

@Suite struct ResolutionTests {
    @Test func resolveInfersTheTypeFromContext() {
        let store = DependencyStore()
        store.register(FixedClock(3), for: Clock.self)

        let clock: Clock = store.resolve()

        #expect(clock.now == 3)
    }

    @Test func aFactoryMayResolveDependenciesSeveralLevelsDeep() {
        let store = DependencyStore()
        store.register(Clock.self) { _ in FixedClock(1) }
        store.register(Greeting.self) { store in FixedGreeting("at \(store.resolve(Clock.self).now)") }
        store.register(Banner.self) { store in Banner(greeting: store.resolve(), clock: store.resolve()) }

        #expect(store.resolve(Banner.self).text == "at 1 @1")
    }

    @Test func aFactoryMayRegisterWhileItRuns() {
        let store = DependencyStore()
        store.register(Greeting.self) { store in
            store.register(FixedClock(9), for: Clock.self)
            return FixedGreeting("registered a clock")
        }

        _ = store.resolve(Greeting.self)

        #expect(store.resolve(Clock.self).now == 9)
    }

    @Test func theSameTypeTwiceOnOneChainButInDifferentStoresIsNotACycle() {
        let outer = DependencyStore()
        let inner = DependencyStore()
        inner.register(FixedGreeting("inner"), for: Greeting.self)
        outer.register(Greeting.self) { _ in FixedGreeting("outer wraps " + inner.resolve(Greeting.self).text) }

        #expect(outer.resolve(Greeting.self).text == "outer wraps inner")
    }

    @Test func tryResolveThrowsTheMissingRegistrationDiagnostic() throws {
        let store = DependencyStore()
        store.register(FixedClock(1), for: Clock.self)

        let error = thrownError(ResolutionError.self) { try store.tryResolve(Greeting.self) }

        let diagnostic = try #require(error)
        #expect(diagnostic.kind == .notRegistered)
        #expect(diagnostic.typeName == "DependencyStoreTests.Greeting")
        #expect(diagnostic.description.contains("no registration for 'DependencyStoreTests.Greeting'"))
        #expect(diagnostic.description.contains("ResolutionTests.swift"))
        #expect(diagnostic.description.contains("1 registration"))
        #expect(diagnostic.description.contains("To fix"))
    }

    @Test func tryResolveReturnsTheValueWhenRegistered() throws {
        let store = DependencyStore()
        store.register(FixedGreeting("ok"), for: Greeting.self)

        #expect(try store.tryResolve(Greeting.self).text == "ok")
    }

    @Test func tryResolveInsideAFactoryThrowsTheCycleWithItsWholeChain() throws {
        let store = DependencyStore()
        let caught = CaughtErrors()
        store.register(Greeting.self) { store in
            _ = store.resolve(Clock.self)
            return FixedGreeting("g")
        }
        store.register(Clock.self) { store in
            do throws(ResolutionError) {
                _ = try store.tryResolve(Greeting.self)
            } catch {
                caught.append(error)
            }
            return FixedClock(0)
        }

        _ = store.resolve(Greeting.self)

        let error = try #require(caught.errors.first)
        #expect(error.kind == .cycle)
        #expect(
            error.chain == [
                "DependencyStoreTests.Greeting", "DependencyStoreTests.Clock", "DependencyStoreTests.Greeting",
            ])
        #expect(
            error.description.contains(
                "dependency cycle: DependencyStoreTests.Greeting -> DependencyStoreTests.Clock -> DependencyStoreTests.Greeting"
            ))
    }

    @Test func aChainDeeperThanTheThreadFirstMadeRoomForStillFindsACycleBackToItsFirstLink() throws {
        // 40 links: more frames than a thread's stack starts with, so it grows mid-chain.
        let store = DependencyStore()
        let caught = CaughtErrors()
        let depth = 40
        for link in 0..<depth {
            store.register(Session.self, name: "\(link)") { store in
                if link + 1 < depth {
                    _ = store.resolve(Session.self, name: "\(link + 1)")
                } else {
                    do throws(ResolutionError) {
                        _ = try store.tryResolve(Session.self, name: "0")
                    } catch {
                        caught.append(error)
                    }
                }
                return Session(link)
            }
        }

        #expect(store.resolve(Session.self, name: "0").number == 0)

        let error = try #require(caught.errors.first)
        #expect(error.kind == .cycle)
        #expect(error.chain.count == depth + 1)
        // Every frame went with its resolve: a frame left over would make this one a cycle.
        #expect(store.resolve(Session.self, name: "0").number == 0)
        #expect(caught.errors.count == 2)
    }

    @Test func missingDiagnosticNamesTheChainThatNeededIt() throws {
        let store = DependencyStore()
        let caught = CaughtErrors()
        store.register(Banner.self) { store in
            do throws(ResolutionError) {
                _ = try store.tryResolve(Clock.self)
            } catch {
                caught.append(error)
            }
            return Banner(greeting: FixedGreeting(""), clock: FixedClock(0))
        }

        _ = store.resolve(Banner.self)

        let error = try #require(caught.errors.first)
        #expect(error.chain == ["DependencyStoreTests.Banner", "DependencyStoreTests.Clock"])
        #expect(error.description.contains("While building: DependencyStoreTests.Banner -> DependencyStoreTests.Clock"))
    }
}

final class CaughtErrors: @unchecked Sendable {
    private(set) var errors: [ResolutionError] = []
    func append(_ error: ResolutionError) { errors.append(error) }
}
