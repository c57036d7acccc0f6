import DependencyStore
import Foundation
import Testing

protocol Plugin: AnyObject {
    var id: String { get }
}

final class NamedPlugin: Plugin {
    let id: String
    init(_ id: String) { self.id = id }
}

/// Needs every plugin through its initialiser, as an app's plugin host would.
final class PluginHost {
    let plugins: [Plugin]
    init(plugins: [Plugin]) { self.plugins = plugins }
}

/// Needs every plugin through an @Injected property.
final class InjectedPluginHost {
    @Injected var plugins: [Plugin]
    @Injected var byName: [String: Plugin]
}

struct CollectionTests {
    @Test func elementsComeBackInTheOrderContributedEachWithItsOwnScope() {
        let store = DependencyStore()
        let built = Counter()
        store.contribute(NamedPlugin("console"), to: Plugin.self)
        store.contribute(Plugin.self, name: "file", scope: .singleton) { _ in
            built.increment()
            return NamedPlugin("file")
        }
        store.contribute(NamedPlugin("remote"), to: Plugin.self)

        let first = store.resolveAll(Plugin.self)
        let second = store.resolveAll(Plugin.self)

        #expect(first.map(\.id) == ["console", "file", "remote"])
        #expect(first[1] === second[1], "the .singleton element is kept")
        #expect(first[0] !== second[0], "the .unique element is built again")
        #expect(built.value == 1)
    }

    @Test func theArrayAndTheDictionaryResolveLikeAnyDependency() {
        let store = DependencyStore()
        store.contribute(NamedPlugin("console"), to: Plugin.self)
        store.contribute(NamedPlugin("file"), to: Plugin.self, name: "file", scope: .singleton)
        store.register(PluginHost.self) { store in PluginHost(plugins: store.resolve()) }

        #expect(store.resolve(PluginHost.self).plugins.map(\.id) == ["console", "file"])
        let byName: [String: Plugin] = store.resolve()
        #expect(byName.keys.sorted() == ["file"], "only named elements have a key")
        #expect(byName["file"] === store.resolveAll(Plugin.self)[1])

        let host = store.execute { InjectedPluginHost() }
        #expect(host.plugins.map(\.id) == ["console", "file"])
        #expect(host.byName["file"]?.id == "file")
        #expect(store.isRegistered([Plugin].self))
        #expect(store.isRegistered([String: Plugin].self))
    }

    @Test func anEmptyCollectionIsEmptyForResolveAllAndMissingForResolve() {
        let store = DependencyStore()
        #expect(store.resolveAll(Plugin.self).isEmpty)
        #expect(store.resolveIfRegistered([Plugin].self) == nil)
        #expect(!store.isRegistered([Plugin].self))
        do {
            _ = try store.tryResolve([Plugin].self)
            Issue.record("an empty collection resolved")
        } catch {
            #expect(error.kind == .notRegistered)
            #expect(error.description.contains("'Array<Plugin>' is the collection of 'Plugin': nothing is contributed"))
            #expect(error.description.contains("contribute(Plugin(), to: Plugin.self)"))
            #expect(!error.description.contains("register("), "an array is contributed to, not registered")
        }
    }

    @Test func aRegistrationOfTheArrayTypeWinsOverContributions() {
        let store = DependencyStore()
        store.contribute(NamedPlugin("contributed"), to: Plugin.self)
        store.register([NamedPlugin("registered")] as [Plugin], for: [Plugin].self)
        #expect(store.resolve([Plugin].self).map(\.id) == ["registered"])
        #expect(store.resolveAll(Plugin.self).map(\.id) == ["contributed"])
    }

    @Test func aNameContributedAgainReplacesThatElementInPlace() {
        let store = DependencyStore()
        store.contribute(NamedPlugin("a"), to: Plugin.self, name: "a")
        store.contribute(NamedPlugin("b"), to: Plugin.self, name: "b")
        store.contribute(NamedPlugin("a2"), to: Plugin.self, name: "a")
        #expect(store.resolveAll(Plugin.self).map(\.id) == ["a2", "b"])
    }

    @Test func aChildSeesItsParentsElementsFirstAndReplacesThemByName() {
        let parent = DependencyStore()
        parent.contribute(NamedPlugin("live-console"), to: Plugin.self, name: "console")
        parent.contribute(NamedPlugin("live-file"), to: Plugin.self, name: "file", scope: .singleton)
        let child = DependencyStore(parent: parent)
        child.contribute(NamedPlugin("mock-console"), to: Plugin.self, name: "console")
        child.contribute(NamedPlugin("extra"), to: Plugin.self)

        #expect(child.resolveAll(Plugin.self).map(\.id) == ["mock-console", "live-file", "extra"])
        #expect(parent.resolveAll(Plugin.self).map(\.id) == ["live-console", "live-file"])
        // A kept element inherited from the parent is kept in the child's own slot.
        #expect(child.resolveAll(Plugin.self)[1] !== parent.resolveAll(Plugin.self)[1])
        #expect(child.resolveAll(Plugin.self)[1] === child.resolveAll(Plugin.self)[1])
    }

    @Test func elementsFromSeveralAssembliesAddUp() {
        struct Analytics: Assembly {
            func assemble(into store: DependencyStore) {
                store.contribute(NamedPlugin("analytics"), to: Plugin.self)
            }
        }
        struct Crash: Assembly {
            func assemble(into store: DependencyStore) {
                store.contribute(NamedPlugin("crash"), to: Plugin.self)
            }
        }
        let store = DependencyStore()
        store.apply(Analytics(), Crash())
        #expect(store.resolveAll(Plugin.self).map(\.id) == ["analytics", "crash"])
    }

    @Test func anElementThatNeedsItsOwnCollectionIsACycle() throws {
        let store = DependencyStore()
        store.contribute(Plugin.self) { store in
            // An element that wants its siblings: a cycle through itself.
            _ = try? store.tryResolve([Plugin].self)
            return NamedPlugin("x")
        }
        store.register(PluginHost.self) { store in PluginHost(plugins: store.resolve()) }
        // Only the outer resolve is checked by tryResolve; the cycle is inside the element's
        // factory, so ask verify(), which records it instead of trapping.
        let report = store.verify()
        #expect(report.problems.contains { $0.kind == .cycle })
    }

    @Test func verifyBuildsAndDrawsEveryElement() {
        let store = DependencyStore()
        store.register(Greeting.self) { _ in FixedGreeting("hi") }
        store.contribute(NamedPlugin("console"), to: Plugin.self)
        store.contribute(Plugin.self, name: "greeter") { store in
            NamedPlugin(store.resolve(Greeting.self).text)
        }
        store.contribute(Plugin.self, name: "broken") { store in
            _ = store.resolve(Clock.self)
            return NamedPlugin("broken")
        }
        store.register(PluginHost.self) { store in PluginHost(plugins: store.resolve()) }

        let report = store.verify()

        #expect(report.verifiedCount == 5)
        let missing = report.problems.filter { $0.kind == .missing }
        #expect(missing.count == 1)
        #expect(missing.first?.description.contains("[Plugin] element \"broken\" -> Clock") == true)
        let hostEdges = report.graph.edges.filter { $0.from.type == "PluginHost" }
        #expect(hostEdges.count == 3, "the host depends on each element")
        #expect(hostEdges.allSatisfy { $0.to.isContribution })
        #expect(
            report.graph.edges.contains {
                $0.from.description == "[Plugin] element \"greeter\"" && $0.to.type == "Greeting"
            })
    }

    @Test func verifyFollowsAnInjectedCollection() {
        final class Holder {
            @Injected var plugins: [Plugin]
        }
        let store = DependencyStore()
        store.contribute(NamedPlugin("a"), to: Plugin.self)
        store.register(Holder.self) { _ in Holder() }
        let report = store.verify()
        #expect(report.isClean, "\(report)")
        #expect(report.graph.edges.contains { $0.from.type == "Holder" && $0.to.isContribution && $0.isLazy })
    }

    @Test func theListingShowsElements() {
        let store = DependencyStore()
        store.contribute(NamedPlugin("a"), to: Plugin.self)
        store.contribute(NamedPlugin("b"), to: Plugin.self, name: "b", scope: .singleton)
        let entries = store.registrations.filter(\.isContribution)
        #expect(entries.count == 2)
        #expect(
            entries.map(\.description).contains {
                $0.hasPrefix("element of [Plugin] named \"b\", .singleton, contributed at DependencyStoreTests/")
            })
    }

    @Test func anObservedStoreReportsEachElementItBuildsDecoratorsIncluded() {
        let store = DependencyStore()
        store.contribute(NamedPlugin("a"), to: Plugin.self, name: "a")
        store.contribute(NamedPlugin("b"), to: Plugin.self, name: "b", scope: .singleton)
        store.decorate(every: Plugin.self) { _, plugin in NamedPlugin(plugin.id + "!") }
        let names = Recorded<[String?]>([])
        let observation = store.observeResolves { event in
            if event.build != nil { names.update { $0.append(event.name) } }
        }
        #expect(store.resolveAll(Plugin.self).map(\.id) == ["a!", "b!"])
        observation.cancel()
        #expect(names.value == ["a", "b"])
    }

    @Test(.onThreadsOfItsOwn) func contributionsRacingResolvesNeverTearTheCollection() {
        // Elements are contributed on some threads while others resolve the collection: every
        // resolve sees a prefix of the contributions, in order, each element built completely.
        let store = DependencyStore()
        let rounds = 60
        onManyThreads(threads: 6) { _, thread in
            for index in 0..<rounds {
                if thread < 2 {
                    let id = "\(thread)-\(index)"
                    store.contribute(Plugin.self, scope: index.isMultiple(of: 2) ? .singleton : .unique) { _ in
                        // Real work, so builds overlap with contributions.
                        var spin = 0
                        for step in 0..<1_000 { spin &+= step }
                        return NamedPlugin(spin == 0 ? "" : id)
                    }
                } else {
                    let ids = store.resolveAll(Plugin.self).map(\.id)
                    for owner in 0..<2 {
                        let mine = ids.filter { $0.hasPrefix("\(owner)-") }.map { Int($0.dropFirst(2))! }
                        #expect(mine == Array(0..<mine.count), "a prefix, in order")
                    }
                }
            }
        }
        #expect(store.resolveAll(Plugin.self).count == 2 * rounds)
    }
}
