// The text of the failures of what the store makes itself: handles resolved with arguments, and
// collections asked for with arguments.

extension DependencyStore {
    /// The diagnostic for a collection (`[T]`, `[String: T]`) resolved with arguments: its elements
    /// are contributed, each built by its own factory, and none is given arguments.
    func collectionTakesNoArguments(
        _ collection: any ContributedCollection.Type, given: GivenArguments, requester: Requester
    ) -> ResolutionError {
        let requested = Diagnostics.name(of: collection)
        let element = Diagnostics.shortName(of: collection.elementType)
        let passed = Diagnostics.passed(given)
        let chain = (ResolutionStack.currentIfCreated?.registrations().map(Diagnostics.label(of:)) ?? []) + [requested]
        let lines = [
            "DependencyStore: wrong arguments for '\(requested)': a collection takes no arguments, given \(passed).",
            "",
            "  Requested by: \(Diagnostics.describe(requester)), which passed \(passed)",
            "  Store: \(Diagnostics.describe(self, registrationCount: nil))",
            "  The elements of '\(Diagnostics.shortName(of: collection))' are contributed, each built by its own factory, with no arguments.",
            "",
            "  To fix: resolve it without arguments:",
            "      resolve([\(element)].self)",
            "  To pass a value to the elements, register it for them to resolve, or contribute a factory that captures it.",
        ]
        return ResolutionError(
            kind: .wrongArguments, typeName: requested, chain: chain, description: lines.joined(separator: "\n"))
    }
}

extension Diagnostics {
    /// What a resolve passed: `no arguments`, or the list of their types.
    static func passed(_ given: GivenArguments) -> String {
        switch given {
        case .none: "no arguments"
        case .some(let given): argumentList(given.types, count: given.count)
        }
    }

    /// The diagnostic for a handle resolved with arguments, then called with arguments again:
    /// taking either set would drop the other.
    static func handleCalledWithArgumentsAgain(
        _ handle: Any.Type, value: Any.Type, name: String?, carried: GivenArguments.Values, given: GivenArguments,
        requester: Requester
    ) -> ResolutionError {
        let requested = label(of: value, name: name)
        let handleName = shortName(of: handle)
        let carriedList = argumentList(carried.types, count: carried.count)
        let lines = [
            "DependencyStore: wrong arguments for '\(requested)': the \(handleName) carries \(carriedList), and was called with \(passed(given)).",
            "",
            "  The \(handleName) was resolved with arguments at \(requester.location); each call passes those.",
            "",
            "  To fix: call it without arguments to use the ones it carries, or resolve the \(handleName) without",
            "  arguments and pass them at each call.",
        ]
        return ResolutionError(
            kind: .wrongArguments, typeName: requested, chain: [requested], description: lines.joined(separator: "\n"))
    }
}

extension DependencyStore {
    /// The diagnostic for a completion step that resolves a `.unique` instance of the resolve it
    /// completes: a new one would be built, whose dependents would need completing again.
    func completionCycle(
        closedBy registration: AnyRegistration, chain building: [AnyRegistration], step: SourceLocation,
        requester: Requester
    ) -> ResolutionError {
        let requested = Diagnostics.label(of: registration)
        let completed = building.last.map(Diagnostics.label(of:)) ?? requested
        let chain = building.map(Diagnostics.label(of:)) + [requested]
        let shortName = Diagnostics.shortName(of: registration.type)
        let lines = [
            "DependencyStore: dependency cycle: \(chain.joined(separator: " -> "))",
            "",
            "  The completion step of '\(completed)' added at \(step) asked for '\(requested)', which the same resolve built.",
            "  '\(requested)' is .unique: a resolve builds a new one, whose '\(completed)' would need completing again.",
            "  Closed by: \(Diagnostics.describe(requester))",
            "  Store: \(Diagnostics.describe(self, registrationCount: nil))",
            "",
            "  To fix: give '\(shortName)' a scope that keeps its instance (.graph, .singleton), so the step gets",
            "  the one being completed; or set the back-reference in a completion step of '\(shortName)' itself.",
        ]
        return ResolutionError(
            kind: .cycle, typeName: requested, chain: chain, description: lines.joined(separator: "\n"))
    }
}
