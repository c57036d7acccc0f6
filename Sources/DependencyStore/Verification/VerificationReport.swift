import Foundation

/// What ``DependencyStore/verify(sampleArguments:entryPoints:timeout:captives:overrides:)`` found: the problems, the
/// registrations it could not build without arguments, and the graph it observed.
///
/// ```swift
/// let report = DependencyStore.shared.verify()
/// print(report)              // one problem a line, each with its fix
/// assert(report.isClean)
/// ```
///
/// In a test, `expectVerified(_:)` (Swift Testing) or `XCTAssertVerified(_:)` (XCTest), from the
/// `DependencyStoreTesting` library, turn each problem into a failure at your line.
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// How diagnostics name the store that was verified.
    public let storeDescription: String
    /// How many registrations verification checked: every one it could build, skipped ones aside.
    public let verifiedCount: Int
    /// Every problem found, in the order found; captive and per-request dependencies, which are
    /// read from the whole graph, last.
    public let problems: [VerificationProblem]
    /// Registrations whose factory takes arguments and for which no ``SampleArguments`` were
    /// given: not built, so not verified.
    public let skipped: [DependencyGraph.Node]
    /// Registrations not verified because their factory, or one they resolve, runs on the main
    /// actor or is `async`: ``DependencyStore/verify(sampleArguments:entryPoints:timeout:captives:overrides:)``
    /// builds on threads of its own, where those cannot run. ``description`` gives each one's
    /// reason. Always empty after ``DependencyStore/verifyAsync(sampleArguments:entryPoints:timeout:captives:overrides:)``,
    /// which builds them too.
    public var skippedForIsolation: [DependencyGraph.Node] { isolationSkips.map(\.node) }
    /// The dependencies verification observed.
    public let graph: DependencyGraph
    /// `skippedForIsolation`, with the reasons.
    let isolationSkips: [(node: DependencyGraph.Node, reason: String)]
    /// Every registration (or named contribution) that replaced another of the same store, in
    /// this store and its parents, in the order it happened: where an accidental override shows.
    /// With ``OverrideRule/forbidden``, each is also a problem.
    public let overrides: [Override]
    /// The registrations with alternatives for contexts
    /// (``RegistrationEntry/on(_:fileID:line:_:)``), each with the one in force for the task that
    /// called `verify()` (``RegisteredDependency/contextInForce``): what the others resolve.
    /// Verification builds every alternative, and its own factory, each as a root of its own.
    public let alternatives: [RegisteredDependency]

    /// A registration that replaced an earlier one of the same store, with both places.
    ///
    /// ```swift
    /// for override in store.verify().overrides {
    ///     print(override)   // Networking: registered at App/Live.swift:4 (by LiveAssembly), replaced at ...
    /// }
    /// ```
    public struct Override: Hashable, Sendable, CustomStringConvertible {
        /// The type, as Swift prints it: `Networking`.
        public let type: String
        /// The name both were registered under, if any.
        public let name: String?
        /// Whether both are elements contributed to the collection of ``type`` under ``name``.
        public let isContribution: Bool
        /// Where the replaced registration was made: `App/Live.swift:4`.
        public let replacedAt: String
        /// The assembly that made the replaced registration, if one did.
        public let replacedAssembly: String?
        /// Where the registration that replaced it was made.
        public let replacementAt: String
        /// The assembly that made the replacement, if one did.
        public let replacementAssembly: String?
        /// How many times this same replacement happened (a loop, an assembly applied twice).
        public let count: Int
        /// The store it happened in, as diagnostics name it.
        public let store: String

        init(_ override: OverrideRecord, store: String) {
            type = Diagnostics.shortName(of: override.type)
            name = override.name
            isContribution = override.isContribution
            replacedAt = override.replacedAt.description
            replacedAssembly = override.replacedAssembly?.name
            replacementAt = override.replacementAt.description
            replacementAssembly = override.replacementAssembly?.name
            count = override.count
            self.store = store
        }

        /// `Networking: registered at App/Live.swift:4 (by LiveAssembly), replaced at
        /// App/Mocks.swift:9 (by MockAssembly)`, with the store when it is a parent's.
        public var description: String {
            let subject = isContribution ? "[\(type)] element" : type
            let named = name.map { " (named \"\($0)\")" } ?? ""
            let old = replacedAssembly.map { " (by \($0))" } ?? ""
            let new = replacementAssembly.map { " (by \($0))" } ?? ""
            let times = count > 1 ? ", \(count) times" : ""
            return
                "\(subject)\(named): registered at \(replacedAt)\(old), replaced at \(replacementAt)\(new)\(times), in \(store)"
        }
    }

    /// Whether no problem was found. Skipped registrations do not count as problems; check
    /// ``skipped`` or give sample arguments to cover them.
    public var isClean: Bool { problems.isEmpty }

    /// One line for the summary, one line per problem (with its fix), then the skipped
    /// registrations.
    public var description: String {
        let checked = Tracing.counted(verifiedCount, "registration", "registrations")
        let found = problems.isEmpty ? "no problems" : Tracing.counted(problems.count, "problem", "problems")
        var lines = ["verify(): \(storeDescription): checked \(checked), \(found)."]
        lines += problems.map { "- \($0)" }
        // Each list under its title, when it has anything.
        let sections: KeyValuePairs<String, [String]> = [
            "Skipped, as their factories take arguments (pass SampleArguments to verify(sampleArguments:) to build them):":
                skipped.map { "\($0), registered at \($0.registeredAt ?? "?")" },
            "Replaced by a later registration of the same store (verify(overrides: .forbidden) makes each a problem):":
                // With `.forbidden`, each is a problem, listed above instead.
                problems.contains { $0.kind == .override } ? [] : overrides.map(\.description),
            "Alternatives for contexts (each was built; the one in force is what the others resolve):":
                alternatives.map { entry in
                    let label = entry.name.map { "\(entry.type) (named \"\($0)\")" } ?? entry.type
                    let inForce = entry.contextInForce.map { "\($0) in force" } ?? "the default in force"
                    let all = entry.contexts.map(\.description).joined(separator: ", ")
                    return "\(label), registered at \(entry.registeredAt): \(inForce), of \(all)"
                },
            "Skipped, as verify() builds on threads of its own (await verifyAsync() to build these on the main actor and in tasks):":
                isolationSkips.map { "\($0.node), registered at \($0.node.registeredAt ?? "?"): \($0.reason)" },
        ]
        for (title, items) in sections where !items.isEmpty {
            lines.append(title)
            lines += items.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// One thing wrong with a store's wiring, as ``DependencyStore/verify(sampleArguments:entryPoints:timeout:captives:overrides:)``
/// reports it.
public struct VerificationProblem: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Hashable, Sendable {
        /// A factory asks for a type (and name) that nothing registers.
        case missing
        /// A factory needs, through its dependencies, the instance it is building.
        case cycle
        /// An instance the store keeps (`.singleton` or a custom scope) holds one whose scope ends
        /// sooner: `.weak`, or another custom scope; with ``CaptiveRule/strict``, also `.unique`
        /// and `.graph`.
        case captive
        /// A resolve inside a factory failed for another reason (wrong arguments, say), or needed
        /// what a build stopped by another problem holds.
        case failed
        /// A factory did not return within the timeout.
        case timedOut
        /// A type (and name) that an assembly declared it requires
        /// (``DependencyStore/require(_:name:fileID:line:)``) is registered nowhere.
        case unmetRequirement
        /// A registration replaced another of the same store, and ``OverrideRule/forbidden`` was
        /// asked for.
        case override
        /// A decorator or a completion step (``DependencyStore/decorate(_:name:fileID:line:_:)``,
        /// ``DependencyStore/complete(_:name:fileID:line:_:)``) whose type and name match no
        /// registration and no contribution of the store: it would never run.
        case unmatchedDecorator
        /// ``SampleArguments`` that no registration taking arguments used: a typo in the type or
        /// the name, or a registration that no longer takes arguments.
        case unusedSample
        /// An app-wide instance (`.singleton`, `.weak` or a custom scope) whose graph reaches a
        /// type declared provided per request (``DependencyStore/providedPerRequest(_:name:fileID:line:)``):
        /// it cannot be one instance for the app, since each request's store builds its own with
        /// that request's value, and the store verified cannot give it that value.
        case perRequestDependency
        /// A type declared provided per request that the declaring store, or a parent, registers
        /// too: that store resolves its own, where the declaration says only a request's store has
        /// one.
        case perRequestConflict
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The nodes involved, dependent first: for `.missing`, the chain from the registration being
    /// verified to the missing type; for `.cycle`, the loop, its first node repeated at the end;
    /// for `.captive`, the holder to the held instance; for `.perRequestDependency`, the app-wide
    /// instance to the type provided per request.
    public let path: [DependencyGraph.Node]
    /// The problem and its fix, on one line.
    public let description: String

    static func unmetRequirement(_ missing: DependencyGraph.Node, declaredBy declarer: String, elementType: String?)
        -> Self
    {
        let (what, how) =
            if let elementType {
                ("[\(elementType)]", "contributes to it. Fix: contribute a \(elementType) to it")
            } else {
                ("\(missing)", "registers it. Fix: register \(missing)")
            }
        return Self(
            kind: .unmetRequirement,
            path: [missing],
            description:
                "unmet requirement: \(what) is required by \(declarer), and nothing \(how) in one of the app's "
                + "assemblies (or a parent store) before verify(), or remove the requirement if the module no longer "
                + "needs it."
        )
    }

    static func override(_ override: VerificationReport.Override, node: DependencyGraph.Node) -> Self {
        Self(
            kind: .override,
            path: [node],
            description: "override: \(override). Fix: keep one of the two, or register the second under a name; "
                + "to replace on purpose in tests, register in a store layered over this one "
                + "(DependencyStore(parent:)), which is not an override."
        )
    }

    static func unmatched(_ decorator: Decorator, forwardsOnly: Bool, in store: String) -> Self {
        let (name, every): (String?, Bool) =
            switch decorator.target {
            case .registration(let name): (name, false)
            case .every: (nil, true)
            }
        let node = DependencyGraph.Node.missing(decorator.type, name: name)
        let what = decorator.completes ? "completion step" : "decorator"
        let matches =
            forwardsOnly
            ? "only a forward of \(node), which builds nothing of its own"
            : every ? "no registration or contribution of \(node)" : "no registration of \(node)"
        let fix =
            if forwardsOnly {
                "add the \(what) for the forward's target, whose instance the forward hands out"
            } else if every {
                "register or contribute \(node), or remove the \(what)"
            } else if decorator.completes {
                "register \(node), add the step for the name that is registered, or remove it"
            } else {
                "register \(node), decorate the name that is registered, or use decorate(every:) for every name; "
                    + "remove it if the type is gone"
            }
        return Self(
            kind: .unmatchedDecorator,
            path: [node],
            description: "unmatched \(what): the \(what) added at \(decorator.location) (in \(store)) matches "
                + "\(matches) in this store, its parents or the stores over it, so it never runs. Fix: \(fix)."
        )
    }

    static func unusedSample(_ label: String) -> Self {
        Self(
            kind: .unusedSample,
            path: [],
            description: "unused sample arguments: the SampleArguments for \(label) match no registration that takes "
                + "arguments, so they were not used. Fix: give the type and name of a registration whose factory "
                + "takes arguments, or remove them."
        )
    }

    static func missing(_ path: [DependencyGraph.Node], lazyAt declaration: SourceLocation?) -> Self {
        let missing = path.last!
        let how = declaration.map { ", by the @Injected property at \($0)" } ?? ""
        return Self(
            kind: .missing,
            path: path,
            description: "missing: \(Self.chain(path)) (not registered\(how)). Fix: register \(missing) in the store "
                + "(or a parent), or use resolveIfRegistered / @OptionalInjected where it may be absent."
        )
    }

    static func cycle(_ path: [DependencyGraph.Node]) -> Self {
        Self(
            kind: .cycle,
            path: path,
            description:
                "cycle: \(Self.chain(path)). Fix: break the loop: let one side hold the other through @Injected "
                + "(resolved on first use, after both exist), or move what both need into a third service."
        )
    }

    /// The problem in a few words, for the report of a build that needed what this one stopped:
    /// `missing: A -> B -> C`.
    var summary: String {
        "\(kind): " + Self.chain(path)
    }

    /// `A -> B -> C`.
    private static func chain(_ path: [DependencyGraph.Node]) -> String {
        path.map(\.description).joined(separator: " -> ")
    }

    static func blocked(_ path: [DependencyGraph.Node], by cause: String) -> Self {
        let needed = path.last.map { "\($0)" } ?? "a dependency"
        return Self(
            kind: .failed,
            path: path,
            description: "failed: \(Self.chain(path)): needs \(needed), whose build stopped on another problem of this "
                + "report (\(cause)). Fix: fix that problem; this one goes with it."
        )
    }

    static func captive(_ path: [DependencyGraph.Node], rule: CaptiveRule) -> Self {
        let holder = path.first!
        let held = path.last!
        let via =
            path.count > 2
            ? " through " + path.dropFirst().dropLast().map(\.labelWithScope).joined(separator: " -> ")
            : ""
        let why =
            held.expiresAfter != nil
            ? "so it keeps using that instance after its expiry, when the store closes it. Fix: resolve \(held) each "
                + "time it is used (inject a Provider<\(held.type)> and call it) instead of keeping it."
            : "so that instance lives as long as \(holder) does, not as its scope says. Fix: register \(held) with "
                + "\(holder)'s scope or a longer one, give \(holder) the shorter scope, or resolve \(held) where it is "
                + "used instead of keeping it."
        return Self(
            kind: .captive,
            path: path,
            description: "captive: \(holder.labelWithScope) holds \(held.labelWithScope)\(via), \(why)"
                + (rule == .strict ? " (Reported by the strict captive rule.)" : "")
        )
    }

    static func failed(_ path: [DependencyGraph.Node], message: String) -> Self {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let firstLine = lines.first ?? message
        // The diagnostic's own fix: its "To fix:" line and the example under it.
        let fix =
            lines.firstIndex { $0.hasPrefix("To fix:") }.map { index in
                lines[index...].prefix(2).joined(separator: " ").dropFirst("To fix:".count).trimmingCharacters(
                    in: .whitespaces)
            } ?? "see the message resolve traps with for this case"
        return Self(
            kind: .failed,
            path: path,
            description: "failed: \(Self.chain(path)): \(firstLine) Fix: \(fix)"
        )
    }

    static func perRequestDependency(_ path: [DependencyGraph.Node]) -> Self {
        let holder = path.first!
        let value = path.last!
        let chain = path.map(\.labelWithScope).joined(separator: " -> ")
        return Self(
            kind: .perRequestDependency,
            path: path,
            description: "per-request dependency: \(chain): \(holder) is an app-wide instance, but it depends on "
                + "\(value), which only a request's store provides. So it is not one instance for the app: each "
                + "request's store builds its own, with that request's \(value), and built in this store it has no "
                + "\(value). Fix: register \(holder) as .unique (or .graph), so that each resolve builds one; or pass "
                + "\(value) in as an argument, or resolve it per call, instead of keeping it; or, for one \(holder) "
                + "per request, register it in each request's store and declare it with providedPerRequest."
        )
    }

    static func perRequestConflict(
        _ node: DependencyGraph.Node, declaredAt: String, declaredIn: String, registeredAt: String?,
        registeredIn: String
    ) -> Self {
        let registered = registeredAt.map { "registered at \($0)" } ?? "registered"
        let same = declaredIn == registeredIn ? "in the same store" : "in \(registeredIn)"
        return Self(
            kind: .perRequestConflict,
            path: [node],
            description: "per-request conflict: \(node) is declared provided per request at \(declaredAt) (in "
                + "\(declaredIn)), and \(registered) \(same): that store resolves its own \(node), so what needs one "
                + "outside a request gets it instead of a request's, and verify() checks it as registered. Fix: remove "
                + "the registration and register \(node) in each request's store; or, if it is app-wide after all, "
                + "remove the declaration."
        )
    }

    static func timedOut(_ node: DependencyGraph.Node, seconds: Double) -> Self {
        Self(
            kind: .timedOut,
            path: [node],
            description: "timed out: the factory of \(node) did not return within \(seconds) s, so what it "
                + "resolves after that is not verified. Fix: do not wait in a factory (network, locks); "
                + "or pass a longer timeout to verify()."
        )
    }
}
