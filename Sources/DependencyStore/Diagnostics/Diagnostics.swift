import Foundation

// The text of every failure a user can cause. Nothing here runs on a successful resolve.

extension DependencyStore {
    /// The diagnostic for a resolve of `type` (with `name`) that found no registration.
    func missingRegistration<T>(
        of type: T.Type,
        name: String?,
        requester: Requester,
        stack: ResolutionStack?
    ) -> ResolutionError {
        let requested = Diagnostics.label(of: type, name: name)
        let chain = (stack?.registrations().map(Diagnostics.label(of:)) ?? []) + [requested]
        let stores = Array(sequence(first: self, next: \.parent))
        let registeredPerStore = stores.map { $0.registry.withLock(\.all) }
        let registered = registeredPerStore.flatMap { $0 }

        var lines = ["DependencyStore: no registration for '\(requested)'."]
        lines.append("")
        lines.append("  Requested by: \(Diagnostics.describe(requester))")
        if chain.count > 1 {
            lines.append("  While building: \(chain.joined(separator: " -> "))")
        }
        for (index, store) in stores.enumerated() {
            let label = index == 0 ? "  Store: " : "  Searched next: "
            lines.append(label + Diagnostics.describe(store, registrationCount: registeredPerStore[index].count))
        }

        let sameType = registered.filter { $0.type == type }
        if !sameType.isEmpty {
            let names = Set(sameType.map { $0.name.map { "\"\($0)\"" } ?? "no name" }).sorted()
            lines.append("  '\(Diagnostics.shortName(of: type))' is registered under: \(names.joined(separator: ", "))")
        }
        lines += notes(onMissing: type, name: name, in: stores)
        let closeMatches = Diagnostics.closeMatches(to: type, among: registered)
        if !closeMatches.isEmpty {
            lines.append("  Registered, and close to what was asked for:")
            lines += closeMatches.map { "    - \($0)" }
        }

        lines.append("")
        let shortName = Diagnostics.shortName(of: type)
        let implementation = Diagnostics.implementationName(for: shortName)
        let nameArgument = name.map { ", name: \"\($0)\"" } ?? ""
        if name == nil, let collection = type as? any ContributedCollection.Type {
            let element = Diagnostics.shortName(of: collection.elementType)
            let named =
                collection.holdsOnlyNamedElements
                ? ", name: \"\(Diagnostics.implementationName(for: element).lowercased())\"" : ""
            lines.append(
                "  '\(shortName)' is the collection of '\(element)': \(collection.holdsOnlyNamedElements ? "no named element" : "nothing") is contributed to it."
            )
            lines.append("  To fix: contribute its elements, in this store or a parent:")
            lines.append(
                "      contribute(\(Diagnostics.implementationName(for: element))(), to: \(element).self\(named))")
            lines.append("  Or call resolveAll(\(element).self), which returns [] when nothing is contributed.")
        } else if !sameType.isEmpty {
            lines.append("  To fix: ask for one of the names above, or register '\(shortName)' under this one:")
            lines.append("      register(\(implementation)(), for: \(shortName).self\(nameArgument))")
        } else if isRoot {
            lines.append("  To fix: register '\(shortName)' before it is first resolved, for example in registerAll():")
            lines.append("      register(Live\(implementation)(), for: \(shortName).self\(nameArgument))")
            lines.append(
                "  In a test, register a mock in your own store and run the code under test in store.execute { }.")
        } else {
            lines.append("  To fix: register '\(shortName)' in this store before the code under test resolves it:")
            lines.append("      store.register(Mock\(implementation)(), for: \(shortName).self\(nameArgument))")
            if parent == nil {
                lines.append(
                    "  A store made with DependencyStore() starts empty and does not fall back on the root store;")
                lines.append("  make it with DependencyStore(parent: .shared) to keep the live registrations.")
            }
        }
        if let wrapper = requester.propertyWrapper {
            lines.append(
                "  An \(wrapper) property resolves from the store that was current when the property was created.")
        }
        lines.append(
            "  Use resolveIfRegistered(_:) or @OptionalInjected where the dependency may legitimately be absent.")

        return ResolutionError(
            kind: .notRegistered,
            typeName: requested,
            chain: chain,
            description: lines.joined(separator: "\n")
        )
    }

    /// The diagnostic for a resolve of `registration` while it is already being built on this
    /// chain, from frame `start` of `stack` on.
    func cycle(
        closedBy registration: AnyRegistration,
        from start: Int,
        requester: Requester,
        stack: ResolutionStack
    ) -> ResolutionError {
        let requested = Diagnostics.label(of: registration)
        let chain = stack.registrations(from: start).map(Diagnostics.label(of:)) + [requested]

        var lines = ["DependencyStore: dependency cycle: \(chain.joined(separator: " -> "))"]
        lines.append("")
        lines.append(
            "  '\(requested)' was asked for while it was still being built, so its factory could never finish.")
        lines.append("  Closed by: \(Diagnostics.describe(requester))")
        lines.append("  Store: \(Diagnostics.describe(self, registrationCount: nil))")
        let building = Set(stack.registrations(from: start).map(ObjectIdentifier.init))
        let decorators = stack.decorators.filter { building.contains($0.registration) }
        for decorator in decorators {
            lines.append(
                "  The chain runs through the decorator added at \(decorator.location), which runs while its instance is still being built."
            )
        }
        lines.append("")
        if !decorators.isEmpty {
            lines.append(
                "  To fix: let the decorator resolve only what does not need the instance it decorates; to connect two")
            lines.append(
                "  objects both ways, set the back-reference in the decorator of the one resolved first.")
        } else {
            lines += Diagnostics.cycleFix
        }

        return ResolutionError(
            kind: .cycle,
            typeName: requested,
            chain: chain,
            description: lines.joined(separator: "\n")
        )
    }

    /// The diagnostic for a thread that was about to wait for an instance (or an injected
    /// property's value) that another thread is building, while that thread, directly or through
    /// others, waits for this one: `waiters` starts with this thread, and each waits for what the
    /// next one builds, the last for what this one builds.
    static func crossThreadCycle(_ waiters: [WaitGraph.Waiter], requester: Requester) -> ResolutionError {
        let awaited = waiters.map(\.subject.typeLabel)
        // What this thread builds is what the last thread waits for.
        let chain = [awaited.last!] + awaited
        let count = waiters.count

        var lines = ["DependencyStore: dependency cycle across threads: \(chain.joined(separator: " -> "))"]
        lines.append("")
        lines.append(
            "  \(count) threads each wait for what the next one is building, so none of their factories could ever finish:"
        )
        for (index, waiter) in waiters.enumerated() {
            let thread = index == 0 ? "Thread 1 (this one)" : "Thread \(index + 1)"
            let building =
                waiter.chain.isEmpty
                ? "(no factory: it is reading an @Injected property)"
                : waiter.chain.map(Diagnostics.label(of:)).joined(separator: " -> ")
            lines.append("  \(thread) is building: \(building)")
            lines.append(
                "    and waits for \(waiter.subject.label), which thread \(index + 1 == count ? 1 : index + 2) is building."
            )
        }
        lines.append("  Closed by: \(Diagnostics.describe(requester))")
        lines.append(
            "  On one thread this is the ordinary cycle trap; across threads it would hang both threads forever.")
        lines.append("")
        lines += Diagnostics.cycleFix

        return ResolutionError(
            kind: .cycle,
            typeName: awaited[0],
            chain: chain,
            description: lines.joined(separator: "\n")
        )
    }

    /// The diagnostic for a resolve whose arguments do not match the registration's factory.
    func wrongArguments(
        for registration: AnyRegistration,
        given: GivenArguments,
        requester: Requester
    ) -> ResolutionError {
        let requested = Diagnostics.label(of: registration)
        let chain = (ResolutionStack.currentIfCreated?.registrations().map(Diagnostics.label(of:)) ?? []) + [requested]
        let expected = registration.argumentTypes.map(Diagnostics.argumentList) ?? "no arguments"
        let passed =
            switch given {
            case .none: "no arguments"
            case .some(let given): Diagnostics.argumentList(given.types, count: given.count)
            }

        var lines = ["DependencyStore: wrong arguments for '\(requested)': expected \(expected), given \(passed)."]
        lines.append("")
        lines.append("  Registered at: \(registration.location), with a factory that takes \(expected)")
        lines.append("  Requested by: \(Diagnostics.describe(requester)), which passed \(passed)")
        lines.append("  Store: \(Diagnostics.describe(self, registrationCount: nil))")
        lines.append("")
        let shortName = Diagnostics.shortName(of: registration.type)
        let nameArgument = registration.name.map { ", name: \"\($0)\"" } ?? ""
        if let types = registration.argumentTypes {
            let placeholders = types.map { "<\(Diagnostics.shortName(of: $0))>" }
            lines.append("  To fix: pass values of exactly those types, in that order:")
            lines.append(
                "      resolve(\(shortName).self\(nameArgument), arguments: \(placeholders.joined(separator: ", ")))")
            lines.append(
                "  An @Injected property cannot pass arguments: resolve such a registration with resolve(_:arguments:)."
            )
        } else {
            lines.append("  To fix: resolve it without arguments, or register a factory that takes them:")
            lines.append("      register(\(shortName).self\(nameArgument)) { store, argument in ... }")
        }

        return ResolutionError(
            kind: .wrongArguments,
            typeName: requested,
            chain: chain,
            description: lines.joined(separator: "\n")
        )
    }

    /// What the stores remember of a missing `type`: its removal, who requires it, and for a
    /// collection type, how its elements are contributed.
    private func notes(onMissing type: Any.Type, name: String?, in stores: [DependencyStore]) -> [String] {
        let key = TypeAndName(type: ObjectIdentifier(type), name: name)
        var lines: [String] = []
        for store in stores {
            let (removal, requirements) = store.registry.withLock { registry in
                (
                    registry.removals[key],
                    registry.requirements.filter { ObjectIdentifier($0.type) == key.type && $0.name == name }
                )
            }
            if let removal {
                lines.append(
                    "  It was registered at \(removal.registeredAt) and removed by \(removal.how) at \(removal.removedAt)"
                        + (store === self ? "" : ", in \(store)")
                        + ": what resolves it after that (a stray resolve after logout, say) finds nothing.")
            }
            for requirement in requirements {
                lines.append("  Required by: \(requirement.declarer), which expects the app to register it.")
            }
        }
        return lines
    }

    /// The diagnostic for a forward whose target built something that is not of the forwarded
    /// type.
    func forwardMismatch(
        of type: Any.Type,
        name: String?,
        to target: Any.Type,
        named targetName: String?,
        built value: Any,
        at location: SourceLocation
    ) -> ResolutionError {
        let requested = Diagnostics.label(of: type, name: name)
        let targetLabel = Diagnostics.label(of: target, name: targetName)
        let built = Diagnostics.name(of: Swift.type(of: value))
        let lines = [
            "DependencyStore: the forward of '\(requested)' to '\(targetLabel)' got a '\(built)', which is not a '\(Diagnostics.shortName(of: type))'.",
            "",
            "  Forward made at: \(location)",
            "  Store: \(Diagnostics.describe(self, registrationCount: nil))",
            "",
            "  To fix: forward to a registration whose instance conforms to '\(Diagnostics.shortName(of: type))', or make",
            "  '\(built)' conform to it.",
        ]
        return ResolutionError(
            kind: .wrongType,
            typeName: requested,
            chain: [requested, targetLabel],
            description: lines.joined(separator: "\n")
        )
    }

    /// The diagnostic for a `.weak` registration whose factory built something that is not an
    /// object, so nothing could hold it weakly.
    func weakScopeNeedsAClass(_ registration: AnyRegistration, built value: Any, requester: Requester)
        -> ResolutionError
    {
        let requested = Diagnostics.label(of: registration)
        let built = Diagnostics.name(of: Swift.type(of: value))

        var lines = [
            "DependencyStore: '\(requested)' is registered with scope .weak, but its factory built '\(built)', which is not a class instance."
        ]
        lines.append("")
        lines.append("  Registered at: \(registration.location)")
        lines.append("  Requested by: \(Diagnostics.describe(requester))")
        lines.append("  Store: \(Diagnostics.describe(self, registrationCount: nil))")
        lines.append("")
        lines.append(
            "  A weak reference can only point at an object, so a struct or an enum would be rebuilt on every resolve.")
        lines.append(
            "  To fix: register it with scope .singleton (or a custom scope you reset), or make '\(built)' a class.")

        return ResolutionError(
            kind: .invalidScope,
            typeName: requested,
            chain: [requested],
            description: lines.joined(separator: "\n")
        )
    }

    /// The diagnostic for a `@WeakInjected` property declared at `declaration` whose registration
    /// (found from this store) built something that is not an object, so the property could not
    /// hold it weakly.
    func weakInjectedNeedsAClass(_ type: Any.Type, name: String?, built value: Any, declaration: SourceLocation)
        -> ResolutionError
    {
        let requested = Diagnostics.label(of: type, name: name)
        let built = Diagnostics.name(of: Swift.type(of: value))
        let builtShortName = Diagnostics.shortName(of: Swift.type(of: value))
        let registration = lookUp(ObjectIdentifier(type), name: name, takingKeptInstance: false)?.found?.registration

        var lines = [
            "DependencyStore: the @WeakInjected property declared at \(declaration) holds '\(requested)' weakly, but its registration built '\(built)', which is not a class instance."
        ]
        lines.append("")
        lines.append("  Declared at: \(declaration)")
        if let registration {
            lines.append("  Registered at: \(registration.location), with scope \(registration.scope)")
        }
        lines.append("  Store: \(Diagnostics.describe(self, registrationCount: nil))")
        lines.append("")
        lines.append(
            "  A weak reference can only point at an object; a struct or an enum is copied, so there is nothing to hold weakly."
        )
        lines.append(
            "  To fix: make '\(builtShortName)' a class, or declare the property with @Injected (or @ReleasableInjected)"
        )
        lines.append("  to hold the value strongly.")

        return ResolutionError(
            kind: .invalidScope,
            typeName: requested,
            chain: [requested],
            description: lines.joined(separator: "\n")
        )
    }
}

extension DependencyStore {
    /// The diagnostic for a cycle through async factories: `chain` starts and ends with the same
    /// registration; `acrossTasks` when the chain spans tasks that await one another's builds.
    func asyncCycle(_ chain: [String], acrossTasks: Bool, requester: Requester) -> ResolutionError {
        var lines = [
            "DependencyStore: dependency cycle\(acrossTasks ? " across tasks" : ""): \(chain.joined(separator: " -> "))"
        ]
        lines.append("")
        lines.append(
            acrossTasks
                ? "  Each of these async builds awaits the next, and the last awaits the first, so none could ever finish."
                : "  '\(chain.last!)' was asked for while it was still being built, so its factory could never finish."
        )
        lines.append("  Closed by: \(Diagnostics.describe(requester))")
        lines.append("  Store: \(Diagnostics.describe(self, registrationCount: nil))")
        lines.append("")
        lines += Diagnostics.cycleFix

        return ResolutionError(
            kind: .cycle, typeName: chain.last!, chain: chain, description: lines.joined(separator: "\n"))
    }

    /// The diagnostic for a synchronous resolve of a registration whose factory cannot run here.
    func wrongIsolation(of registration: AnyRegistration, requester: Requester) -> ResolutionError {
        let requested = Diagnostics.label(of: registration)
        let shortName = Diagnostics.shortName(of: registration.type)
        let isMainActor = registration.isolation == .mainActor
        let chain = (ResolutionStack.currentIfCreated?.registrations().map(Diagnostics.label(of:)) ?? []) + [requested]

        var lines = [
            isMainActor
                ? "DependencyStore: '\(requested)' is registered on the main actor, but it was resolved synchronously off the main actor."
                : "DependencyStore: '\(requested)' is registered with an async factory, but it was resolved synchronously."
        ]
        lines.append("")
        lines.append("  Requested by: \(Diagnostics.describe(requester))")
        if chain.count > 1 {
            lines.append("  While building: \(chain.joined(separator: " -> "))")
        }
        lines.append("  Registered at: \(registration.location)")
        lines.append("  Store: \(Diagnostics.describe(self, registrationCount: nil))")
        lines.append(
            isMainActor
                ? "  Its factory must run on the main actor, and a synchronous call cannot get there from this thread without blocking it."
                : "  Its factory must be awaited, and a synchronous call cannot await."
        )
        lines.append("")
        lines.append(
            "  To fix: await it, which \(isMainActor ? "runs the factory on the main actor" : "runs the factory once for every task that asks"):"
        )
        lines.append("      let value = try await store.resolveAsync(\(shortName).self)")
        if isMainActor {
            lines.append(
                "  or resolve it (or read the @Injected property) on the main actor, in a @MainActor function or type.")
        } else {
            lines.append("  An @Injected property cannot await: resolve it in an async function and pass it in.")
        }

        return ResolutionError(
            kind: .wrongIsolation,
            typeName: requested,
            chain: chain,
            description: lines.joined(separator: "\n")
        )
    }
}

enum Diagnostics {
    /// How to fix a cycle, on one thread or across threads.
    static let cycleFix = [
        "  To fix: break the cycle. Let one of these types take the other later instead of in its factory",
        "  (an @Injected property is resolved on its first read, not when its owner is built), or move what",
        "  they share into a third type that both depend on.",
    ]

    /// The fully qualified name of a type (`MyApp.PriceFetching`, `Swift.Optional<MyApp.Token>`).
    static func name(of type: Any.Type) -> String {
        String(reflecting: type)
    }

    /// A registration as diagnostics show it: its fully qualified type, and its name if it has one.
    static func label(of registration: AnyRegistration) -> String {
        label(of: registration.type, name: registration.name)
    }

    /// `MyApp.Greeting`, or `MyApp.Greeting (named "formal")`.
    static func label(of type: Any.Type, name: String?) -> String {
        guard let name else { return self.name(of: type) }
        return "\(self.name(of: type)) (named \"\(name)\")"
    }

    /// `(Swift.Int, Foundation.Date)`.
    static func argumentList(_ types: [Any.Type]) -> String {
        "(" + types.map(name(of:)).joined(separator: ", ") + ")"
    }

    /// The same for the arguments a resolve passed, as one tuple type (or the single type).
    static func argumentList(_ types: Any.Type, count: Int) -> String {
        count == 1 ? "(\(name(of: types)))" : name(of: types)
    }

    /// The name of a type as its user writes it in code (`PriceFetching`).
    static func shortName(of type: Any.Type) -> String {
        String(describing: type)
    }

    /// What an implementation of `shortName` might be called in the "To fix" example:
    /// `AccessTokenServiceType` -> `AccessTokenService`.
    static func implementationName(for shortName: String) -> String {
        for suffix in ["Protocol", "Type"] where shortName.hasSuffix(suffix) && shortName.count > suffix.count {
            return String(shortName.dropLast(suffix.count))
        }
        return shortName
    }

    static func describe(_ requester: Requester) -> String {
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

    static func describe(_ store: DependencyStore, registrationCount: Int?) -> String {
        let count =
            registrationCount.map { count in
                count == 1 ? " (1 registration)" : " (\(count) registrations)"
            } ?? ""
        if store.isRoot {
            return "\(store)\(count), the one DependencyStore.shared falls back to outside execute { }"
        }
        return "\(store)\(count)"
    }
}
