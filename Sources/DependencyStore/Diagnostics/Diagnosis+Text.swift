// The words of every failure a user can cause: what happened, where, and how to fix it. The one
// place a message is written, from the facts of a `Diagnosis`. Nothing here runs on a successful
// resolve.

extension Diagnosis {
    /// The message: its lines joined.
    var text: String {
        lines.joined(separator: "\n")
    }

    private var lines: [String] {
        switch self {
        case .missingRegistration(let request, let missing):
            return Self.lines(request, missing)
        case .cycle(let chain, let acrossTasks, let requester, let store, let decorators, let perArgumentCache):
            if perArgumentCache {
                return [
                    "DependencyStore: dependency cycle: \(chain.joined(separator: " -> "))",
                    "",
                    "  '\(chain.last!)' was asked for while it was still being built. Its cache per argument value",
                    "  (cachedPerArgument()) builds one value at a time, so its factory cannot ask it for another value either.",
                    "  Closed by: \(Self.describe(requester))",
                    "  Store: \(Self.describe(store))",
                    "",
                    "  To fix: resolve what the other value needs from a registration of its own (the parent folder's model",
                    "  under a name, say), or pass the instance for the other value in as an argument.",
                ]
            }
            return [
                "DependencyStore: dependency cycle\(acrossTasks ? " across tasks" : ""): \(chain.joined(separator: " -> "))",
                "",
                acrossTasks
                    ? "  Each of these async builds awaits the next, and the last awaits the first, so none could ever finish."
                    : "  '\(chain.last!)' was asked for while it was still being built, so its factory could never finish.",
                "  Closed by: \(Self.describe(requester))",
                "  Store: \(Self.describe(store))",
            ]
                + decorators.map {
                    "  The chain runs through the decorator added at \($0), which runs while its instance is still being built."
                } + [""]
                + (decorators.isEmpty
                    ? Self.cycleFix
                    : [
                        "  To fix: let the decorator resolve only what does not need the instance it decorates; to connect two",
                        "  objects both ways, set the back-reference in the decorator of the one resolved first.",
                    ])
        case .crossThreadCycle(let threads, let requester):
            let awaited = threads.map(\.awaited.label)
            var lines = [
                "DependencyStore: dependency cycle across threads: \(([awaited.last!] + awaited).joined(separator: " -> "))",
                "",
                "  \(threads.count) threads each wait for what the next one is building, so none of their factories could ever finish:",
            ]
            for (index, thread) in threads.enumerated() {
                let building =
                    thread.building.isEmpty
                    ? "(no factory: it is reading an @Injected property)" : thread.building.joined(separator: " -> ")
                lines += [
                    "  \(index == 0 ? "Thread 1 (this one)" : "Thread \(index + 1)") is building: \(building)",
                    "    and waits for \(Self.describe(thread.awaited)), which thread \(index + 1 == threads.count ? 1 : index + 2) is building.",
                ]
            }
            return lines + [
                "  Closed by: \(Self.describe(requester))",
                "  On one thread this is the ordinary cycle trap; across threads it would hang both threads forever.",
                "",
            ] + Self.cycleFix
        case .wrongArguments(
            let request, let registeredAt, let expected, let expectedShortNames, let given, let context):
            let takes = expected.map { "(" + $0.joined(separator: ", ") + ")" } ?? "no arguments"
            let passed = given.map(Self.argumentList) ?? "no arguments"
            let nameArgument = request.name.map { ", name: \"\($0)\"" } ?? ""
            let placeholders = expectedShortNames.map { "<\($0)>" }.joined(separator: ", ")
            return [
                "DependencyStore: wrong arguments for '\(request.requested)': expected \(takes), given \(passed).",
                "",
                "  Registered at: \(registeredAt), with a factory that takes \(takes)",
                "  Requested by: \(Self.describe(request.requester)), which passed \(passed)",
                "  Store: \(Self.describe(request.store))",
                "",
            ]
                + (expected == nil
                    ? (context.isolation.map {
                        [
                            "  To fix: resolve it without arguments: a \($0) factory takes none. To give it a value, register",
                            "  the value for its factory to resolve.",
                        ]
                    }
                        ?? [
                            "  To fix: resolve it without arguments, or register a factory that takes them:",
                            "      register(\(request.shortName).self\(nameArgument)) { (store, argument: \(context.givenShortName ?? "<Type>")) in ... }",
                        ])
                    : [
                        "  To fix: pass values of exactly those types, in that order:",
                        "      resolve(\(request.shortName).self\(nameArgument), arguments: \(placeholders))",
                        "  An @Injected property cannot pass arguments: resolve such a registration with resolve(_:arguments:).",
                    ])
        case .collectionTakesNoArguments(let request, let element, let given):
            let passed = Self.argumentList(given)
            return [
                "DependencyStore: wrong arguments for '\(request.requested)': a collection takes no arguments, given \(passed).",
                "",
                "  Requested by: \(Self.describe(request.requester)), which passed \(passed)",
                "  Store: \(Self.describe(request.store))",
                "  The elements of '\(request.shortName)' are contributed, each built by its own factory, with no arguments.",
                "",
                "  To fix: resolve it without arguments:",
                "      resolve([\(element)].self)",
                "  To pass a value to the elements, register it for them to resolve, or contribute a factory that captures it.",
            ]
        case .handleCalledWithArgumentsAgain(let request, let handle, let carried, let given):
            return [
                "DependencyStore: wrong arguments for '\(request.requested)': the \(handle) carries \(Self.argumentList(carried)), and was called with \(given.map(Self.argumentList) ?? "no arguments").",
                "",
                "  The \(handle) was resolved with arguments at \(request.requester.location); each call passes those.",
                "",
                "  To fix: call it without arguments to use the ones it carries, or resolve the \(handle) without",
                "  arguments and pass them at each call.",
            ]
        case .completionCycle(let request, let completed, let step):
            return [
                "DependencyStore: dependency cycle: \(request.chain.joined(separator: " -> "))",
                "",
                "  While the completion step of '\(completed)' added at \(step) ran, '\(request.requested)' was asked for, which built '\(completed)'.",
                "  '\(request.requested)' is .unique: a resolve builds a new one, whose '\(completed)' would need completing again.",
                "  Closed by: \(Self.describe(request.requester))",
                "  Store: \(Self.describe(request.store))",
                "",
                "  To fix: give '\(request.shortName)' a scope that keeps its instance (.graph, .singleton), so the step gets",
                "  the one being completed; or set the back-reference in a completion step of '\(request.shortName)' itself.",
            ]
        case .forwardMismatch(let request, let target, let built, let requestedBy):
            return [
                "DependencyStore: the forward of '\(request.requested)' to '\(target)' got a '\(built)', which is not a '\(request.shortName)'.",
                "",
                "  Forward made at: \(request.requester.location)",
            ] + (requestedBy.map { ["  Requested by: \(Self.describe($0))"] } ?? []) + [
                "  Store: \(Self.describe(request.store))",
                "",
                "  To fix: forward to a registration whose instance conforms to '\(request.shortName)', or make",
                "  '\(built)' conform to it.",
            ]
        case .weakScopeNeedsAClass(let request, let built, let registeredAt, let contributed):
            let (made, make) = contributed ? ("contributed", "contribute") : ("registered", "register")
            return [
                "DependencyStore: '\(request.requested)' is \(made) with scope .weak, but its factory built '\(built)', which is not a class instance.",
                "",
                "  \(contributed ? "Contributed" : "Registered") at: \(registeredAt)",
                "  Requested by: \(Self.describe(request.requester))",
                "  Store: \(Self.describe(request.store))",
                "",
                "  A weak reference can only point at an object, so a struct or an enum would be rebuilt on every resolve.",
                "  To fix: \(make) it with scope .singleton (or a custom scope you reset), or make '\(built)' a class.",
            ]
        case .weakInjectedNeedsAClass(let request, let built, let builtShortName, let registration):
            return [
                "DependencyStore: the @WeakInjected property declared at \(request.requester.location) holds '\(request.requested)' weakly, but its registration built '\(built)', which is not a class instance.",
                "",
                "  Declared at: \(request.requester.location)",
            ]
                + (registration.map { ["  Registered at: \($0.at), with scope \($0.scope)"] } ?? [])
                + [
                    "  Store: \(Self.describe(request.store))",
                    "",
                    "  A weak reference can only point at an object; a struct or an enum is copied, so there is nothing to hold weakly.",
                    "  To fix: make '\(builtShortName)' a class, or declare the property with @Injected (or @ReleasableInjected)",
                    "  to hold the value strongly.",
                ]
        case .propertySetRefused(let wrapper, let type, let declaredAt, .insideItsOwnFirstRead):
            return [
                "DependencyStore: the \(wrapper) property of '\(type)' declared at \(declaredAt) was set inside its own first read, whose value would replace what was set.",
                "",
                "  Declared at: \(declaredAt)",
                "  A factory, observer or decorator that the property's first read runs set it.",
                "",
                "  To fix: set the property before its first read or after it, not from code its resolution runs.",
            ]
        case .propertySetRefused(let wrapper, let type, let declaredAt, .notAnObject(let given)):
            return [
                "DependencyStore: the \(wrapper) property declared at \(declaredAt) holds '\(type)' weakly, but it was set to '\(given)', which is not a class instance.",
                "",
                "  Declared at: \(declaredAt)",
                "",
                "  A weak reference can only point at an object; a struct or an enum is copied, so there is nothing to hold weakly.",
                "  To fix: set it to a class instance, or declare the property with @Injected (or @ReleasableInjected)",
                "  to hold the value strongly.",
            ]
        case .wrongIsolation(let request, let onMainActor, let registeredAt):
            return [
                onMainActor
                    ? "DependencyStore: '\(request.requested)' is registered on the main actor, but it was resolved synchronously off the main actor."
                    : "DependencyStore: '\(request.requested)' is registered with an async factory, but it was resolved synchronously.",
                "",
                "  Requested by: \(Self.describe(request.requester))",
            ]
                + (request.chain.count > 1 ? ["  While building: \(request.chain.joined(separator: " -> "))"] : [])
                + [
                    "  Registered at: \(registeredAt)",
                    "  Store: \(Self.describe(request.store))",
                    onMainActor
                        ? "  Its factory must run on the main actor, and a synchronous call cannot get there from this thread without blocking it."
                        : "  Its factory must be awaited, and a synchronous call cannot await.",
                    "",
                    "  To fix: await it, which \(onMainActor ? "runs the factory on the main actor" : "runs the factory once for every task that asks"):",
                    "      let value = try await store.resolveAsync(\(request.shortName).self)",
                    onMainActor
                        ? "  or resolve it (or read the @Injected property) on the main actor, in a @MainActor function or type."
                        : "  An @Injected property cannot await: resolve it in an async function and pass it in.",
                ]
        case .factoryThrew(let requested, let registeredAt, let error):
            return [
                "DependencyStore: the factory of '\(requested)' registered at \(registeredAt) threw \(error).",
                "",
                "  To fix: handle the error in the factory, or make it async ({ store async throws in ... }) and resolve it with try await resolveAsync.",
            ]
        case .resetKeepsNothing(let scope, let calledAt, let store):
            return [
                "DependencyStore: reset(\(scope)) has nothing to discard.",
                "",
                "  Called at: \(calledAt), on \(store)",
                "  \(scope) instances are \(scope == .weak ? "released when their last holder lets go" : "never kept in a store"), so there is no instance for reset to discard.",
                "",
                "  To fix: reset .singleton or a custom scope (Scope(\"session\")); register what must be rebuilt on",
                "  demand with one of those.",
            ]
        case .nonPositiveTimeout(let timeout, let call):
            return ["DependencyStore.\(call): the timeout must be positive, not \(timeout)"]
        case .cachingCannotApply(let call, let registration, let scope, let registeredAt, let calledAt, let problem):
            return [
                "DependencyStore: \(call) on '\(registration)' cannot apply: \(Self.what(problem, scope: scope)).", "",
            ]
                + ["  Called at: \(calledAt)", "  Registered at: \(registeredAt), with scope \(scope)", ""]
                + Self.fix(problem, call: call)
        case .resetOneKeepsNothing(let registration, let scope, let registeredAt, let calledAt):
            return [
                "DependencyStore: reset of '\(registration)' has nothing to discard: a \(scope) instance is never kept in a store.",
                "",
                "  Called at: \(calledAt)",
                "  Registered at: \(registeredAt), with scope \(scope)",
                "",
                "  To fix: reset only registrations of .singleton or a custom scope (Scope(\"session\")), whose instances",
                "  the store keeps; register what must be rebuilt on demand with one of those.",
            ]
        case .noRegistrationToChange(
            let call, let purpose, let type, let calledAt, let store, let registeredNames, let closeMatches):
            var lines = [
                "DependencyStore: \(call) found no registration to \(purpose.verb).", "",
                "  Called at: \(calledAt), on \(store)",
            ]
            if case .alternatives(let parent?) = purpose {
                lines.append("  '\(type)' is registered in \(parent), a parent of this store, and not in it")
            }
            lines += Self.registeredUnder(registeredNames, type: type)
            lines += Self.closeMatchLines(closeMatches, requested: type, resetting: true)
            switch purpose {
            case .reset:
                return lines + [
                    "",
                    "  To fix: reset the type and name that were registered, as a resolve asks for them; a store resets only",
                    "  what it or its parents register.",
                ]
            case .alternatives(let parent):
                return lines + [
                    "",
                    "  To fix: "
                        + (parent == nil
                            ? "register '\(type)' in this store first, or name the registration as it was made."
                            : "register '\(type)' in this store (it wins over the parent's registration and its alternatives),"),
                ] + (parent == nil ? [] : ["  or change the alternatives through the store that registers it."])
            }
        case .alternativeRefused(
            let registration, let call, let byType, let context, let reason, let registeredAt, let calledAt):
            let context = context.map { "\($0)" } ?? "..."
            let (what, fix): (String, [String]) =
                switch reason {
                case .emptyArgument:
                    (
                        "an empty launch argument never tells one launch from another",
                        ["the argument exactly as the launch passes it, such as .argument(\"-mock-network\")"]
                    )
                case .contribution:
                    (
                        "it is an element contributed to a collection, which takes no alternatives",
                        [
                            "contribute the element only in that context:",
                            "  if DependencyContext.isActive(\(context)) { store.contribute(...) }",
                        ]
                    )
                case .takesArguments(let types):
                    (
                        "its factory takes arguments (\(types.joined(separator: ", "))), and an alternative takes none",
                        [
                            "choose inside the factory, which has the arguments:",
                            "  { store, ... in DependencyContext.isActive(\(context)) ? ... : ... }",
                        ]
                    )
                case .isolated(let onMainActor):
                    (
                        "its factory \(onMainActor ? "runs on the main actor" : "is async"), and an alternative is a plain factory",
                        [
                            "choose inside the factory:",
                            "  { store in DependencyContext.isActive(\(context)) ? ... : ... }",
                        ]
                    )
                case .forward(let target):
                    (
                        "it forwards to '\(target)', whose registration builds the instance",
                        [
                            "give the alternative to the registration it forwards to: store.on(\(context), for: \(target).self)"
                        ]
                    )
                case .noAlternative(let contexts) where contexts.isEmpty:
                    (
                        "it has no alternative for \(context); it has none",
                        [
                            "add one first with on(_:for:), or call removeAlternatives(of:) with no context, which removes",
                            "whatever there is",
                        ]
                    )
                case .noAlternative(let contexts):
                    (
                        "it has no alternative for \(context); it has alternatives for \(contexts.map { "\($0)" }.joined(separator: ", "))",
                        ["remove one of those, or all of them with removeAlternatives(of:) and no context"]
                    )
                case .noLongerRegistered:
                    (
                        "the store no longer holds this registration: it was replaced, unregistered or unloaded since",
                        [
                            "call on(_:_:) on the entry the registration in force returned, chained on its register,",
                            "or change it by type: store.on(_:for:) and store.removeAlternatives(of:)",
                        ]
                    )
                }
            let change = if case .noAlternative = reason { "remove the alternative" } else { "add the alternative" }
            // A fix that changes the registration's factory; called by type, far from the
            // registration (a test's setup), the test's own store is the other way.
            let registrationsOwnFix =
                switch reason {
                case .contribution, .takesArguments, .isolated: true
                default: false
                }
            let orInTheTest =
                byType && registrationsOwnFix
                ? ["or, from a test, register the mock in the test's own store, which wins over this registration"] : []
            return [
                "DependencyStore: \(call) on '\(registration)' cannot \(change): \(what).",
                "",
                "  Called at: \(calledAt)",
                "  Registered at: \(registeredAt)",
                "",
                "  To fix: " + fix[0],
            ] + (fix.dropFirst() + orInTheTest).map { "  " + $0 }
        case .closingNeverRuns(let registration, let scope, let registeredAt, let calledAt):
            let owner =
                scope == .weak
                ? "A .weak instance belongs to whoever holds it strongly; the store only knows where it is"
                : "A \(scope) instance belongs to whoever asked for it; the store keeps no reference to it"
            return [
                "DependencyStore: closing { } on '\(registration)' would never run: the store never closes a \(scope) instance.",
                "",
                "  Called at: \(calledAt)",
                "  Registered at: \(registeredAt), with scope \(scope)",
                "  \(owner), so it never lets go of one that it could close.",
                "",
                "  To fix: close the instance where its owner is done with it (or in its deinit), or register it with",
                "  a scope the store keeps, .singleton or a custom scope (Scope(\"session\")), which reset closes.",
            ]
        case .closeFailed(let instance, let registeredAt, let trigger, let store, let error, let timeout):
            let what =
                if let error {
                    "DependencyStore: closing '\(instance)' threw \(error)."
                } else {
                    "DependencyStore: closing '\(instance)' had not ended when the deadline of \(trigger) passed, \(timeout ?? 0) s after it started."
                }
            let fix =
                error == nil
                ? [
                    "  It was cancelled, and the shutdown went on without it.",
                    "",
                    "  To fix: make its close() end sooner, and stop at once when its task is cancelled; or give the",
                    "  shutdown a longer timeout.",
                ]
                : [
                    "  The store let go of the instance anyway.",
                    "",
                    "  To fix: handle the error in its close(). To report these failures where you choose, install",
                    "  store.onCloseFailure { failure in ... }; a shutdown returns them in its report.",
                ]
            return [
                what,
                "",
                "  Closed by: \(trigger), on \(store)",
                "  Registered at: \(registeredAt)",
            ] + fix
        }
    }

    private static func lines(_ request: Request, _ missing: Missing) -> [String] {
        let shortName = request.shortName
        // A property of an instance this store keeps for the stores layered over it (a request's)
        // asked for what only such a store has, or what each request's store provides: the fix
        // for a server comes first.
        let isInStoresOver = missing.notes.contains { if case .registeredInStoresOver = $0 { true } else { false } }
        let isDeclaredHere = missing.notes.contains {
            if case .providedPerRequest(_, _, nil) = $0 { true } else { false }
        }
        let serverFix = missing.createdBy.map { isInStoresOver || isDeclaredHere ? $0 : nil } ?? nil
        var lines = ["DependencyStore: no registration for '\(request.requested)'.", ""]
        if let handle = missing.askedForAs {
            lines.append("  Asked for as: \(handle), which the store makes for any registered '\(shortName)'")
        }
        lines.append("  Requested by: \(describe(request.requester))")
        if let created = missing.createdBy {
            lines.append("  Created by: \(describe(created))")
        }
        if request.chain.count > 1 {
            lines.append("  While building: \(request.chain.joined(separator: " -> "))")
        }
        lines.append("  Store: \(describe(request.store))")
        lines += missing.searched.map { "  Searched next: \(describe($0))" }
        lines += registeredUnder(missing.registeredNames, type: shortName)
        for note in missing.notes {
            switch note {
            case .removed(let registeredAt, let removedAt, let how, let store):
                lines.append(
                    "  It was registered at \(registeredAt) and removed by \(how) at \(removedAt)"
                        + (store.map { ", in \($0)" } ?? "")
                        + ": what resolves it after that (a stray resolve after logout, say) finds nothing.")
            case .elementsRemoved(let contributedAt, let removedAt, let how, let store):
                lines.append(
                    "  Its elements were contributed (the first at \(contributedAt)) and removed by \(how) at \(removedAt)"
                        + (store.map { ", in \($0)" } ?? "")
                        + ": what resolves the collection after that finds nothing.")
            case .requiredBy(let declarer):
                lines.append("  Required by: \(declarer), which expects the app to register it.")
            case .providedPerRequest(let declaredAt, let assembly, let store):
                let declared =
                    "declared with providedPerRequest at \(declaredAt)" + (assembly.map { " (by \($0))" } ?? "")
                if let store {
                    lines.append("  '\(shortName)' is provided per request: \(declared), in \(store).")
                    lines.append(
                        "  This store is layered over that one, as a request's store is, and each such store must register it."
                    )
                } else {
                    lines.append("  '\(shortName)' is provided per request: \(declared).")
                    lines.append(
                        "  Each request's store (a store layered over this one) registers it; this store never does, and an object"
                    )
                    lines.append("  bound to this store (one made at start-up, say) does not see a request's values.")
                }
            case .registeredInStoresOver(let stores, let count):
                let more = count > stores.count ? " and \(count - stores.count) more" : ""
                lines.append(
                    "  '\(shortName)' is registered in \(stores.joined(separator: " and "))\(more), layered over this store. An object bound to this store"
                )
                lines +=
                    serverFix == nil
                    ? [
                        "  (one made at start-up, say, then used while a request is handled) does not see what a store over it adds:",
                        "  resolve it where that store is current (inside its execute { }), or pass the value in.",
                    ] : ["  (an instance it keeps for every request, say) does not see what a store over it adds."]
            }
        }
        lines += closeMatchLines(missing.closeMatches, requested: shortName)
        lines.append("")

        let implementation = implementationName(for: shortName)
        let nameArgument = request.name.map { ", name: \"\($0)\"" } ?? ""
        let perRequestNote = missing.notes.first(where: \.isProvidedPerRequest)
        if let created = serverFix {
            let kept = created.keptShortName
            lines += [
                "  To fix: this store keeps '\(kept)' (\(created.keptScope)) and shares it with the stores layered over it",
                "  (a request's), so its properties resolve from this store, where a request's values are out of sight:",
                "      - resolve '\(shortName)' where the request's store is current (inside its execute { }) and pass it",
                "        to the method that needs it;",
                "      - or register '\(kept)' as .unique, so that each request's store builds its own, bound to that store;",
                "      - or register '\(kept)' in each request's store, and declare it here with providedPerRequest(\(kept).self).",
            ]
            if isInStoresOver, !isDeclaredHere {
                lines += [
                    "  If this store should register '\(shortName)' itself (a test's store, say):",
                    "      store.register(Mock\(implementation)(), for: \(shortName).self\(nameArgument))",
                ]
            }
        } else if case .providedPerRequest(_, _, let declaringStore) = perRequestNote {
            // Asked of the store that declared it (the app's), or of one layered over it (a
            // request's) that does not register it.
            lines +=
                declaringStore == nil
                ? [
                    "  To fix: resolve it from the request's store, inside its execute { } or with its resolve(\(shortName).self\(nameArgument)).",
                    "  Where an object this store keeps needs it, make that object .unique, so that each request's store builds its",
                    "  own, or pass the value in (an argument, or a resolve per call) instead of keeping it.",
                ]
                : [
                    "  To fix: register it in this store when the request starts, before anything resolves it:",
                    "      store.register(<the request's \(shortName)>, for: \(shortName).self\(nameArgument))",
                ]
        } else if let collection = missing.collection {
            let (element, onlyNamed) = collection
            let named = onlyNamed ? ", name: \"\(implementationName(for: element).lowercased())\"" : ""
            lines += [
                "  '\(shortName)' is the collection of '\(element)': \(onlyNamed ? "no named element" : "nothing") is contributed to it.",
                "  To fix: contribute its elements, in this store or a parent:",
                "      contribute(\(implementationName(for: element))(), to: \(element).self\(named))",
                "  Or call resolveAll(\(element).self), which returns [] when nothing is contributed.",
            ]
        } else if !missing.registeredNames.isEmpty {
            lines += [
                "  To fix: ask for one of the names above, or register '\(shortName)' under this one:",
                "      register(\(implementation)(), for: \(shortName).self\(nameArgument))",
            ]
        } else if request.store.isRoot {
            lines += [
                "  To fix: register '\(shortName)' before it is first resolved, for example in registerAll():",
                "      register(Live\(implementation)(), for: \(shortName).self\(nameArgument))",
                "  In a test, register a mock in your own store and run the code under test in store.execute { }.",
            ]
        } else {
            lines += [
                "  To fix: register '\(shortName)' in this store before the code under test resolves it:",
                "      store.register(Mock\(implementation)(), for: \(shortName).self\(nameArgument))",
            ]
            if missing.searched.isEmpty {
                lines += [
                    "  A store made with DependencyStore() starts empty and does not fall back on the root store;",
                    "  make it with DependencyStore(parent: .shared) to keep the live registrations.",
                ]
            }
        }
        if let wrapper = request.requester.propertyWrapper {
            lines.append(
                "  An \(wrapper) property resolves from the store that was current when the property was created.")
        }
        if perRequestNote == nil {
            lines.append(
                "  Use resolveIfRegistered(_:) or @OptionalInjected where the dependency may legitimately be absent.")
        }
        return lines
    }

    /// `'Greeting' is registered under: "formal", no name`, when `names` has any.
    private static func registeredUnder(_ names: some Collection<String?>, type: String) -> [String] {
        guard !names.isEmpty else { return [] }
        let names = Set(names.map { $0.map { "\"\($0)\"" } ?? "no name" }).sorted()
        return ["  '\(type)' is registered under: \(names.joined(separator: ", "))"]
    }

    /// The "close to what was asked for" lines, when there are matches: for each, the candidate
    /// and what to do about it; for a `reset(_:name:)` (`resetting`) rather than a resolve, what
    /// to reset instead.
    private static func closeMatchLines(_ matches: [CloseMatch], requested: String, resetting: Bool = false) -> [String]
    {
        guard !matches.isEmpty else { return [] }
        return ["  Registered, and close to what was asked for:"]
            + matches.map { match in
                let candidate = "    - '\(match.candidate)' (registered at \(match.registeredAt))"
                return switch match.kind {
                case .optionalRegistered:
                    "\(candidate) is registered: an Optional is a different type from what it wraps. "
                        + (resetting
                            ? "Reset it as it was registered: reset(\(requested)?.self)."
                            : "Register for '\(requested).self', or ask for the optional.")
                case .sameShortName:
                    "\(candidate) has the same name but is a different type (another module or enclosing type). "
                        + "Check which module's '\(requested)' the registration and the \(resetting ? "reset refer to" : "request import")."
                case .similarName where resetting:
                    "\(candidate) has a similar name. A reset finds only the exact type a registration was made for: "
                        + "reset(\(match.candidateShortName).self) if that is the one."
                case .similarName:
                    "\(candidate) has a similar name. A registration is found only by the exact type "
                        + "it was registered for: if it conforms to '\(requested)', register it with "
                        + "'for: \(requested).self'."
                }
            }
    }

    /// How to fix a cycle, on one thread, across threads or across tasks.
    private static let cycleFix = [
        "  To fix: break the cycle. Let one of these types take the other later instead of in its factory",
        "  (an @Injected property is resolved on its first read, not when its owner is built), or move what",
        "  they share into a third type that both depend on.",
    ]

    /// What an implementation of `shortName` might be called in the "To fix" example:
    /// `AccessTokenServiceType` -> `AccessTokenService`.
    private static func implementationName(for shortName: String) -> String {
        for suffix in ["Protocol", "Type"] where shortName.hasSuffix(suffix) && shortName.count > suffix.count {
            return String(shortName.dropLast(suffix.count))
        }
        return shortName
    }

    /// `the factory of 'App.Reporter' (.singleton, registered at App/Server.swift:9), run by the
    /// store created at App/Server.swift:8, which keeps the instance`.
    private static func describe(_ created: CreatedBy) -> String {
        let factory =
            "the factory of '\(created.creator)' (\(created.creatorScope), registered at \(created.creatorRegisteredAt))"
        guard let kept = created.keptInstance else {
            return "\(factory), run by \(created.store), which keeps the instance"
        }
        return "\(factory), run by \(created.store) while it built '\(kept)' (\(created.keptScope)), which it keeps"
    }

    private static func describe(_ requester: Requester) -> String {
        switch requester {
        case .call(let location):
            "resolve at \(location)"
        case .injectedProperty(let location):
            "the @Injected property declared at \(location), on its first read"
        case .releasableInjectedProperty(let location):
            "the @ReleasableInjected property declared at \(location), on its first read since it was created or released"
        case .weakInjectedProperty(let location):
            "the @WeakInjected property declared at \(location), on its first read since it was created or released"
        case .lazyHandle(let location):
            "the Lazy handle made at \(location), on its first use"
        case .forward(let location):
            "the forward made at \(location)"
        }
    }

    /// Arguments as a resolve passed them: `(Swift.String)`, or the tuple of several.
    private static func argumentList(_ given: (type: String, count: Int)) -> String {
        given.count == 1 ? "(\(given.type))" : given.type
    }

    private static func describe(_ store: Store) -> String {
        let count = store.registrationCount.map { $0 == 1 ? " (1 registration)" : " (\($0) registrations)" } ?? ""
        let root = store.isRoot ? ", the one DependencyStore.shared falls back to outside execute { }" : ""
        return "\(store.name)\(count)\(root)"
    }

    /// What a thread of a cross-thread cycle waits for, with where it is being built.
    private static func describe(_ awaited: Awaited) -> String {
        switch awaited {
        case .instance(let label, let store):
            "'\(label)' in \(store)"
        case .firstValue(let label, .lazyHandle(let location)):
            "the first use of the Lazy handle made at \(location) ('\(label)')"
        case .firstValue(let label, let requester):
            "the first read of the \(requester.propertyWrapper ?? "@Injected") property declared at \(requester.location) ('\(label)')"
        }
    }
}

extension Diagnosis {
    /// What is wrong, for `cachingCannotApply`.
    fileprivate static func what(_ problem: CachingProblem, scope: Scope) -> String {
        switch problem {
        case .scopeKeepsNothing: "the store never keeps a \(scope) instance, so there is nothing to cache"
        case .isolated(let onMainActor):
            "its factory \(onMainActor ? "runs on the main actor" : "is async"), and only a synchronous factory's instances can be cached this way"
        case .noArguments: "its factory takes no arguments, so the store keeps one instance of it already"
        case .notHashable(let type): "its argument of type \(type) is not Hashable, so its values cannot be told apart"
        case .builtAlready: "the registration was resolved before the call, and what it kept then was kept without it"
        case .notPositive(let value): "\(value) is not positive"
        case .noLongerRegistered:
            "the store no longer holds this registration: it was replaced, unregistered or unloaded since"
        }
    }

    /// How to fix it, for `cachingCannotApply`.
    fileprivate static func fix(_ problem: CachingProblem, call: String) -> [String] {
        switch problem {
        case .scopeKeepsNothing:
            ["  To fix: register it with .singleton or a custom scope (Scope(\"session\")), or drop \(call)."]
        case .isolated:
            [
                "  To fix: register a synchronous factory that the cache may run on any thread, or keep the instance",
                "  in a custom scope and reset it (reset(_:name:)) when it must be rebuilt.",
            ]
        case .noArguments: ["  To fix: drop \(call); to rebuild the instance after a while, use expiring(after:)."]
        case .notHashable:
            [
                "  To fix: make the argument's type Hashable, or pass a Hashable identifier and look the value up in the factory."
            ]
        case .builtAlready:
            ["  To fix: call \(call) on what register returns, in the same statement, before anything resolves it."]
        case .notPositive: ["  To fix: pass a value greater than zero."]
        case .noLongerRegistered:
            ["  To fix: call \(call) on the entry the registration in force returned, chained on its register."]
        }
    }
}
