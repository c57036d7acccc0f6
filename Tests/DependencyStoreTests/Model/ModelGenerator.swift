// Seeded generation of operation sequences. The generator keeps a copy of the reference model
// and keeps an operation only when the model accepts it, so a sequence never asks the store for
// something that traps by design (a missing registration, an empty `[T]`, a cycle) or for
// something the docs leave open.

/// SplitMix64 (Steele, Lea and Flood, 2014): small, fast, and the same on every platform and
/// toolchain, unlike the standard library's `random(in:using:)` algorithms, which may change.
struct ModelRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (the modulo bias is far below what matters here).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }
}

/// Makes one sequence from a seed.
struct ModelGenerator {
    /// At most this many stores: the root, children and grandchildren.
    static let maximumStores = 4

    private var random: ModelRandom
    private var model = ModelReference()
    /// Factories, forwards and decorators share one id space: an id in a printed sequence names
    /// one thing.
    private var nextID = 1
    private var nextStore = 1
    private var nextHolder = 1
    /// In three sequences of four, a server's shape: these types are a request's values, which
    /// child stores register and the root never does (while the root's own factories resolve
    /// them), so that what the root shares reaches them, through one store or two. With `.c`, a
    /// middle store's own `.c` may resolve the root's `.b`, which resolves the `.a` of a store
    /// over the middle one: a shared build inside another.
    private let requestTypes: [ModelType]
    /// Set while making what the root registers: the request types are left out.
    private var excludesRequestTypes = false

    init(seed: UInt64) {
        random = ModelRandom(seed: seed)
        model.observes = false
        requestTypes = [[], [.a], [.a, .b], [.a, .c]][random.below(4)]
    }

    /// `count` operations the model accepts (fewer only if it refuses candidate after candidate).
    static func sequence(seed: UInt64, count: Int) -> [ModelOperation] {
        var generator = ModelGenerator(seed: seed)
        var operations: [ModelOperation] = []
        var attempts = 0
        while operations.count < count, attempts < 50 * count {
            // The kind first, then a few tries at its details: a refused resolve (of a type not
            // registered yet, say) is retried as a resolve, so the mix of kinds stays as weighted.
            let kind = generator.kind()
            for _ in 0..<8 {
                attempts += 1
                guard let operation = generator.candidate(kind) else { break }
                var trial = generator.model
                if (try? trial.perform(operation)) != nil {
                    generator.model = trial
                    generator.note(operation)
                    operations.append(operation)
                    break
                }
            }
        }
        return operations
    }

    // MARK: - Candidates

    private enum Kind {
        case resolve
        case register
        case contribute
        case decorate
        case forward
        case reset
        case apply
        case unload
        case unregister
        case makeChild
        case makeHolder
        case readHolder
        case dropHeld
        case list
    }

    /// The assemblies applied so far, by store: what `unload` mostly picks from.
    private var applied: [(store: Int, kind: Int)] = []
    private var appliedAssemblies: [ModelAssembly] = []

    private mutating func kind() -> Kind {
        switch random.below(100) {
        case 0..<32: .resolve
        case 32..<34: .list
        case 34..<48: .register
        case 48..<55: .contribute
        case 55..<61: .decorate
        case 61..<64: .forward
        case 64..<68: .reset
        case 68..<74: .apply
        case 74..<78: .unload
        case 78..<80: .unregister
        case 80..<83: .makeChild
        case 83..<88: .makeHolder
        case 88..<96: .readHolder
        default: .dropHeld
        }
    }

    private mutating func note(_ operation: ModelOperation) {
        switch operation {
        case .apply(let store, let assemblies):
            applied += assemblies.map { (store, $0.kind) }
            appliedAssemblies += assemblies
        case .makeChild:
            nextStore += 1
        case .makeHolder:
            nextHolder += 1
        default:
            break
        }
    }

    /// One operation of `kind`, or `nil` when there can be none now.
    private mutating func candidate(_ kind: Kind) -> ModelOperation? {
        var store = random.pick(model.stores.keys.sorted())
        // In a server's shape, what changes what the root builds is mostly the root's own: a
        // request's store only adds its values, and shares.
        switch kind {
        case .contribute, .decorate, .forward, .apply:
            if !requestTypes.isEmpty, random.chance(80) { store = 0 }
        default:
            break
        }
        excludesRequestTypes = store == 0
        defer { excludesRequestTypes = false }
        switch kind {
        case .resolve:
            // In a server's shape, often through a store nothing is layered over: a request's.
            let leaves = model.stores.keys.sorted().filter { id in !model.stores.values.contains { $0.parent == id } }
            let asking = !requestTypes.isEmpty && random.chance(50) ? random.pick(leaves) : store
            return .resolve(store: asking, request(), keep: random.chance(30), viaExecute: random.chance(20))
        case .register:
            if store != 0, !requestTypes.isEmpty, random.chance(50) {
                // A request's value is what `provide` is for (Servers.md): half the time, provided.
                return .register(
                    store: store, registration(of: random.pick(requestTypes), name: nil, providing: 50))
            }
            // Half the time in a child, a request's value: a type no ancestor registers, which
            // what the ancestors share may come to resolve (the sharing rule, Lifetimes.md).
            if let parent = model.stores[store]?.parent, random.chance(requestTypes.isEmpty ? 50 : 90) {
                let name = self.name()
                let stores = model.stores
                let ancestors = Array(Swift.sequence(first: parent) { stores[$0]?.parent })
                let unregistered = ModelType.registrable.filter { type in
                    !ancestors.contains { stores[$0]!.registrations[.init(type: type, name: name)] != nil }
                }
                if !unregistered.isEmpty {
                    return .register(store: store, registration(of: random.pick(unregistered), name: name))
                }
            }
            return .register(store: store, registration())
        case .contribute:
            return .contribute(store: store, element())
        case .decorate:
            return .decorate(store: store, decorator())
        case .forward:
            return .forward(store: store, forward())
        case .reset:
            return .reset(store: store, random.pick(ModelScope.resettable))
        case .apply:
            // Now and then an assembly applied before, again (to this store or another): what
            // an app does at each login.
            if !appliedAssemblies.isEmpty, random.chance(20) {
                return .apply(store: store, [random.pick(appliedAssemblies)])
            }
            let count = 1 + random.below(2)
            return .apply(store: store, (0..<count).map { _ in assembly(depth: 0) })
        case .unload:
            if !applied.isEmpty, random.chance(80) {
                let (store, kind) = random.pick(applied)
                return .unload(store: store, assembly: kind)
            }
            return .unload(store: store, assembly: random.below(3))
        case .unregister:
            return .unregister(store: store, random.pick(ModelType.allCases), name: name())
        case .makeChild:
            guard model.stores.count < Self.maximumStores else { return nil }
            return .makeChild(store: nextStore, parent: store)
        case .makeHolder:
            // An @Injected property asks as `resolve` does: one registration, `[T]` or `[String: T]`.
            let request: ModelRequest =
                switch random.below(100) {
                case 0..<75: .one(anyType(), name: name())
                case 75..<88: .array
                default: .dictionary
                }
            return .makeHolder(holder: nextHolder, store: store, request)
        case .readHolder:
            let holders = model.holders.keys.sorted()
            return holders.isEmpty ? nil : .readHolder(holder: random.pick(holders))
        case .dropHeld:
            return .dropHeld
        case .list:
            return .list(store: store)
        }
    }

    private mutating func id() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Mostly no name; sometimes "x", which is often not registered, so the model refuses some.
    private mutating func name() -> String? {
        random.chance(20) ? "x" : nil
    }

    private mutating func anyType() -> ModelType {
        random.chance(10) ? random.pick([.forwardOne, .forwardTwo]) : random.pick(ModelType.registrable)
    }

    private mutating func request() -> ModelRequest {
        switch random.below(100) {
        case 0..<30: .one(.d, name: name())
        case 30..<61: .one(anyType(), name: name())
        case 61..<66: .optional(random.pick(ModelType.registrable), name: name())
        case 66..<78: .all
        case 78..<90: .array
        default: .dictionary
        }
    }

    /// Up to three dependencies, each of a lower level than `level` (`d` may also ask for a
    /// forwarded type, which the model refuses when it closes a cycle).
    private mutating func recipe(below level: Int) -> [ModelRequest] {
        var choices = ModelType.registrable.filter { $0.level < level }.map { ModelRequest.one($0, name: nil) }
        if level > ModelType.element.level {
            choices += [.all, .array, .dictionary]
        }
        if level == ModelType.d.level {
            choices += [.one(.forwardOne, name: nil), .one(.forwardTwo, name: nil)]
        }
        guard !choices.isEmpty else { return [] }
        return (0..<random.below(4)).map { _ in
            let choice = random.pick(choices)
            if case .one(let type, nil) = choice, random.chance(15) { return .one(type, name: "x") }
            // Now and then asked for as what may be absent: a request's value, say.
            if case .one(let type, nil) = choice, !type.isForward, random.chance(15) {
                return .optional(type, name: nil)
            }
            return choice
        }
    }

    private mutating func registration() -> ModelRegistration {
        let types =
            excludesRequestTypes ? ModelType.registrable.filter { !requestTypes.contains($0) } : ModelType.registrable
        return registration(of: random.pick(types), name: name())
    }

    /// An element: contributed, so never a provided value (`provide` registers; it does not
    /// contribute).
    private mutating func element() -> ModelRegistration {
        registration(of: .element, name: random.pick([nil, nil, "x", "y"]), providing: 0)
    }

    /// Now and then with an effect: the factory resets a scope of the store resolving it, or
    /// registers there (its own type included, which replaces the registration being built).
    /// `providing` percent of the time, a value given with `provide` instead of a factory: at top
    /// level, in an assembly, or in a factory's effect, wherever `register` is.
    private mutating func registration(
        of type: ModelType, name: String?, withEffects: Bool = true, providing: Int = 12
    ) -> ModelRegistration {
        if providing > 0, random.chance(providing) {
            return ModelRegistration(
                factory: id(), type: type, name: name, scope: .unique, recipe: [], autoclosure: false, provided: true)
        }
        let recipe = recipe(below: type.level)
        var effects: [ModelEffect] = []
        if withEffects, random.chance(10) {
            if random.chance(50) {
                effects.append(.reset(random.pick(ModelScope.resettable)))
            } else {
                let types =
                    excludesRequestTypes
                    ? ModelType.registrable.filter { !requestTypes.contains($0) } : ModelType.registrable
                let registered = random.chance(40) ? type : random.pick(types)
                effects.append(.register(registration(of: registered, name: self.name(), withEffects: false)))
            }
        }
        return ModelRegistration(
            factory: id(), type: type, name: name, scope: random.pick(ModelScope.allCases), recipe: recipe,
            autoclosure: recipe.isEmpty && effects.isEmpty && random.chance(40), effects: effects)
    }

    private mutating func forward() -> ModelForward {
        ModelForward(
            id: id(), type: random.pick([.forwardOne, .forwardTwo]), name: random.chance(15) ? "x" : nil,
            target: random.pick(ModelType.registrable), targetName: random.chance(15) ? "x" : nil)
    }

    private mutating func decorator() -> ModelDecorator {
        let type = random.chance(15) ? random.pick([.forwardOne, .forwardTwo]) : random.pick(ModelType.registrable)
        let wraps = random.chance(50)
        return ModelDecorator(
            id: id(), type: type, target: random.chance(40) ? .every : .named(name()), wraps: wraps,
            recipe: wraps ? Array(recipe(below: min(type.level, ModelType.d.level)).prefix(1)) : [],
            sharedLine: random.chance(10))
    }

    private mutating func assembly(depth: Int) -> ModelAssembly {
        let kind = random.below(3)
        let steps: [ModelStep] = (0..<(1 + random.below(4))).map { _ in
            switch random.below(100) {
            case 0..<45: .register(registration())
            case 45..<70: .contribute(element())
            case 70..<85: .decorate(decorator())
            case 85..<95: .forward(forward())
            default: depth < 1 ? .apply(assembly(depth: depth + 1)) : .register(registration())
            }
        }
        return ModelAssembly(kind: kind, steps: steps)
    }
}
