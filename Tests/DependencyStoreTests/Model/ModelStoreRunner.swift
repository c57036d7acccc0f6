import DependencyStore

// The real side of the model-based tests: the fixed test types, and a runner that performs a
// sequence of `ModelOperation`s on real stores and reports what each one showed, in the same
// terms as `ModelReference`.

/// The base of every test type: a serial number given at construction (the identity the
/// comparison pairs with the model's), what its factory resolved (or, for a wrapping decorator's
/// instance, what it wraps), and the marking decorators that ran on it.
class ModelThing {
    let serial: Int
    let parts: [ModelThing]
    var marks: [Int] = []

    required init(serial: Int, parts: [ModelThing]) {
        self.serial = serial
        self.parts = parts
    }

    class var modelType: ModelType { preconditionFailure("a ModelThing is always one of its subclasses") }
}

final class ModelA: ModelThing {
    override class var modelType: ModelType { .a }
}

final class ModelB: ModelThing {
    override class var modelType: ModelType { .b }
}

final class ModelC: ModelThing {
    override class var modelType: ModelType { .c }
}

final class ModelElement: ModelThing {
    override class var modelType: ModelType { .element }
}

final class ModelD: ModelThing {
    override class var modelType: ModelType { .d }
}

/// Types reachable only through `forward`: every test type is one, as a class serving several
/// protocols is.
protocol ModelForwardOne: AnyObject {}
protocol ModelForwardTwo: AnyObject {}

extension ModelThing: ModelForwardOne, ModelForwardTwo {}

/// An object with one `@Injected` property, as a view model made in `execute { }` has.
final class ModelHolder<Value> {
    @Injected var value: Value

    init(name: String?) {
        _value = Injected(name: name)
    }
}

/// The three assembly types: `unload` removes by type, so each kind is a type of its own. What
/// `assemble(into:)` does is data (`ModelStep`s), performed by the runner.
protocol ModelAssemblyKind: Assembly {
    init(steps: [ModelStep], perform: @escaping (ModelStep, DependencyStore) -> Void)
}

struct ModelAssemblyOne: ModelAssemblyKind {
    let steps: [ModelStep]
    let perform: (ModelStep, DependencyStore) -> Void

    func assemble(into store: DependencyStore) {
        for step in steps { perform(step, store) }
    }
}

struct ModelAssemblyTwo: ModelAssemblyKind {
    let steps: [ModelStep]
    let perform: (ModelStep, DependencyStore) -> Void

    func assemble(into store: DependencyStore) {
        for step in steps { perform(step, store) }
    }
}

struct ModelAssemblyThree: ModelAssemblyKind {
    let steps: [ModelStep]
    let perform: (ModelStep, DependencyStore) -> Void

    func assemble(into store: DependencyStore) {
        for step in steps { perform(step, store) }
    }
}

/// How often each factory and decorator ran, and the serials: shared by the closures a run
/// registers. One sequence runs on one thread, so it needs no lock.
final class ModelRunCounts {
    private(set) var factoryRuns: [Int: Int] = [:]
    private(set) var decoratorRuns: [Int: Int] = [:]
    private var lastSerial = 0

    func nextSerial() -> Int {
        lastSerial += 1
        return lastSerial
    }

    func factoryRan(_ factory: Int) {
        factoryRuns[factory, default: 0] += 1
    }

    func decoratorRan(_ decorator: Int) {
        decoratorRuns[decorator, default: 0] += 1
    }

    /// What the autoclosure form registers, and what `provide` is given: counts the run, builds a
    /// leaf.
    func leaf<T: ModelThing>(_ type: T.Type, factory: Int) -> T {
        factoryRan(factory)
        return T(serial: nextSerial(), parts: [])
    }
}

/// Performs operations on real stores. Everything a resolve returns is turned into `ModelNode`s
/// at once and let go, unless the operation keeps it: the test holds exactly what the model
/// thinks it holds, which is what decides when a `.weak` instance goes.
final class ModelStoreRunner {
    let counts = ModelRunCounts()
    private var stores: [Int: DependencyStore] = [0: DependencyStore()]
    private var held: [ModelThing] = []
    private var holders: [Int: () -> ModelObservation] = [:]

    /// Performs `operation`, which the model has accepted, and returns what it showed with the
    /// run counts so far.
    func perform(_ operation: ModelOperation) -> ModelStepResult {
        let observation = observe(operation)
        return ModelStepResult(
            observation: observation, factoryRuns: counts.factoryRuns, decoratorRuns: counts.decoratorRuns)
    }

    private func observe(_ operation: ModelOperation) -> ModelObservation {
        switch operation {
        case .makeChild(let store, let parent):
            stores[store] = DependencyStore(parent: stores[parent]!)
        case .register(let store, let registration):
            register(registration, in: stores[store]!)
        case .contribute(let store, let element):
            contribute(element, in: stores[store]!)
        case .forward(let store, let forward):
            self.forward(forward, in: stores[store]!)
        case .decorate(let store, let decorator):
            decorate(decorator, in: stores[store]!)
        case .unregister(let store, let type, let name):
            return .flag(unregister(type, name: name, in: stores[store]!))
        case .reset(let store, let scope):
            return .count(stores[store]!.reset(Self.scope(scope)))
        case .apply(let store, let assemblies):
            stores[store]!.apply(assemblies.map(assembly))
        case .unload(let store, let kind):
            return .count(stores[store]!.unload(Self.assemblyType(kind)).removed)
        case .resolve(let store, let request, let keep, let viaExecute):
            let store = stores[store]!
            let (things, keys) =
                viaExecute
                ? store.execute { Self.resolve(request, in: DependencyStore.shared) }
                : Self.resolve(request, in: store)
            if keep { held += things }
            return Self.observation(things, keys: keys)
        case .makeHolder(let holder, let store, let request):
            holders[holder] = makeHolder(request, in: stores[store]!)
        case .readHolder(let holder):
            return holders[holder]!()
        case .dropHeld:
            held = []
        case .list(let store):
            return .listing(
                stores[store]!.registrations.filter { !$0.isContribution }.map { entry in
                    ModelObservation.listed(
                        type: entry.type, name: entry.name, provided: entry.isProvidedValue,
                        forward: entry.forwardsTo != nil, inherited: entry.inheritedFrom != nil)
                })
        }
        return .nothing
    }

    // MARK: - Registering

    private func register(_ registration: ModelRegistration, in store: DependencyStore) {
        switch registration.type {
        case .a: register(ModelA.self, registration, in: store)
        case .b: register(ModelB.self, registration, in: store)
        case .c: register(ModelC.self, registration, in: store)
        case .element: register(ModelElement.self, registration, in: store)
        case .d: register(ModelD.self, registration, in: store)
        case .forwardOne, .forwardTwo: preconditionFailure("forwarded types are only forwarded")
        }
    }

    private func register<T: ModelThing>(_ type: T.Type, _ registration: ModelRegistration, in store: DependencyStore) {
        let counts = self.counts
        let scope = Self.scope(registration.scope)
        if registration.provided {
            // The value is built now, once, as the model counts it: a leaf, a run of its number.
            store.provide(counts.leaf(T.self, factory: registration.factory), for: T.self, name: registration.name)
        } else if registration.autoclosure {
            store.register(
                counts.leaf(T.self, factory: registration.factory), for: T.self, name: registration.name, scope: scope)
        } else {
            store.register(T.self, name: registration.name, scope: scope) { [unowned self] store in
                build(T.self, registration, in: store)
            }
        }
    }

    private func contribute(_ element: ModelRegistration, in store: DependencyStore) {
        let counts = self.counts
        let scope = Self.scope(element.scope)
        if element.autoclosure {
            store.contribute(
                counts.leaf(ModelElement.self, factory: element.factory), to: ModelElement.self, name: element.name,
                scope: scope)
        } else {
            store.contribute(ModelElement.self, name: element.name, scope: scope) { [unowned self] store in
                build(ModelElement.self, element, in: store)
            }
        }
    }

    /// The factory of `registration`: counts the run, resolves the recipe, has the effects on the
    /// resolving store, builds.
    private func build<T: ModelThing>(_ type: T.Type, _ registration: ModelRegistration, in store: DependencyStore) -> T
    {
        counts.factoryRan(registration.factory)
        let parts = registration.recipe.flatMap { Self.resolve($0, in: store).things }
        for effect in registration.effects {
            switch effect {
            case .reset(let scope): store.reset(Self.scope(scope))
            case .register(let registration): register(registration, in: store)
            }
        }
        return T(serial: counts.nextSerial(), parts: parts)
    }

    private func forward(_ forward: ModelForward, in store: DependencyStore) {
        switch (forward.type, forward.target) {
        case (.forwardOne, let target): self.forward(ModelForwardOne.self, forward, to: target, in: store)
        case (.forwardTwo, let target): self.forward(ModelForwardTwo.self, forward, to: target, in: store)
        default: preconditionFailure("only the forwarded types are forwarded")
        }
    }

    private func forward<F>(_ type: F.Type, _ forward: ModelForward, to target: ModelType, in store: DependencyStore) {
        let name = forward.name
        let targetName = forward.targetName
        switch target {
        case .a: store.forward(F.self, name: name, to: ModelA.self, named: targetName)
        case .b: store.forward(F.self, name: name, to: ModelB.self, named: targetName)
        case .c: store.forward(F.self, name: name, to: ModelC.self, named: targetName)
        case .element: store.forward(F.self, name: name, to: ModelElement.self, named: targetName)
        case .d: store.forward(F.self, name: name, to: ModelD.self, named: targetName)
        case .forwardOne, .forwardTwo: preconditionFailure("forwards go to registered types")
        }
    }

    private func decorate(_ decorator: ModelDecorator, in store: DependencyStore) {
        switch decorator.type {
        case .a: decorate(ModelA.self, decorator, in: store)
        case .b: decorate(ModelB.self, decorator, in: store)
        case .c: decorate(ModelC.self, decorator, in: store)
        case .element: decorate(ModelElement.self, decorator, in: store)
        case .d: decorate(ModelD.self, decorator, in: store)
        case .forwardOne: decorate((any ModelForwardOne).self, decorator, in: store)
        case .forwardTwo: decorate((any ModelForwardTwo).self, decorator, in: store)
        }
    }

    /// Each decorator is added with a line of its own (as decorators written one after another
    /// are), except those marked `sharedLine`, which come from one call site here, as decorators
    /// added in a loop or a helper do.
    private func decorate<T>(_ type: T.Type, _ decorator: ModelDecorator, in store: DependencyStore) {
        let counts = self.counts
        let body: (DependencyStore, T) -> T = { store, value in
            counts.decoratorRan(decorator.id)
            let thing = value as! ModelThing
            guard decorator.wraps else {
                thing.marks.append(decorator.id)
                return value
            }
            let extras = decorator.recipe.flatMap { Self.resolve($0, in: store).things }
            return Swift.type(of: thing).init(serial: counts.nextSerial(), parts: [thing] + extras) as! T
        }
        let line = UInt(10_000 + decorator.id)
        switch (decorator.target, decorator.sharedLine) {
        case (.every, false): store.decorate(every: T.self, line: line, body)
        case (.every, true): store.decorate(every: T.self, body)
        case (.named(let name), false): store.decorate(T.self, name: name, line: line, body)
        case (.named(let name), true): store.decorate(T.self, name: name, body)
        }
    }

    private func unregister(_ type: ModelType, name: String?, in store: DependencyStore) -> Bool {
        switch type {
        case .a: store.unregister(ModelA.self, name: name)
        case .b: store.unregister(ModelB.self, name: name)
        case .c: store.unregister(ModelC.self, name: name)
        case .element: store.unregister(ModelElement.self, name: name)
        case .d: store.unregister(ModelD.self, name: name)
        case .forwardOne: store.unregister((any ModelForwardOne).self, name: name)
        case .forwardTwo: store.unregister((any ModelForwardTwo).self, name: name)
        }
    }

    private func assembly(_ assembly: ModelAssembly) -> any Assembly {
        Self.assemblyType(assembly.kind).init(steps: assembly.steps) { [unowned self] step, store in
            perform(step, in: store)
        }
    }

    private func perform(_ step: ModelStep, in store: DependencyStore) {
        switch step {
        case .register(let registration): register(registration, in: store)
        case .contribute(let element): contribute(element, in: store)
        case .forward(let forward): self.forward(forward, in: store)
        case .decorate(let decorator): decorate(decorator, in: store)
        case .apply(let inner): store.apply(assembly(inner))
        }
    }

    private static func assemblyType(_ kind: Int) -> any ModelAssemblyKind.Type {
        [ModelAssemblyOne.self, ModelAssemblyTwo.self, ModelAssemblyThree.self][kind]
    }

    /// A fresh `Scope` each time: "Two scopes with the same name are the same scope".
    private static func scope(_ scope: ModelScope) -> Scope {
        switch scope {
        case .unique: .unique
        case .graph: .graph
        case .singleton: .singleton
        case .weak: .weak
        case .session: Scope("modelSession")
        case .cart: Scope("modelCart")
        }
    }

    // MARK: - Resolving

    /// Resolves `request` from `store`; for the dictionary form, the values sorted by key.
    static func resolve(_ request: ModelRequest, in store: DependencyStore) -> (things: [ModelThing], keys: [String]?) {
        switch request {
        case .one(let type, let name):
            return ([one(type, name: name, in: store)], nil)
        case .optional(let type, let name):
            return (optional(type, name: name, in: store).map { [$0] } ?? [], nil)
        case .all:
            return (store.resolveAll(ModelElement.self), nil)
        case .array:
            return (store.resolve([ModelElement].self), nil)
        case .dictionary:
            let sorted = store.resolve([String: ModelElement].self).sorted { $0.key < $1.key }
            return (sorted.map(\.value), sorted.map(\.key))
        }
    }

    private static func one(_ type: ModelType, name: String?, in store: DependencyStore) -> ModelThing {
        switch type {
        case .a: store.resolve(ModelA.self, name: name)
        case .b: store.resolve(ModelB.self, name: name)
        case .c: store.resolve(ModelC.self, name: name)
        case .element: store.resolve(ModelElement.self, name: name)
        case .d: store.resolve(ModelD.self, name: name)
        case .forwardOne: store.resolve((any ModelForwardOne).self, name: name) as! ModelThing
        case .forwardTwo: store.resolve((any ModelForwardTwo).self, name: name) as! ModelThing
        }
    }

    private static func optional(_ type: ModelType, name: String?, in store: DependencyStore) -> ModelThing? {
        switch type {
        case .a: store.resolveIfRegistered(ModelA.self, name: name)
        case .b: store.resolveIfRegistered(ModelB.self, name: name)
        case .c: store.resolveIfRegistered(ModelC.self, name: name)
        case .element: store.resolveIfRegistered(ModelElement.self, name: name)
        case .d: store.resolveIfRegistered(ModelD.self, name: name)
        case .forwardOne: store.resolveIfRegistered((any ModelForwardOne).self, name: name) as? ModelThing
        case .forwardTwo: store.resolveIfRegistered((any ModelForwardTwo).self, name: name) as? ModelThing
        }
    }

    /// A holder made in `store.execute { }`, and how to read it.
    private func makeHolder(_ request: ModelRequest, in store: DependencyStore) -> () -> ModelObservation {
        switch request {
        case .one(.a, let name): holder(ModelA.self, name: name, in: store) { [$0] }
        case .one(.b, let name): holder(ModelB.self, name: name, in: store) { [$0] }
        case .one(.c, let name): holder(ModelC.self, name: name, in: store) { [$0] }
        case .one(.element, let name): holder(ModelElement.self, name: name, in: store) { [$0] }
        case .one(.d, let name): holder(ModelD.self, name: name, in: store) { [$0] }
        case .one(.forwardOne, let name):
            holder((any ModelForwardOne).self, name: name, in: store) { [$0 as! ModelThing] }
        case .one(.forwardTwo, let name):
            holder((any ModelForwardTwo).self, name: name, in: store) { [$0 as! ModelThing] }
        case .array: holder([ModelElement].self, name: nil, in: store) { $0 }
        case .dictionary:
            { [holder = store.execute { ModelHolder<[String: ModelElement]>(name: nil) }] in
                let sorted = holder.value.sorted { $0.key < $1.key }
                return Self.observation(sorted.map(\.value), keys: sorted.map(\.key))
            }
        case .all: preconditionFailure("an @Injected property cannot ask for resolveAll")
        case .optional: preconditionFailure("the holders ask as @Injected does, never for an optional")
        }
    }

    private func holder<Value>(
        _ type: Value.Type, name: String?, in store: DependencyStore, things: @escaping (Value) -> [ModelThing]
    ) -> () -> ModelObservation {
        let holder = store.execute { ModelHolder<Value>(name: name) }
        return { Self.observation(things(holder.value), keys: nil) }
    }

    private static func observation(_ things: [ModelThing], keys: [String]?) -> ModelObservation {
        .instances(things.map(node), keys: keys)
    }

    private static func node(_ thing: ModelThing) -> ModelNode {
        ModelNode(
            identity: thing.serial, type: Swift.type(of: thing).modelType, marks: thing.marks,
            parts: thing.parts.map(node))
    }
}
