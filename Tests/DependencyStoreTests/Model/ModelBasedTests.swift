import DependencyStore
import Testing

/// Random sequences of registrations, resolves, resets, assemblies, decorators, forwards,
/// collections and `@Injected` reads, run on real stores and on a reference model of the docs
/// (`ModelReference`), compared after every step: which instance each resolve returned (by
/// identity) and how often every factory and decorator has run. See `ModelCheck.swift` for the
/// environment variables of longer runs.
///
/// Found by these tests and fixed: `.graph` was not shared across the elements of one collection
/// resolve; two `decorate` calls from one source line kept only the last; a shared build set aside
/// for a value of the asking store's own was rebuilt with a `.graph` of its own, not the resolve's.
/// Corrected in the model, where the store was right: the model held what a set-aside build
/// resolved until the whole operation ended, where the store lets go of it once the asking store's
/// own build has returned, so a `.weak` instance only it held is built anew by a later resolve
/// (seed 2204 of `MODEL_SEEDS=3000`; the store now keeps the set-aside instance to that point
/// explicitly).
///
/// Decided after these tests showed the docs left them open (Composition.md now says each):
/// `[String: T]` when only unnamed elements exist is missing, and traps; unloading an assembly
/// that decorated T discards the kept T instances (`.weak` ones too) that one of its decorators
/// applies to, in the store and those layered over it, and no others; an assembly applied again
/// replaces the decorators its earlier application added, call for call.
///
/// Taught with the sharing rule's cases that issue 36 decided (Lifetimes.md says each; each has its
/// smallest sequence below, as the generated sequences reach some of them seldom): a store that
/// changes nothing shares the copy of a store between that keeps one; a store that stopped sharing
/// never shares again; a shared build inside another that reaches a deeper store's value is built
/// again only there; a `.graph` instance holding a layer's value makes the shared build that takes
/// it that layer's; `resolveIfRegistered` in a shared build falls back to the layer's value. The
/// generator gives three sequences in four a server's shape (types only child stores register, and
/// asks through the stores nothing is layered over), and factories ask for what may be absent.
///
/// Taught `provide(_:for:name:)` (at top level, in assemblies and in factories, named or not): a
/// provided value is a registration whose every resolve, from any store that finds it, hands out
/// the one value, decorated at each resolve as a `.unique` registration's value is, never kept in a
/// slot (so `reset` never counts it), and replaced, unregistered, unloaded and listed (as a
/// provided value, `store.registrations`) like any other registration.
///
/// Still open, so the model refuses it and no sequence contains it (see
/// `ModelReference.Refusal.undecided`): what a store keeps of an ancestor's cached registration
/// once it (or a store between them) registers the same type and name itself: whether that
/// instance stays, is counted by `reset`, and comes back should the store's own registration go
/// (the store keeps it).
@Suite struct ModelBasedTests {
    @Test(.onThreadsOfItsOwn) func randomSequencesBehaveAsTheDocsSay() {
        let configuration = ModelRunConfiguration.current
        for (seed, operations) in configuration.sequences {
            ModelCheck.expectAgreement(operations, seed: seed)
        }
    }

    @Test func aSeedAlwaysMakesTheSameSequence() {
        let first = ModelGenerator.sequence(seed: 7, count: 60)
        #expect(first == ModelGenerator.sequence(seed: 7, count: 60))
        #expect(first != ModelGenerator.sequence(seed: 8, count: 60))
    }

    /// The generator reaches every kind of operation, scope and request with the default seeds,
    /// so that a change that made it skip one (the model refusing too much, say) is seen.
    @Test(.onThreadsOfItsOwn) func theDefaultSeedsCoverEveryOperation() {
        var kinds: Set<String> = []
        var scopes: Set<ModelScope> = []
        var requests: Set<ModelRequest> = []
        var features: Set<String> = []
        for (_, operations) in ModelRunConfiguration.defaultSequences {
            var model = ModelReference()
            for operation in operations {
                _ = try? model.perform(operation)
                kinds.insert(operation.kind)
                switch operation {
                case .register(_, let registration), .contribute(_, let registration):
                    scopes.insert(registration.scope)
                    if registration.autoclosure { features.insert("autoclosure") }
                    if registration.provided { features.insert("provide") }
                    for effect in registration.effects {
                        if case .reset = effect {
                            features.insert("reset in a factory")
                        } else {
                            features.insert("register in a factory")
                        }
                    }
                case .resolve(_, let request, let keep, let viaExecute):
                    switch request {
                    case .one: requests.insert(.one(.a, name: nil))
                    case .optional: requests.insert(.optional(.a, name: nil))
                    default: requests.insert(request)
                    }
                    if keep { features.insert("keep") }
                    if viaExecute { features.insert("execute") }
                case .decorate(_, let decorator):
                    features.insert(decorator.wraps ? "wrapping decorator" : "marking decorator")
                    if decorator.sharedLine { features.insert("shared line") }
                case .apply(_, let assemblies):
                    let steps = assemblies.flatMap(\.steps)
                    if steps.contains(where: { if case .apply = $0 { true } else { false } }) {
                        features.insert("nested assembly")
                    }
                default:
                    break
                }
            }
            if model.sharedBuilds > 0 { features.insert("shared build") }
            if model.buildsThatReachedALayersValue > 0 { features.insert("shared build reaching a child's value") }
            if model.buildsInACopyKeeper > 0 { features.insert("shared copy of a store between") }
            if model.providedValuesHandedOutThroughALayer > 0 { features.insert("provided value through a layer") }
            if model.providedValuesDecorated > 0 { features.insert("provided value decorated") }
            if model.providedValuesReachedByASharedBuild > 0 {
                features.insert("provided value reached by a shared build")
            }
            if model.providedValuesRemoved > 0 { features.insert("provided value removed") }
        }
        let everyKind = [
            "makeChild", "register", "contribute", "forward", "decorate", "unregister", "reset", "apply", "unload",
            "resolve", "makeHolder", "readHolder", "dropHeld", "list",
        ]
        #expect(kinds == Set(everyKind))
        #expect(scopes == Set(ModelScope.allCases))
        #expect(requests == [.one(.a, name: nil), .optional(.a, name: nil), .all, .array, .dictionary])
        #expect(
            features == [
                "autoclosure", "provide", "keep", "execute", "wrapping decorator", "marking decorator", "shared line",
                "nested assembly", "reset in a factory", "register in a factory", "shared build",
                "shared build reaching a child's value", "shared copy of a store between",
                "provided value through a layer", "provided value decorated",
                "provided value reached by a shared build", "provided value removed",
            ])
    }

    // MARK: - Bugs the model found, each as its smallest sequence

    @Test func aGraphIsSharedAcrossTheElementsOfACollection() {
        // Lifetimes.md: `.graph` is "one instance per top-level resolve, shared by everything
        // built during that resolve". Each element's factory resolves ModelA, a `.graph`: one
        // `resolveAll` builds one ModelA.
        let operations: [ModelOperation] = [
            .register(store: 0, .init(factory: 1, type: .a, name: nil, scope: .graph, recipe: [], autoclosure: false)),
            .contribute(store: 0, element(2, recipe: [.one(.a, name: nil)])),
            .contribute(store: 0, element(3, recipe: [.one(.a, name: nil)])),
            .resolve(store: 0, .all, keep: false, viaExecute: false),
        ]
        ModelCheck.expectAgreement(operations)
    }

    @Test func decoratorsFromOneSourceLineAllRun() {
        // Composition.md: "Several decorators run in the order added"; those added from one call
        // site (a loop, a helper) too.
        let operations: [ModelOperation] = [
            .register(store: 0, .init(factory: 1, type: .a, name: nil, scope: .unique, recipe: [], autoclosure: false)),
            .decorate(store: 0, marking(2, sharedLine: true)),
            .decorate(store: 0, marking(3, sharedLine: true)),
            .resolve(store: 0, .one(.a, name: nil), keep: false, viaExecute: false),
        ]
        ModelCheck.expectAgreement(operations)
    }

    @Test func decoratorsFromLinesOfTheirOwnAllRun() {
        // The same two decorators from lines of their own both run.
        let operations: [ModelOperation] = [
            .register(store: 0, .init(factory: 1, type: .a, name: nil, scope: .unique, recipe: [], autoclosure: false)),
            .decorate(store: 0, marking(2, sharedLine: false)),
            .decorate(store: 0, marking(3, sharedLine: false)),
            .resolve(store: 0, .one(.a, name: nil), keep: false, viaExecute: false),
        ]
        ModelCheck.expectAgreement(operations)
    }

    @Test func aRebuildForAStoreOverTheOwnerSharesTheGraphOfItsResolve() {
        // Lifetimes.md: a shared build that reaches a value of the asking store's own is built
        // again in that store, within the same resolve, so the `.graph` value the fall-back built
        // is the one the rebuild gets. Here the owner's decorator of ModelC resolves ModelB, a
        // `.graph` only the child registers: one ModelB per resolve, not two.
        let decorator = ModelDecorator(
            id: 3, type: .c, target: .every, wraps: true, recipe: [.one(.b, name: nil)], sharedLine: false)
        let operations: [ModelOperation] = [
            .decorate(store: 0, decorator),
            .makeChild(store: 1, parent: 0),
            .register(store: 1, .init(factory: 6, type: .b, name: nil, scope: .graph, recipe: [], autoclosure: false)),
            .register(
                store: 0, .init(factory: 10, type: .c, name: nil, scope: .singleton, recipe: [], autoclosure: false)),
            .resolve(store: 1, .one(.c, name: nil), keep: false, viaExecute: false),
        ]
        ModelCheck.expectAgreement(operations)
    }

    // MARK: - The sharing rule's decided cases, each as its smallest sequence

    @Test func aStoreThatChangesNothingSharesTheCopyOfAStoreBetween() {
        // Lifetimes.md: "A store that changes nothing, layered over one that keeps its own copy,
        // shares that copy." s1 overrides ModelA, so it builds its own ModelB; s2, over it, shares
        // that one: ModelB's factory runs once for both.
        let operations: [ModelOperation] = [
            .register(store: 0, registration(1, .a, .unique)),
            .register(store: 0, registration(2, .b, .singleton, recipe: [.one(.a, name: nil)])),
            .makeChild(store: 1, parent: 0),
            .register(store: 1, registration(3, .a, .unique)),
            .makeChild(store: 2, parent: 1),
            .resolve(store: 2, .one(.b, name: nil), keep: false, viaExecute: false),
            .resolve(store: 1, .one(.b, name: nil), keep: false, viaExecute: false),
            .reset(store: 2, .singleton),
            .reset(store: 1, .singleton),
        ]
        #expect(model(after: operations).buildsInACopyKeeper == 1)
        ModelCheck.expectAgreement(operations)
    }

    @Test func aStoreThatStoppedSharingKeepsItsCopyWhenItsDecoratorIsUnloaded() {
        // Lifetimes.md: "once a store has changed something, it builds its own copies for the rest
        // of its life, even after the change is removed".
        let decorator = ModelDecorator(
            id: 3, type: .a, target: .every, wraps: false, recipe: [], sharedLine: false)
        let operations: [ModelOperation] = [
            .register(store: 0, registration(1, .a, .unique)),
            .register(store: 0, registration(2, .b, .singleton, recipe: [.one(.a, name: nil)])),
            .makeChild(store: 1, parent: 0),
            .apply(store: 1, [ModelAssembly(kind: 0, steps: [.decorate(decorator)])]),
            .resolve(store: 1, .one(.b, name: nil), keep: false, viaExecute: false),
            .unload(store: 1, assembly: 0),
            .resolve(store: 1, .one(.b, name: nil), keep: false, viaExecute: false),
            .reset(store: 1, .singleton),
        ]
        ModelCheck.expectAgreement(operations)
    }

    @Test func aSharedBuildInsideAnotherThatReachesADeeperStoresValueIsNotBuiltAgainInTheMiddle() {
        // Lifetimes.md: s2 asks for s1's ModelC, whose factory resolves the root's ModelB, whose
        // factory resolves s2's ModelA. Both builds are set aside and made again in s2; s1, which
        // cannot see ModelA either, builds nothing again.
        let operations: [ModelOperation] = [
            .register(store: 0, registration(1, .b, .singleton, recipe: [.one(.a, name: nil)])),
            .makeChild(store: 1, parent: 0),
            .register(store: 1, registration(2, .c, .singleton, recipe: [.one(.b, name: nil)])),
            .makeChild(store: 2, parent: 1),
            .register(store: 2, registration(3, .a, .unique)),
            .resolve(store: 2, .one(.c, name: nil), keep: false, viaExecute: false),
            .resolve(store: 2, .one(.c, name: nil), keep: false, viaExecute: false),
            .reset(store: 1, .singleton),
            .reset(store: 0, .singleton),
        ]
        #expect(model(after: operations).nestedBuildsHandedOver == 1)
        ModelCheck.expectAgreement(operations)
    }

    @Test func aGraphInstanceHoldingARequestsValueMakesTheNextSharedBuildThatTakesItPerRequest() {
        // Lifetimes.md: the root's ModelB, a `.graph`, resolves s1's ModelA; the root's ModelC and
        // ModelElement both take it, in one resolve of ModelD through s1. Both are s1's.
        let operations: [ModelOperation] = [
            .register(store: 0, registration(1, .b, .graph, recipe: [.one(.a, name: nil)])),
            .register(store: 0, registration(2, .c, .singleton, recipe: [.one(.b, name: nil)])),
            .register(store: 0, registration(3, .element, .singleton, recipe: [.one(.b, name: nil)])),
            .register(
                store: 0, registration(4, .d, .unique, recipe: [.one(.c, name: nil), .one(.element, name: nil)])),
            .makeChild(store: 1, parent: 0),
            .register(store: 1, registration(5, .a, .unique)),
            .resolve(store: 1, .one(.d, name: nil), keep: false, viaExecute: false),
            .reset(store: 0, .singleton),
            .reset(store: 1, .singleton),
        ]
        #expect(model(after: operations).graphInstancesTakenWithALayersValue == 1)
        ModelCheck.expectAgreement(operations)
    }

    @Test func anOptionalAskInASharedBuildFallsBackToTheRequestsValue() {
        // Lifetimes.md: `resolveIfRegistered` in the root's ModelB finds s1's ModelA, so ModelB is
        // s1's; through s2, which has none, it is nil, and s2's own.
        let operations: [ModelOperation] = [
            .register(store: 0, registration(1, .b, .singleton, recipe: [.optional(.a, name: nil)])),
            .makeChild(store: 1, parent: 0),
            .register(store: 1, registration(2, .a, .unique)),
            .makeChild(store: 2, parent: 0),
            .resolve(store: 1, .one(.b, name: nil), keep: false, viaExecute: false),
            .resolve(store: 2, .one(.b, name: nil), keep: false, viaExecute: false),
            .reset(store: 0, .singleton),
            .reset(store: 2, .singleton),
        ]
        #expect(model(after: operations).optionalAsksAnsweredByALayer == 1)
        ModelCheck.expectAgreement(operations)
    }

    // MARK: - Provided values

    @Test func aProvidedValueIsTheSameValueThroughALayerDecoratedAtEachResolve() {
        // DependencyStore+Registration.swift: "every resolve of `type` (with `name`) hands out
        // this value"; "A decorator of `type` in scope decorates it at each resolve"; it is
        // "listed (as a provided value)" and "`reset` does not touch it". s1, a request's store,
        // provides ModelA; the root's decorator, added after the first resolve, marks the same
        // value at the next; the root's ModelB singleton that resolves it is s1's own
        // (Lifetimes.md, the sharing rule).
        let operations: [ModelOperation] = [
            .register(store: 0, registration(1, .b, .singleton, recipe: [.one(.a, name: nil)])),
            .makeChild(store: 1, parent: 0),
            .register(store: 1, provided(2, .a)),
            .resolve(store: 1, .one(.a, name: nil), keep: false, viaExecute: false),
            .decorate(
                store: 0, ModelDecorator(id: 3, type: .a, target: .every, wraps: false, recipe: [], sharedLine: false)),
            .makeHolder(holder: 1, store: 1, .one(.a, name: nil)),
            .resolve(store: 1, .one(.b, name: nil), keep: false, viaExecute: false),
            .readHolder(holder: 1),
            .list(store: 1),
            .reset(store: 1, .singleton),
            .unregister(store: 1, .a, name: nil),
            .list(store: 1),
        ]
        #expect(model(after: operations).buildsThatReachedALayersValue == 1)
        ModelCheck.expectAgreement(operations)
    }

    @Test func aProvidedValueInAnAssemblyIsReplacedAndUnloadedAsARegistration() {
        // DependencyStore+Registration.swift: "Providing again for the same type and name replaces
        // the earlier value (or registration)"; a provided value is "unloaded like any other".
        let operations: [ModelOperation] = [
            .apply(
                store: 0,
                [ModelAssembly(kind: 0, steps: [.register(provided(1, .a)), .register(provided(2, .d, name: "x"))])]),
            .resolve(store: 0, .one(.a, name: nil), keep: false, viaExecute: false),
            .register(store: 0, provided(3, .a)),
            .resolve(store: 0, .one(.a, name: nil), keep: false, viaExecute: false),
            .list(store: 0),
            .unload(store: 0, assembly: 0),
            .resolve(store: 0, .one(.a, name: nil), keep: false, viaExecute: false),
            .resolve(store: 0, .optional(.d, name: "x"), keep: false, viaExecute: false),
            .register(store: 0, registration(4, .a, .unique)),
            .resolve(store: 0, .one(.a, name: nil), keep: false, viaExecute: false),
        ]
        ModelCheck.expectAgreement(operations)
    }

    /// The model after `operations`, for what its counters say the sequence went through.
    private func model(after operations: [ModelOperation]) -> ModelReference {
        var model = ModelReference()
        for operation in operations { _ = try? model.perform(operation) }
        return model
    }

    private func registration(
        _ factory: Int, _ type: ModelType, _ scope: ModelScope, recipe: [ModelRequest] = []
    ) -> ModelRegistration {
        ModelRegistration(factory: factory, type: type, name: nil, scope: scope, recipe: recipe, autoclosure: false)
    }

    private func provided(_ value: Int, _ type: ModelType, name: String? = nil) -> ModelRegistration {
        ModelRegistration(
            factory: value, type: type, name: name, scope: .unique, recipe: [], autoclosure: false, provided: true)
    }

    private func element(_ factory: Int, recipe: [ModelRequest]) -> ModelRegistration {
        ModelRegistration(
            factory: factory, type: .element, name: nil, scope: .unique, recipe: recipe, autoclosure: false)
    }

    private func marking(_ id: Int, sharedLine: Bool) -> ModelDecorator {
        ModelDecorator(id: id, type: .a, target: .named(nil), wraps: false, recipe: [], sharedLine: sharedLine)
    }
}
