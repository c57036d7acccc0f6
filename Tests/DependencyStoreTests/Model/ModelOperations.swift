// The operations of the model-based tests, as plain data: a sequence can be generated from a
// seed, run on the real store and on the reference model, printed when they disagree, and shrunk
// by dropping operations. Nothing here touches a store; `ModelStoreRunner` and `ModelReference`
// give the operations their meaning.

/// The registered types the sequences use. Each is a class of its own (see `ModelTypes.swift`), so
/// that identity can be compared; the two forwarded types are protocols every one of them adopts.
enum ModelType: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case a
    case b
    case c
    /// Contributed to a collection, and registrable like the others.
    case element
    case d
    case forwardOne
    case forwardTwo

    /// Factories of a type resolve only types of lower levels, so that no recipe makes a cycle by
    /// itself. Only a forward can close one (a forward to `d` resolved by `d`'s factory), and
    /// the model predicts that, so the generator leaves it out.
    var level: Int {
        switch self {
        case .a: 0
        case .b: 1
        case .c: 2
        case .element: 3
        case .d: 4
        case .forwardOne, .forwardTwo: 5
        }
    }

    var isForward: Bool { self == .forwardOne || self == .forwardTwo }

    /// The types `register` and `decorate` take (forwarded types get `forward` instead).
    static let registrable: [ModelType] = [.a, .b, .c, .element, .d]

    var description: String {
        switch self {
        case .a: "ModelA"
        case .b: "ModelB"
        case .c: "ModelC"
        case .element: "ModelElement"
        case .d: "ModelD"
        case .forwardOne: "ModelForwardOne"
        case .forwardTwo: "ModelForwardTwo"
        }
    }
}

/// The scopes, custom ones included: two, so that resetting one is seen to leave the other alone.
enum ModelScope: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case unique
    case graph
    case singleton
    case weak
    case session
    case cart

    /// Whether a store keeps the instance strongly (what `reset` may discard).
    var isKeptStrongly: Bool { self == .singleton || self == .session || self == .cart }

    /// The scopes `reset` accepts: resetting `.unique`, `.graph` or `.weak` traps by design.
    static let resettable: [ModelScope] = [.singleton, .session, .cart]

    var description: String {
        switch self {
        case .unique: ".unique"
        case .graph: ".graph"
        case .singleton: ".singleton"
        case .weak: ".weak"
        case .session: "Scope(\"modelSession\")"
        case .cart: "Scope(\"modelCart\")"
        }
    }
}

/// What a resolve asks for: one registration, or the collection of `ModelElement` in one of its
/// three forms.
enum ModelRequest: Hashable, Sendable, CustomStringConvertible {
    case one(ModelType, name: String?)
    /// `resolveIfRegistered(type, name:)`: `nil` (no instance) when nothing is registered.
    case optional(ModelType, name: String?)
    /// `resolveAll(ModelElement.self)`: `[]` when nothing is contributed.
    case all
    /// `resolve([ModelElement].self)`: traps when nothing is contributed.
    case array
    /// `resolve([String: ModelElement].self)`: the named elements.
    case dictionary

    /// The level of what it resolves, compared with `ModelType.level`.
    var level: Int {
        switch self {
        case .one(let type, _), .optional(let type, _): type.level
        case .all, .array, .dictionary: ModelType.element.level
        }
    }

    var description: String {
        switch self {
        case .one(let type, let name): name.map { "\(type)[\"\($0)\"]" } ?? "\(type)"
        case .optional(let type, let name):
            "resolveIfRegistered(\(ModelRequest.one(type, name: name)))"
        case .all: "resolveAll(ModelElement)"
        case .array: "[ModelElement]"
        case .dictionary: "[String: ModelElement]"
        }
    }
}

/// A registration (`register`) or an element (`contribute`): its factory resolves `recipe`, in
/// order, then has its `effects` on the store resolving it, and builds an instance holding what
/// it resolved.
struct ModelRegistration: Hashable, Sendable, CustomStringConvertible {
    /// Unique in a sequence: names the factory in the run counts.
    let factory: Int
    let type: ModelType
    let name: String?
    let scope: ModelScope
    let recipe: [ModelRequest]
    /// Registered with the autoclosure form, `register(expression, for:)` (only without a recipe
    /// or effects).
    let autoclosure: Bool
    var effects: [ModelEffect] = []
    /// A value given with `provide(value, for:, name:)` instead of a factory: the value (a leaf,
    /// counted as a run of `factory`) is built once, when it is provided, and "every resolve of
    /// `type` (with `name`) hands out this value, with no factory to run"
    /// (DependencyStore+Registration.swift). Only registered, never contributed, and only with
    /// `.unique` as its scope (which a provided value does not have: the model decorates it as it
    /// decorates a `.unique` registration's value), no recipe, no effects and no autoclosure.
    var provided = false

    /// The call that adds it: `provide` or `register` (`contribute` for an element).
    var verb: String { provided ? "provide" : "register" }

    var description: String {
        let name = self.name.map { ", name: \"\($0)\"" } ?? ""
        if provided { return "value #\(factory), for: \(type)\(name)" }
        let recipe = self.recipe.map(\.description).joined(separator: ", ")
        let effects = self.effects.isEmpty ? "" : ", then \(self.effects.map(\.description).joined(separator: ", "))"
        let form = autoclosure ? " (autoclosure)" : ""
        return "\(type)\(name), scope: \(scope), factory #\(factory) resolving [\(recipe)]\(effects)\(form)"
    }
}

/// What a factory does to the store resolving it, while it builds: "it may resolve other
/// dependencies and even register new ones" (GettingStarted.md).
enum ModelEffect: Hashable, Sendable, CustomStringConvertible {
    case reset(ModelScope)
    case register(ModelRegistration)

    var description: String {
        switch self {
        case .reset(let scope): "store.reset(\(scope))"
        case .register(let registration): "store.\(registration.verb)(\(registration))"
        }
    }
}

/// `forward(type, name:, to: target, named: targetName)`.
struct ModelForward: Hashable, Sendable, CustomStringConvertible {
    /// Unique in a sequence: the forward is a registration of its own.
    let id: Int
    let type: ModelType
    let name: String?
    let target: ModelType
    let targetName: String?

    var description: String {
        let name = self.name.map { ", name: \"\($0)\"" } ?? ""
        let targetName = self.targetName.map { ", named: \"\($0)\"" } ?? ""
        return "forward(\(type)\(name), to: \(target)\(targetName)) #\(id)"
    }
}

/// `decorate(type, name:)` or `decorate(every: type)`. A decorator either marks the instance it
/// is given (appends its id to the instance's `marks`, and returns it) or wraps it in a new
/// instance of the same type that holds the old one and what `recipe` resolves.
struct ModelDecorator: Hashable, Sendable, CustomStringConvertible {
    enum Target: Hashable, Sendable {
        case named(String?)
        case every
    }

    let id: Int
    let type: ModelType
    let target: Target
    let wraps: Bool
    let recipe: [ModelRequest]
    /// Added from one shared call site, as a helper or a loop does, instead of a line of its own:
    /// what known bug (b) is about.
    let sharedLine: Bool

    var description: String {
        let call =
            switch target {
            case .every: "decorate(every: \(type))"
            case .named(let name): "decorate(\(type)\(name.map { ", name: \"\($0)\"" } ?? ""))"
            }
        let style = wraps ? "wraps, resolving [\(recipe.map(\.description).joined(separator: ", "))]" : "marks"
        return "\(call) #\(id) \(style)\(sharedLine ? ", from the shared call site" : "")"
    }
}

/// One application of one of the three assembly types (`kind` 0, 1 or 2: `ModelAssemblyOne`,
/// `...Two`, `...Three`), with what its `assemble(into:)` does.
struct ModelAssembly: Hashable, Sendable, CustomStringConvertible {
    let kind: Int
    let steps: [ModelStep]

    var description: String {
        "\(ModelAssembly.typeName(kind))[\(steps.map(\.description).joined(separator: "; "))]"
    }

    static func typeName(_ kind: Int) -> String {
        ["ModelAssemblyOne", "ModelAssemblyTwo", "ModelAssemblyThree"][kind]
    }
}

/// What an assembly does, in order.
enum ModelStep: Hashable, Sendable, CustomStringConvertible {
    case register(ModelRegistration)
    case contribute(ModelRegistration)
    case forward(ModelForward)
    case decorate(ModelDecorator)
    /// An assembly that applies another: what the inner one registers belongs to both.
    case apply(ModelAssembly)

    var description: String {
        switch self {
        case .register(let registration): "\(registration.verb)(\(registration))"
        case .contribute(let element): "contribute(\(element))"
        case .forward(let forward): "\(forward)"
        case .decorate(let decorator): "\(decorator)"
        case .apply(let assembly): "apply(\(assembly))"
        }
    }
}

/// One operation of a sequence. Stores and holders are named by ids that their creating
/// operation gives them, so that dropping an unrelated operation never renames them; store 0 is
/// the root, there from the start.
enum ModelOperation: Hashable, Sendable, CustomStringConvertible {
    case makeChild(store: Int, parent: Int)
    case register(store: Int, ModelRegistration)
    case contribute(store: Int, ModelRegistration)
    case forward(store: Int, ModelForward)
    case decorate(store: Int, ModelDecorator)
    case unregister(store: Int, ModelType, name: String?)
    case reset(store: Int, ModelScope)
    case apply(store: Int, [ModelAssembly])
    case unload(store: Int, assembly: Int)
    /// `keep`: the test holds on to what it got (until `dropHeld`), which keeps `.weak` instances
    /// alive. `viaExecute`: resolved as `store.execute { DependencyStore.shared.resolve(...) }`.
    case resolve(store: Int, ModelRequest, keep: Bool, viaExecute: Bool)
    /// An object with an `@Injected` property of the request's type, made in `store.execute { }`
    /// and not read yet.
    case makeHolder(holder: Int, store: Int, ModelRequest)
    /// Reads the holder's property: the first read resolves, later ones return the same value.
    case readHolder(holder: Int)
    /// The test lets go of everything it kept.
    case dropHeld
    /// `store.registrations`, the registrations without the elements: which type and name each
    /// answers for, whether it is a provided value, and whether it is inherited. A listing reads
    /// every registration, provided values too, so it may come at any point of a sequence.
    case list(store: Int)

    /// The case's name, for the generator's coverage test.
    var kind: String {
        switch self {
        case .makeChild: "makeChild"
        case .register: "register"
        case .contribute: "contribute"
        case .forward: "forward"
        case .decorate: "decorate"
        case .unregister: "unregister"
        case .reset: "reset"
        case .apply: "apply"
        case .unload: "unload"
        case .resolve: "resolve"
        case .makeHolder: "makeHolder"
        case .readHolder: "readHolder"
        case .dropHeld: "dropHeld"
        case .list: "list"
        }
    }

    var description: String {
        switch self {
        case .makeChild(let store, let parent): "s\(store) = DependencyStore(parent: s\(parent))"
        case .register(let store, let registration): "s\(store).\(registration.verb)(\(registration))"
        case .contribute(let store, let element): "s\(store).contribute(\(element))"
        case .forward(let store, let forward): "s\(store).\(forward)"
        case .decorate(let store, let decorator): "s\(store).\(decorator)"
        case .unregister(let store, let type, let name):
            "s\(store).unregister(\(type)\(name.map { ", name: \"\($0)\"" } ?? ""))"
        case .reset(let store, let scope): "s\(store).reset(\(scope))"
        case .apply(let store, let assemblies):
            "s\(store).apply(\(assemblies.map(\.description).joined(separator: ", ")))"
        case .unload(let store, let assembly): "s\(store).unload(\(ModelAssembly.typeName(assembly)).self)"
        case .resolve(let store, let request, let keep, let viaExecute):
            (viaExecute ? "s\(store).execute { shared.resolve(\(request)) }" : "s\(store).resolve(\(request))")
                + (keep ? ", kept by the test" : "")
        case .makeHolder(let holder, let store, let request):
            "h\(holder) = s\(store).execute { Holder(@Injected \(request)) }"
        case .readHolder(let holder): "h\(holder).value"
        case .dropHeld: "the test drops what it kept"
        case .list(let store): "s\(store).registrations"
        }
    }
}
