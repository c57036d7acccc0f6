// The reference model: what the documentation (Docs/Lifetimes.md, Docs/Composition.md,
// Docs/GettingStarted.md, Docs/Testing.md) says a store does, written as simply as possible from
// the docs, not from how the store does it. Where the docs and the store differ, this file follows
// the docs; each rule quotes the sentence it comes from.
//
// The model also predicts the traps (a missing registration, an empty `[T]`, a cycle) and the
// cases the docs leave open, and refuses those operations: the generator never emits them, and a
// shrunk sequence that would need one is not tried, so nothing that traps by design runs in the
// test process.

/// The documented semantics of a set of stores, the instances they built, and what the test
/// holds.
struct ModelReference {
    /// Why the model will not run an operation: it traps by design, the docs leave it undecided,
    /// or it names a store or holder that does not exist (in a shrunk sequence).
    enum Refusal: Error, CustomStringConvertible {
        case traps(String)
        case undecided(String)
        case invalid(String)

        var description: String {
            switch self {
            case .traps(let why): "traps: \(why)"
            case .undecided(let why): "left open by the docs: \(why)"
            case .invalid(let why): "invalid: \(why)"
            }
        }
    }

    /// The assembly something was made under: its kind, and the kinds applying it (outermost
    /// first). "A registration belongs to an assembly when it was made while `apply` ran that
    /// assembly, or an assembly that one applied" (Composition.md).
    struct Tag: Hashable {
        let kind: Int
        let enclosing: [Int]

        func isPart(of kind: Int) -> Bool { self.kind == kind || enclosing.contains(kind) }
    }

    /// A registration, forward or element as a store holds it. `uid` names the registration
    /// itself, given when it is made: two registrations of one type and name are different
    /// registrations, and so are two made from one spec (an assembly applied twice).
    struct Entry {
        enum Kind {
            case factory(ModelRegistration)
            case forward(ModelForward)
        }

        let uid: Int
        let type: ModelType
        let name: String?
        let kind: Kind
        /// Contributed to the collection, rather than registered.
        var isElement = false
        let tag: Tag?
    }

    struct DecoratorEntry {
        let spec: ModelDecorator
        let tag: Tag?
        /// Which `apply` added it, `nil` outside any: "an assembly applied again replaces the
        /// decorators its earlier application added, call for call" (Composition.md).
        let application: Int?
    }

    struct Key: Hashable {
        let type: ModelType
        let name: String?
    }

    struct SlotKey: Hashable {
        let store: Int
        let uid: Int
    }

    struct Store {
        let parent: Int?
        var registrations: [Key: Entry] = [:]
        /// This store's own elements, in the order contributed.
        var elements: [Entry] = []
        var decorators: [DecoratorEntry] = []
        /// The instance this store keeps for a registration (its own or an ancestor's, by uid),
        /// for `.singleton`, custom scopes and `.weak` (weakly: see `alive`).
        var slots: [Int: Int] = [:]
        /// Set once the store registers a type and name an ancestor registers too, or an ancestor
        /// registers one it has, or it adds a decorator or an element: "A store changes it when it
        /// overrides something an ancestor registers ..., or has decorators, completion steps,
        /// contributed elements or tracing observers of its own", and "once a store has changed
        /// something, it builds its own copies for the rest of its life, even after the change is
        /// removed" (Lifetimes.md, the sharing rule). Never cleared.
        var stoppedSharing = false

        var sharesAncestorsInstances: Bool { !stoppedSharing }
    }

    /// A cached build made in `owner` for a store layered over it, `borrower`, that shares it;
    /// `owner` is `nil` for the resolve in `borrower` of a value `owner` lacked. `tainted`: the
    /// registrations being built when such a value was resolved, which no store keeps.
    private struct Borrow {
        let owner: Int?
        let borrower: Int
        let chainStart: Int
        var tainted: Set<Int> = []
        /// Tainted by a fall-back made for an enclosing borrow: "the store in the middle ... builds
        /// nothing again" (Lifetimes.md).
        var taintedForAnEnclosingBorrow = false
    }

    struct Instance {
        let type: ModelType
        let parts: [Int]
        var marks: [Int] = []
    }

    /// What an `@Injected` holder is bound to, and what its first read got.
    struct Holder {
        let store: Int
        let request: ModelRequest
        var value: Resolved?
    }

    /// What a resolve returned: instance ids, with the keys of the dictionary form.
    struct Resolved {
        let ids: [Int]
        let keys: [String]?
    }

    /// What happened to the slot of a cached build while its factory ran.
    private enum BuildOutcome {
        /// Reset, replaced or removed: the instance goes to the caller, and is not kept.
        case abandoned
        /// Its registration was hidden (see `shadow`): kept, undecided.
        case hidden
    }

    /// One top-level resolve: the store asked, its `.graph` instances, and the registrations
    /// being built (for cycles).
    private struct Context {
        /// The store resolving now: the one asked, or an ancestor building what it shares.
        var store: Int
        /// By store and uid: a shared instance's factory runs in its owner, whose `.graph`
        /// instances are its own ("A `.graph` instance is shared by everything one store builds
        /// during a top-level resolve", Lifetimes.md).
        var graph: [SlotKey: Int] = [:]
        /// The store whose value a `.graph` instance of `graph` holds, when its build in a store
        /// that a store layered over it borrowed from reached that store's value.
        var graphLayers: [SlotKey: Int] = [:]
        var chain: [Int] = []
    }

    /// Whether `perform` describes what resolves return; the generator only needs to know
    /// whether an operation is accepted, and the trees are the costly part.
    var observes = true

    private(set) var stores: [Int: Store] = [0: Store(parent: nil)]
    private(set) var holders: [Int: Holder] = [:]
    private var instances: [Instance] = []
    /// The instances something still holds strongly, as last found by `collect` (and every
    /// instance built since): a `.weak` slot keeps an instance only while it is in here.
    private var alive: Set<Int> = []
    /// What the test holds (`keep`), until `dropHeld`.
    private var held: [Int] = []
    /// The value of every provided registration ever made, by uid: the one instance that "every
    /// resolve of `type` (with `name`) hands out" (DependencyStore+Registration.swift).
    private var providedValues: [Int: Int] = [:]
    /// Type and scope of every registration ever made, by uid.
    private var scopes: [Int: (type: ModelType, scope: ModelScope)] = [:]
    /// Where every registration was made, and what it answers for, by uid.
    private var owners: [Int: (store: Int, key: Key, isElement: Bool)] = [:]
    private var lastUID = 0
    /// Slots (store, uid) whose fate the docs leave open: what a store keeps of an ancestor's
    /// registration after the store, or an ancestor between them, registers the same type and
    /// name itself (see `shadow`). Everything that would show whether the slot is still kept
    /// (a resolve that reaches it again, a reset that counts it, a `.weak` instance only it keeps
    /// alive) is refused.
    private var undecided: Set<SlotKey> = []
    /// The instances alive only through an undecided slot.
    private var aliveIfUndecidedKept: Set<Int> = []
    /// What the running operation has resolved so far: its callers hold it (in the parts they
    /// are building, the collection being assembled, the `.graph`), so it stays alive whatever
    /// the operation discards meanwhile.
    private var inFlight: [Int] = []
    /// Set when something kept strongly is discarded during an operation: who is alive is found
    /// again before a `.weak` slot is read, as the store lets go of what it discards at once.
    private var livenessIsStale = false
    /// The cached builds running (a factory may reset or register while it builds), and what
    /// happened to their slots meanwhile.
    private var building: [SlotKey] = []
    /// The types and names being resolved again after a shared build was set aside (see
    /// `buildShared`), innermost last.
    private var rebuilding: [Key] = []
    /// The shared builds running, innermost last.
    private var borrows: [Borrow] = []
    /// "An instance whose build resolved a value only a store layered over its owner registers is
    /// built per store from then on" (Lifetimes.md): by uid.
    private var dependsOnLayered: Set<Int> = []
    private var buildOutcomes: [SlotKey: BuildOutcome] = [:]
    /// The assemblies being applied, innermost last.
    private var applying: [Tag] = []
    /// How many cached builds an ancestor made for a store that shares them, and how many of
    /// those resolved a value of that store's own: what the coverage test counts.
    private(set) var sharedBuilds = 0
    private(set) var buildsThatReachedALayersValue = 0
    /// Shared builds made in a store between the asking store and the owner, which keeps its own
    /// copy; builds set aside inside another that reached a deeper store's value; `.graph`
    /// instances holding a layer's value that another shared build took; optional asks that a
    /// layer answered. What the coverage test counts.
    private(set) var buildsInACopyKeeper = 0
    private(set) var nestedBuildsHandedOver = 0
    private(set) var graphInstancesTakenWithALayersValue = 0
    private(set) var optionalAsksAnsweredByALayer = 0
    /// Provided values handed out to a store layered over the one that provided them, handed out
    /// with a decorator run on them, handed out to a shared build's fall-back (the asking store's
    /// value, Lifetimes.md), and removed (replaced, unregistered or unloaded): what the coverage
    /// test counts.
    private(set) var providedValuesHandedOutThroughALayer = 0
    private(set) var providedValuesDecorated = 0
    private(set) var providedValuesReachedByASharedBuild = 0
    private(set) var providedValuesRemoved = 0
    private(set) var factoryRuns: [Int: Int] = [:]
    private(set) var decoratorRuns: [Int: Int] = [:]

    /// The number of the last `apply`.
    private var applications = 0
    /// The `apply` running now, innermost last.
    private var applicationNumbers: [Int] = []

    // MARK: - Operations

    /// Runs `operation`, or refuses it. A refusal may come halfway through, so whoever must
    /// carry on after one (the generator) tries the operation on a copy.
    mutating func perform(_ operation: ModelOperation) throws(Refusal) -> ModelObservation {
        let observation = try performWithoutCollecting(operation)
        inFlight = []
        collect()
        return observation
    }

    private mutating func performWithoutCollecting(_ operation: ModelOperation) throws(Refusal) -> ModelObservation {
        switch operation {
        case .makeChild(let store, let parent):
            guard stores[store] == nil else { throw .invalid("s\(store) exists") }
            try requireStore(parent)
            stores[store] = Store(parent: parent)
            return .nothing
        case .register(let store, let registration):
            try requireStore(store)
            add(registration, to: store)
            return .nothing
        case .contribute(let store, let element):
            try requireStore(store)
            contribute(element, to: store)
            return .nothing
        case .forward(let store, let forward):
            try requireStore(store)
            add(forward, to: store)
            return .nothing
        case .decorate(let store, let decorator):
            try requireStore(store)
            add(decorator, to: store)
            return .nothing
        case .unregister(let store, let type, let name):
            try requireStore(store)
            // "`unregister` removes one registration of the store" (Composition.md).
            guard let removed = stores[store]!.registrations.removeValue(forKey: Key(type: type, name: name)) else {
                return .flag(false)
            }
            forgetEverywhere(removed.uid)
            return .flag(true)
        case .reset(let store, let scope):
            try requireStore(store)
            return .count(try reset(scope, in: store))
        case .apply(let store, let assemblies):
            try requireStore(store)
            for assembly in assemblies { apply(assembly, to: store) }
            return .nothing
        case .unload(let store, let kind):
            try requireStore(store)
            return .count(try unload(kind, from: store))
        case .resolve(let store, let request, let keep, _):
            // `viaExecute` changes nothing: "While the closure runs, `DependencyStore.shared` is
            // the store `execute` was called on" (Testing.md).
            try requireStore(store)
            let resolved = try resolveTopLevel(request, in: store)
            if keep { held += resolved.ids }
            return observation(of: resolved)
        case .makeHolder(let holder, let store, let request):
            guard holders[holder] == nil else { throw .invalid("h\(holder) exists") }
            try requireStore(store)
            // "Every `@Injected` property binds to the store that is current when the property
            // is created" (Testing.md); it "resolves on its first read, once" (GettingStarted.md).
            holders[holder] = Holder(store: store, request: request, value: nil)
            return .nothing
        case .readHolder(let holder):
            guard let bound = holders[holder] else { throw .invalid("no h\(holder)") }
            if let value = bound.value { return observation(of: value) }
            // "An `@Injected` property not read yet resolves at its first read whatever is
            // registered then" (Composition.md).
            let value = try resolveTopLevel(bound.request, in: bound.store)
            holders[holder]!.value = value
            return observation(of: value)
        case .dropHeld:
            held = []
            return .nothing
        case .list(let store):
            try requireStore(store)
            return listing(of: store)
        }
    }

    private func requireStore(_ store: Int) throws(Refusal) {
        guard stores[store] != nil else { throw .invalid("no s\(store)") }
    }

    // MARK: - Registering

    private var currentTag: Tag? { applying.last }

    /// A new registration's uid, with what it is.
    private mutating func newUID(
        _ type: ModelType, name: String?, _ scope: ModelScope, in store: Int, isElement: Bool = false
    ) -> Int {
        lastUID += 1
        scopes[lastUID] = (type, scope)
        owners[lastUID] = (store, Key(type: type, name: name), isElement)
        return lastUID
    }

    /// A registration, or a provided value: "It is a registration, listed (as a provided value),
    /// verified, replaced, unregistered and unloaded like any other; what differs is that the
    /// value is the one you pass, kept by the store as is" (DependencyStore+Registration.swift).
    /// So a provided value is an `Entry` as a registration is, put as one (replacing, and replaced
    /// by, what else is registered for its type and name: "Providing again for the same type and
    /// name replaces the earlier value (or registration) for every later resolve"), tagged with
    /// the assembly being applied, and counted in the sharing rule as a registration of its type
    /// and name is.
    private mutating func add(_ registration: ModelRegistration, to store: Int) {
        let uid = newUID(registration.type, name: registration.name, registration.scope, in: store)
        if registration.provided {
            // The value exists before anyone resolves it: the runner builds it at `provide`, a
            // leaf, counted as a run of its number.
            factoryRuns[registration.factory, default: 0] += 1
            providedValues[uid] = newInstance(registration.type, parts: [])
        }
        put(
            Entry(
                uid: uid, type: registration.type, name: registration.name, kind: .factory(registration),
                tag: currentTag),
            in: store)
    }

    private mutating func add(_ forward: ModelForward, to store: Int) {
        // "`forward` is a registration of `type` like any other: registering `type` again
        // replaces it" (DependencyStore+Forwarding.swift); it has no instance of its own to keep.
        put(
            Entry(
                uid: newUID(forward.type, name: forward.name, .unique, in: store), type: forward.type,
                name: forward.name, kind: .forward(forward), tag: currentTag),
            in: store)
    }

    /// "A new registration for the same type and name replaces the old one, together with any
    /// instance the old one kept" (Lifetimes.md); "when a parent replaces a registration, every
    /// store layered over it, at any depth and whenever it was made, lets go of the instance it
    /// built and kept from the old registration".
    private mutating func put(_ entry: Entry, in store: Int) {
        let key = Key(type: entry.type, name: entry.name)
        let replaced = stores[store]!.registrations.updateValue(entry, forKey: key)
        if let replaced { forgetEverywhere(replaced.uid) }
        shadow(key, isElement: false, from: store)
        if lineage(of: store).dropFirst().contains(where: { stores[$0]!.registrations[key] != nil }) {
            stores[store]!.stoppedSharing = true
        }
        for id in stores.keys where isAncestor(store, of: id) && stores[id]!.registrations[key] != nil {
            stores[id]!.stoppedSharing = true
        }
    }

    /// A store that registers (or contributes under a name) what an ancestor's registration
    /// answered for hides that registration from itself and the stores layered over it. What
    /// they kept of it: the docs say a child keeps its instance of a parent's cached
    /// registration, and that a new registration for the same type and name "replaces the old
    /// one, together with any instance the old one kept", but not which applies here: whether the
    /// hidden instance stays kept (handed out again should the store's own registration go, and
    /// counted by `reset`) or goes. Left open: those slots become undecided.
    private mutating func shadow(_ key: Key, isElement: Bool, from store: Int) {
        for (id, other) in stores where id == store || isAncestor(store, of: id) {
            for uid in other.slots.keys {
                guard let owner = owners[uid], owner.key == key, owner.isElement == isElement,
                    isAncestor(owner.store, of: store)
                else { continue }
                undecided.insert(SlotKey(store: id, uid: uid))
            }
        }
        for slot in building where slot.store == store || isAncestor(store, of: slot.store) {
            guard let owner = owners[slot.uid], owner.key == key, owner.isElement == isElement,
                isAncestor(owner.store, of: store), buildOutcomes[slot] == nil
            else { continue }
            buildOutcomes[slot] = .hidden
        }
    }

    /// "Contributing again under a name replaces that element where it stands ...; unnamed
    /// elements only ever add up" (Composition.md).
    private mutating func contribute(_ element: ModelRegistration, to store: Int) {
        let entry = Entry(
            uid: newUID(element.type, name: element.name, element.scope, in: store, isElement: true),
            type: element.type, name: element.name, kind: .factory(element), isElement: true, tag: currentTag)
        stores[store]!.stoppedSharing = true
        if let name = element.name, let index = stores[store]!.elements.firstIndex(where: { $0.name == name }) {
            let replaced = stores[store]!.elements[index]
            stores[store]!.elements[index] = entry
            forgetEverywhere(replaced.uid)
        } else {
            stores[store]!.elements.append(entry)
        }
        if let name = element.name { shadow(Key(type: element.type, name: name), isElement: true, from: store) }
    }

    /// "Several decorators run in the order added", "Decorators added from one line, in a loop or
    /// a helper, are each a decorator of their own", except that "each `decorate` call [an
    /// assembly applied again] makes replaces the decorator that the same call made in its
    /// earlier application" (Composition.md).
    private mutating func add(_ decorator: ModelDecorator, to store: Int) {
        let entry = DecoratorEntry(spec: decorator, tag: currentTag, application: applicationNumbers.last)
        stores[store]!.stoppedSharing = true
        // The runner adds a decorator from the shared call site, or from a line of its own
        // (10_000 + id): two calls come from the same line when both are shared, or when one spec
        // is added twice (an assembly applied again).
        let sameLine: (ModelDecorator) -> Bool = {
            $0.sharedLine ? decorator.sharedLine : !decorator.sharedLine && $0.id == decorator.id
        }
        if let application = entry.application,
            let index = stores[store]!.decorators.firstIndex(where: {
                sameLine($0.spec) && $0.spec.type == decorator.type && $0.spec.target == decorator.target
                    && $0.tag == entry.tag && $0.application != nil && $0.application != application
            })
        {
            stores[store]!.decorators[index] = entry
            return
        }
        stores[store]!.decorators.append(entry)
    }

    /// "Assemblies are applied in order"; what they register is tagged with them, and with the
    /// assemblies applying them.
    private mutating func apply(_ assembly: ModelAssembly, to store: Int) {
        let enclosing = currentTag.map { $0.enclosing + [$0.kind] } ?? []
        applying.append(Tag(kind: assembly.kind, enclosing: enclosing))
        applications += 1
        applicationNumbers.append(applications)
        defer {
            applying.removeLast()
            applicationNumbers.removeLast()
        }
        for step in assembly.steps {
            switch step {
            case .register(let registration): add(registration, to: store)
            case .contribute(let element): contribute(element, to: store)
            case .forward(let forward): add(forward, to: store)
            case .decorate(let decorator): add(decorator, to: store)
            case .apply(let inner): apply(inner, to: store)
            }
        }
    }

    /// The instances kept for a registration that is gone: "stores layered over this one forget
    /// what they built from them" (Composition.md). A uid is never reused, so every store can be
    /// swept.
    private mutating func forgetEverywhere(_ uid: Int) {
        if providedValues[uid] != nil { providedValuesRemoved += 1 }
        for id in stores.keys { discard(uid, in: id) }
    }

    /// Forgets what `store` keeps for `uid`; a build of it running now will not keep its instance:
    /// "a reset is never undone by a build that started before it" (Lifetimes.md), and "nothing of
    /// the old [registration] is kept after" a replacement.
    private mutating func discard(_ uid: Int, in store: Int) {
        let key = SlotKey(store: store, uid: uid)
        if stores[store]!.slots.removeValue(forKey: uid) != nil { livenessIsStale = true }
        undecided.remove(key)
        if building.contains(key) { buildOutcomes[key] = .abandoned }
    }

    // MARK: - Reset and unload

    /// "`reset` returns how many instances it discarded"; "Resetting one scope leaves every
    /// other scope alone", and a child's reset "touches only the child" (Lifetimes.md). What the
    /// child keeps of a parent's registration is the child's (Lifetimes.md, "a cached scope keeps
    /// its instance in the child"), so it is the child's reset that discards it.
    private mutating func reset(_ scope: ModelScope, in store: Int) throws(Refusal) -> Int {
        let discarded = stores[store]!.slots.keys.filter { scopes[$0]?.scope == scope }
        if let hidden = discarded.first(where: { undecided.contains(SlotKey(store: store, uid: $0)) }) {
            throw .undecided(
                "reset(\(scope)) of s\(store), which keeps an instance of the hidden registration #\(hidden)")
        }
        for uid in discarded { discard(uid, in: store) }
        // "A resolve that is building an instance while you reset returns it to its caller but
        // does not keep it."
        for slot in building where slot.store == store && scopes[slot.uid]?.scope == scope {
            discard(slot.uid, in: store)
        }
        return discarded.count
    }

    /// "`unload` [removes] everything an assembly registered: its registrations, its elements,
    /// its decorators ...; stores layered over this one forget what they built from them, and
    /// instances kept for a registration that one of the assembly's decorators applies to are
    /// discarded, in this store and the stores layered over it ... Kept instances that none of its
    /// decorators applies to (another name than the decorated one, say) stay" (Composition.md).
    /// It returns "how many registrations and contributions were removed"
    /// (DependencyStore+Removal.swift).
    private mutating func unload(_ kind: Int, from store: Int) throws(Refusal) -> Int {
        let own = stores[store]!
        let removedRegistrations = own.registrations.filter { $0.value.tag?.isPart(of: kind) == true }
        let removedElements = own.elements.filter { $0.tag?.isPart(of: kind) == true }
        let unloadedDecorators = own.decorators.filter { $0.tag?.isPart(of: kind) == true }.map(\.spec)
        let removed = Set(removedRegistrations.values.map(\.uid) + removedElements.map(\.uid))
        for key in removedRegistrations.keys { stores[store]!.registrations[key] = nil }
        stores[store]!.elements.removeAll { removed.contains($0.uid) }
        stores[store]!.decorators.removeAll { $0.tag?.isPart(of: kind) == true }
        for uid in removed { forgetEverywhere(uid) }
        guard !unloadedDecorators.isEmpty else { return removed.count }
        let owners = self.owners
        let applies: (Int) -> Bool = { uid in
            guard let owner = owners[uid] else { return false }
            return unloadedDecorators.contains { decorator in
                guard decorator.type == owner.key.type else { return false }
                switch decorator.target {
                case .every: return true
                case .named(let name): return !owner.isElement && owner.key.name == name
                }
            }
        }
        for (id, _) in stores where id == store || isAncestor(store, of: id) {
            let kept = stores[id]!.slots.keys.map { SlotKey(store: id, uid: $0) }
            for key in kept + building where key.store == id && applies(key.uid) {
                discard(key.uid, in: id)
            }
        }
        return removed.count
    }

    private func isAncestor(_ ancestor: Int, of store: Int) -> Bool {
        var current = stores[store]?.parent
        while let id = current {
            if id == ancestor { return true }
            current = stores[id]?.parent
        }
        return false
    }

    /// The store and its ancestors, nearest first.
    private func lineage(of store: Int) -> [Int] {
        Self.lineage(of: store, in: stores)
    }

    private static func lineage(of store: Int, in stores: [Int: Store]) -> [Int] {
        var result = [store]
        while let parent = stores[result.last!]?.parent { result.append(parent) }
        return result
    }

    // MARK: - Resolving

    /// "One instance per top-level resolve, shared by everything built during that resolve"
    /// (Lifetimes.md, `.graph`): one context per top-level resolve.
    private mutating func resolveTopLevel(_ request: ModelRequest, in store: Int) throws(Refusal) -> Resolved {
        var context = Context(store: store)
        return try resolve(request, in: &context)
    }

    private mutating func resolve(_ request: ModelRequest, in context: inout Context) throws(Refusal) -> Resolved {
        let resolved = try resolveWithoutHolding(request, in: &context)
        inFlight += resolved.ids
        return resolved
    }

    /// "A resolve of a collection (`resolveAll`, `[T]`, `[String: T]`) is one top-level resolve:
    /// its elements share one graph" (Lifetimes.md): `context` is the one resolve's.
    private mutating func resolveWithoutHolding(
        _ request: ModelRequest, in context: inout Context
    ) throws(Refusal) -> Resolved {
        switch request {
        case .one(let type, let name):
            return Resolved(ids: [try resolve(type, name: name, in: &context)], keys: nil)
        case .optional(let type, let name):
            // "`resolveIfRegistered` ... returns `nil` when nothing is registered" (Lifetimes.md);
            // in a shared build, "`resolveIfRegistered` and `resolve(T?.self)` fall back to the
            // asking store's value as `resolve` does" (Lifetimes.md, the sharing rule).
            let key = Key(type: type, name: name)
            if lineage(of: context.store).contains(where: { stores[$0]!.registrations[key] != nil }) {
                return Resolved(ids: [try resolve(type, name: name, in: &context)], keys: nil)
            }
            if let id = try resolveFromBorrower(key, in: &context) {
                optionalAsksAnsweredByALayer += 1
                return Resolved(ids: [id], keys: nil)
            }
            return Resolved(ids: [], keys: nil)
        case .all:
            // "`resolveAll` ... returns `[]` when nothing was contributed" (Composition.md).
            let elements = visibleElements(in: context.store)
            return Resolved(ids: try build(elements, in: &context), keys: nil)
        case .array:
            // "A resolve of `[T]` ... treats a collection nobody contributed to as a missing
            // registration and traps" (Composition.md).
            let elements = visibleElements(in: context.store)
            guard !elements.isEmpty else { throw .traps("[ModelElement] with nothing contributed") }
            return Resolved(ids: try build(elements, in: &context), keys: nil)
        case .dictionary:
            // "`[String: T]` holds only the named elements, so it is missing in the same way when no
            // element has a name, even if unnamed ones exist" (Composition.md).
            let named = visibleElements(in: context.store).filter { $0.name != nil }
            guard !named.isEmpty else { throw .traps("[String: ModelElement] with no named element") }
            let ids = try build(named, in: &context)
            let sorted = zip(named.map { $0.name! }, ids).sorted { $0.0 < $1.0 }
            return Resolved(ids: sorted.map(\.1), keys: sorted.map(\.0))
        }
    }

    /// "A store layered over another sees its parent's elements first, then its own. An element
    /// it contributes under a name the parent used takes that element's place" (Composition.md).
    private func visibleElements(in store: Int) -> [Entry] {
        var result: [Entry] = []
        for id in lineage(of: store).reversed() {
            for element in stores[id]!.elements {
                if let name = element.name, let index = result.firstIndex(where: { $0.name == name }) {
                    result[index] = element
                } else {
                    result.append(element)
                }
            }
        }
        return result
    }

    /// "`resolveAll` builds them all, in the order they were contributed"; "Each element has its
    /// own scope" (Composition.md).
    private mutating func build(_ elements: [Entry], in context: inout Context) throws(Refusal) -> [Int] {
        var ids: [Int] = []
        for element in elements {
            let id = try build(element, in: &context)
            // The elements built so far are held by the collection being assembled.
            inFlight.append(id)
            ids.append(id)
        }
        return ids
    }

    /// "A store made over a parent resolves what it does not register itself from the parent"
    /// (Lifetimes.md): the nearest store that registers the type and name wins.
    private mutating func resolve(_ type: ModelType, name: String?, in context: inout Context) throws(Refusal) -> Int {
        let key = Key(type: type, name: name)
        let stores = self.stores
        guard let entry = lineage(of: context.store).lazy.compactMap({ stores[$0]!.registrations[key] }).first else {
            if let id = try resolveFromBorrower(key, in: &context) { return id }
            throw .traps("no registration for \(key.type)\(name.map { "[\"\($0)\"]" } ?? "")")
        }
        switch entry.kind {
        case .forward(let forward):
            // "A resolve of a forwarded type resolves the target from the same store, so the
            // target's scope decides who shares what"; "A forward is not decorated"
            // (Composition.md).
            guard !context.chain.contains(entry.uid) else { throw .traps("cycle through \(forward)") }
            context.chain.append(entry.uid)
            let id = try resolve(forward.target, name: forward.targetName, in: &context)
            context.chain.removeLast()
            return id
        case .factory:
            return try build(entry, in: &context)
        }
    }

    /// An instance of `entry` as its scope says (Lifetimes.md, "The scopes").
    private mutating func build(_ entry: Entry, in context: inout Context) throws(Refusal) -> Int {
        guard case .factory(let registration) = entry.kind else { preconditionFailure("a forward has no factory") }
        if registration.provided { return try handOut(entry, registration, in: &context) }
        switch registration.scope {
        case .unique:
            // "The factory runs on every resolve and every caller gets its own value."
            return try make(entry, registration, in: &context)
        case .graph:
            // "One instance per top-level resolve, shared by everything built during that
            // resolve"; "a `.graph` shares the decorated instance" (Composition.md).
            let graphKey = SlotKey(store: context.store, uid: entry.uid)
            if let shared = context.graph[graphKey] {
                // One that holds a layer's value makes what takes it that layer's too; with no
                // shared build for that layer running, a new one is built.
                guard let layer = context.graphLayers[graphKey] else { return shared }
                let stores = self.stores
                if taintBorrow(in: context, where: { Self.lineage(of: $0, in: stores).contains(layer) }) {
                    graphInstancesTakenWithALayersValue += 1
                    return shared
                }
            }
            let id = try make(entry, registration, in: &context)
            context.graph[graphKey] = id
            context.graphLayers[graphKey] =
                borrows.first { borrow in
                    guard let owner = borrow.owner else { return false }
                    return borrow.tainted.contains(entry.uid) && lineage(of: owner).contains(context.store)
                }?.borrower
            return id
        case .singleton, .session, .cart, .weak:
            if let owner = owners[entry.uid]?.store, owner != context.store, !entry.isElement,
                !dependsOnLayered.contains(entry.uid), let keeper = keeper(from: context.store, upTo: owner)
            {
                if keeper != owner { buildsInACopyKeeper += 1 }
                return try buildShared(entry, owner: keeper, in: &context)
            }
            return try buildKept(entry, in: &context)
        }
    }

    /// The store whose instance of an ancestor's (`owner`'s) cached registration `store` shares,
    /// or `nil` when `store` builds its own: "every store layered over it shares it, with one
    /// exception: a store that changes what that instance's factory would resolve builds and
    /// keeps its own copy", and "A store that changes nothing, layered over one that keeps its own
    /// copy, shares that copy" (Lifetimes.md).
    private func keeper(from store: Int, upTo owner: Int) -> Int? {
        guard stores[store]!.sharesAncestorsInstances else { return nil }
        var id = stores[store]!.parent!
        while id != owner {
            if !stores[id]!.sharesAncestorsInstances { return id }
            id = stores[id]!.parent!
        }
        return owner
    }

    /// The sharing rule (Lifetimes.md): `owner` builds and keeps the instance, its factory
    /// receiving `owner`. Should the build resolve a value only the asking store's layer
    /// registers, it was not `owner`'s to keep: the asking store resolves it again, and builds and
    /// keeps its own, as it will from now on.
    private mutating func buildShared(_ entry: Entry, owner: Int, in context: inout Context) throws(Refusal) -> Int {
        let borrower = context.store
        context.store = owner
        sharedBuilds += 1
        borrows.append(Borrow(owner: owner, borrower: borrower, chainStart: context.chain.count))
        // What the build resolves is held by its frames while it runs (`inFlight`).
        let heldBeforeTheBuild = inFlight.count
        let id: Int
        do {
            id = try build(entry, in: &context)
        } catch {
            borrows.removeLast()
            context.store = borrower
            throw error
        }
        let borrow = borrows.removeLast()
        context.store = borrower
        guard borrow.tainted.contains(entry.uid) else { return id }
        // "Built through a store in the middle that cannot see the value either, ... the middle
        // store builds nothing again": the enclosing build, set aside too, builds it again in the
        // store that has the value.
        if borrow.taintedForAnEnclosingBorrow, borrows.contains(where: { $0.owner != nil }) {
            nestedBuildsHandedOver += 1
            return id
        }
        // Resolved again, as a resolve made now would: a factory may have replaced the
        // registration meanwhile. Should every build replace it again (a decorator of the type
        // that resolves a factory registering the type, say), every rebuild finds a new
        // registration, built for the owner, set aside and resolved again, without end: in the
        // store as here (its stack overflows). The docs do not say what such a sequence does.
        let key = Key(type: entry.type, name: entry.name)
        guard rebuilding.filter({ $0 == key }).count < 2 else {
            throw .undecided("\(key.type) rebuilt again and again: each build replaces its registration")
        }
        rebuilding.append(key)
        defer { rebuilding.removeLast() }
        let heldBeforeTheRebuild = inFlight.count
        let rebuilt = try resolve(entry.type, name: entry.name, in: &context)
        // "The build made in the app's store is set aside, not kept" (Lifetimes.md): the store
        // lets go of the set-aside instance once the asking store has built its own, and with it
        // of what only it held, such as a `.weak` instance its factory resolved, which a later
        // resolve then builds anew. The resolve's `.graph` still holds its instances.
        inFlight.removeSubrange(heldBeforeTheBuild..<heldBeforeTheRebuild)
        inFlight += context.graph.values
        livenessIsStale = true
        return rebuilt
    }

    /// A resolve that found nothing in the building store, during a shared build: the value of
    /// the asking store, when its layer has one, which makes what is being built that store's
    /// own.
    private mutating func resolveFromBorrower(_ key: Key, in context: inout Context) throws(Refusal) -> Int? {
        let stores = self.stores
        let registers: (Int) -> Bool = { store in
            Self.lineage(of: store, in: stores).contains { stores[$0]!.registrations[key] != nil }
        }
        guard let index = taintBorrowIndex(in: context, where: registers) else { return nil }
        buildsThatReachedALayersValue += 1
        let borrower = borrows[index].borrower
        let saved = context.store
        context.store = borrower
        borrows.append(Borrow(owner: nil, borrower: borrower, chainStart: context.chain.count))
        defer {
            borrows.removeLast()
            context.store = saved
        }
        return try resolve(key.type, name: key.name, in: &context)
    }

    /// The innermost shared build running for `context.store` (or a store over it) whose asking
    /// store `reaches`: what is being built inside it is marked as that store's own (`tainted`,
    /// and `dependsOnLayered` from now on). Returns its index, or `nil` when there is none.
    private mutating func taintBorrowIndex(in context: Context, where reaches: (Int) -> Bool) -> Int? {
        for index in borrows.indices.reversed() {
            let borrow = borrows[index]
            guard let owner = borrow.owner, Self.lineage(of: owner, in: stores).contains(context.store),
                reaches(borrow.borrower)
            else { continue }
            let building = Set(context.chain[borrow.chainStart...])
            for inner in index..<borrows.count {
                borrows[inner].tainted.formUnion(building)
                if inner > index { borrows[inner].taintedForAnEnclosingBorrow = true }
            }
            dependsOnLayered.formUnion(building)
            return index
        }
        return nil
    }

    private mutating func taintBorrow(in context: Context, where reaches: (Int) -> Bool) -> Bool {
        taintBorrowIndex(in: context, where: reaches) != nil
    }

    /// A cached scope's instance, kept by the store resolving it.
    private mutating func buildKept(_ entry: Entry, in context: inout Context) throws(Refusal) -> Int {
        guard case .factory(let registration) = entry.kind else { preconditionFailure("a forward has no factory") }
        switch registration.scope {
        case .unique, .graph:
            preconditionFailure("not a cached scope")
        case .singleton, .session, .cart:
            // "Built on the first resolve, then the same instance for every later resolve from
            // that store"; a parent's registration "is run by the store you asked ... a cached
            // scope keeps its instance in the child" (Lifetimes.md).
            try refuseUndecided(entry, in: context.store)
            if let kept = stores[context.store]!.slots[entry.uid] { return kept }
            return try makeAndKeep(entry, registration, in: &context)
        case .weak:
            // "Shared while something else holds it strongly; once the last holder lets go, the
            // store forgets it and the next resolve builds a new one."
            try refuseUndecided(entry, in: context.store)
            if let kept = stores[context.store]!.slots[entry.uid], try isAlive(kept) { return kept }
            return try makeAndKeep(entry, registration, in: &context)
        }
    }

    /// Builds an instance for the slot of `entry` in the resolving store, and keeps it there
    /// unless the slot was discarded while the factory ran.
    private mutating func makeAndKeep(
        _ entry: Entry, _ registration: ModelRegistration, in context: inout Context
    ) throws(Refusal) -> Int {
        let key = SlotKey(store: context.store, uid: entry.uid)
        building.append(key)
        let id = try make(entry, registration, in: &context)
        building.removeLast()
        // What resolved a value of a store layered over this one is that store's alone.
        if borrows.contains(where: { $0.tainted.contains(entry.uid) }) {
            buildOutcomes[key] = nil
            return id
        }
        switch buildOutcomes.removeValue(forKey: key) {
        case nil:
            stores[context.store]!.slots[entry.uid] = id
        case .abandoned:
            break
        case .hidden:
            stores[context.store]!.slots[entry.uid] = id
            undecided.insert(key)
        }
        return id
    }

    /// Runs the factory, then the decorators (see `decorate`).
    private mutating func make(
        _ entry: Entry, _ registration: ModelRegistration, in context: inout Context
    ) throws(Refusal) -> Int {
        // "a factory that resolves its own type, directly or through others, traps with the
        // cycle" (DependencyStore+Registration.swift); a decorator runs "with the instance's
        // resolution still on the chain" (Composition.md).
        guard !context.chain.contains(entry.uid) else { throw .traps("cycle through factory #\(registration.factory)") }
        context.chain.append(entry.uid)
        factoryRuns[registration.factory, default: 0] += 1
        var parts: [Int] = []
        for request in registration.recipe {
            parts += try resolve(request, in: &context).ids
        }
        // "Its factory receives the child" (Lifetimes.md): the effects are on the resolving store.
        for effect in registration.effects {
            switch effect {
            case .reset(let scope): _ = try reset(scope, in: context.store)
            case .register(let registration): add(registration, to: context.store)
            }
        }
        let id = try decorate(newInstance(registration.type, parts: parts), of: entry, in: &context)
        context.chain.removeLast()
        return id
    }

    /// A provided value, as a resolve from `context.store` finds it: "every resolve of `type`
    /// (with `name`) hands out this value, with no factory to run", and "A decorator of `type` in
    /// scope decorates it at each resolve, as it decorates a `.unique` registration's value"
    /// (DependencyStore+Registration.swift): the decorators of the resolving store's lineage run
    /// on the value itself at every resolve (a marking one marks it again each time; a wrapping
    /// one wraps it in a new instance each time), as they run on each new value of a `.unique`
    /// registration. Nothing is kept for it: the value is the registration's, so a store layered
    /// over the providing one finds that very value ("A store made over a parent resolves what it
    /// does not register itself from the parent", Lifetimes.md), and a `reset` has nothing of it
    /// to discard ("The store did not build the value, so it never closes it; `reset` does not
    /// touch it").
    private mutating func handOut(
        _ entry: Entry, _ registration: ModelRegistration, in context: inout Context
    ) throws(Refusal) -> Int {
        guard let value = providedValues[entry.uid] else { preconditionFailure("a provided value has its value") }
        // Its decorators run with its resolution on the chain, as a `.unique` registration's do.
        guard !context.chain.contains(entry.uid) else { throw .traps("cycle through value #\(registration.factory)") }
        context.chain.append(entry.uid)
        let marks = instances[value].marks.count
        let id = try decorate(value, of: entry, in: &context)
        context.chain.removeLast()
        if owners[entry.uid]?.store != context.store { providedValuesHandedOutThroughALayer += 1 }
        if id != value || instances[value].marks.count > marks { providedValuesDecorated += 1 }
        if borrows.contains(where: { $0.owner == nil }) { providedValuesReachedByASharedBuild += 1 }
        return id
    }

    /// Runs the decorators on `instance`, just built for (or, for a provided value, handed out
    /// by) `entry`, and returns what they made of it: "A decorator runs on every instance a
    /// registration builds, before anyone else sees it"; "Several decorators run in the order
    /// added, a parent store's first, and a store layered over another runs the parent's
    /// decorators too"; "`decorate(_:name:)` decorates the registration a resolve of that type and
    /// name finds; `decorate(every:)` decorates every instance built for the type: every name,
    /// and every element of its collection" (Composition.md).
    private mutating func decorate(_ instance: Int, of entry: Entry, in context: inout Context) throws(Refusal) -> Int {
        var id = instance
        for store in lineage(of: context.store).reversed() {
            for decorator in stores[store]!.decorators where decorator.spec.type == entry.type {
                switch decorator.spec.target {
                case .every: break
                case .named(let name): if entry.isElement || name != entry.name { continue }
                }
                decoratorRuns[decorator.spec.id, default: 0] += 1
                if decorator.spec.wraps {
                    var extras: [Int] = []
                    for request in decorator.spec.recipe {
                        extras += try resolve(request, in: &context).ids
                    }
                    id = newInstance(entry.type, parts: [id] + extras)
                } else {
                    instances[id].marks.append(decorator.spec.id)
                }
            }
        }
        return id
    }

    private func refuseUndecided(_ entry: Entry, in store: Int) throws(Refusal) {
        guard undecided.contains(SlotKey(store: store, uid: entry.uid)) else { return }
        throw .undecided(
            "s\(store) resolves \(entry.type) again from a registration it kept an instance of while hidden")
    }

    /// Whether `id` is still alive; refused when that depends on an undecided slot.
    private mutating func isAlive(_ id: Int) throws(Refusal) -> Bool {
        if livenessIsStale { collect() }
        if aliveIfUndecidedKept.contains(id) {
            throw .undecided("a .weak instance that only a hidden registration's kept instance holds")
        }
        return alive.contains(id)
    }

    private mutating func newInstance(_ type: ModelType, parts: [Int]) -> Int {
        instances.append(Instance(type: type, parts: parts))
        alive.insert(instances.count - 1)
        return instances.count - 1
    }

    // MARK: - Liveness

    /// Which instances are still held strongly: by the test, by a read holder, by what the
    /// running operation has resolved, by a store's `.singleton` or custom-scope slot, by a
    /// store's provided value, or by an instance that is. Everything else is gone (Swift releases it at once), and a `.weak` slot
    /// pointing at it is empty. Found after every operation, and during one after a discard.
    private mutating func collect() {
        livenessIsStale = false
        var roots = held + inFlight + holders.values.flatMap { $0.value?.ids ?? [] }
        // A provided value is "kept by the store as is" while it is registered.
        for store in stores.values {
            roots += store.registrations.values.compactMap { providedValues[$0.uid] }
        }
        var undecidedRoots: [Int] = []
        for (storeID, store) in stores {
            for (uid, id) in store.slots where scopes[uid]?.scope.isKeptStrongly == true {
                if undecided.contains(SlotKey(store: storeID, uid: uid)) {
                    undecidedRoots.append(id)
                } else {
                    roots.append(id)
                }
            }
        }
        alive = reachable(from: roots)
        aliveIfUndecidedKept = reachable(from: roots + undecidedRoots).subtracting(alive)
    }

    private func reachable(from roots: [Int]) -> Set<Int> {
        var pending = roots
        var reached: Set<Int> = []
        while let id = pending.popLast() {
            if reached.insert(id).inserted { pending += instances[id].parts }
        }
        return reached
    }

    // MARK: - Observations

    /// "What this store resolves: its own registrations and those of its parents that it does not
    /// override, in a stable order (by type, then name)" (DependencyStore+Listing.swift); a
    /// provided value is "listed (as a provided value)" (DependencyStore+Registration.swift). The
    /// elements are left out. Two registrations never share a type and name here, so the order
    /// by type, then name, is the whole order.
    private func listing(of store: Int) -> ModelObservation {
        guard observes else { return .nothing }
        var seen: Set<Key> = []
        var lines: [(type: String, name: String, line: String)] = []
        for id in lineage(of: store) {
            for (key, entry) in stores[id]!.registrations where seen.insert(key).inserted {
                var provided = false
                var forward = false
                switch entry.kind {
                case .factory(let registration): provided = registration.provided
                case .forward: forward = true
                }
                let line = ModelObservation.listed(
                    type: key.type.description, name: key.name, provided: provided, forward: forward,
                    inherited: id != store)
                lines.append((key.type.description, key.name ?? "", line))
            }
        }
        return .listing(lines.sorted { ($0.type, $0.name) < ($1.type, $1.name) }.map(\.line))
    }

    private func observation(of resolved: Resolved) -> ModelObservation {
        guard observes else { return .nothing }
        return .instances(resolved.ids.map(node), keys: resolved.keys)
    }

    private func node(_ id: Int) -> ModelNode {
        let instance = instances[id]
        return ModelNode(identity: id, type: instance.type, marks: instance.marks, parts: instance.parts.map(node))
    }
}
