import Foundation

/// What ``DependencyStore/verify(sampleArguments:timeout:captives:)`` found: the problems, the
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
    /// Every problem found, in the order found; captive dependencies last.
    public let problems: [VerificationProblem]
    /// Registrations whose factory takes arguments and for which no ``SampleArguments`` were
    /// given: not built, so not verified.
    public let skipped: [DependencyGraph.Node]
    /// Registrations not verified because their factory, or one they resolve, runs on the main
    /// actor or is `async`: verification builds on threads of its own, where those cannot run.
    /// ``description`` gives each one's reason.
    public var skippedForIsolation: [DependencyGraph.Node] { isolationSkips.map(\.node) }
    /// The dependencies verification observed.
    public let graph: DependencyGraph
    /// `skippedForIsolation`, with the reasons.
    let isolationSkips: [(node: DependencyGraph.Node, reason: String)]

    init(
        storeDescription: String,
        verifiedCount: Int,
        problems: [VerificationProblem],
        skipped: [DependencyGraph.Node],
        skippedForIsolation: [(node: DependencyGraph.Node, reason: String)],
        graph: DependencyGraph
    ) {
        self.storeDescription = storeDescription
        self.verifiedCount = verifiedCount
        self.problems = problems
        self.skipped = skipped
        isolationSkips = skippedForIsolation
        self.graph = graph
    }

    /// Whether no problem was found. Skipped registrations do not count as problems; check
    /// ``skipped`` or give sample arguments to cover them.
    public var isClean: Bool { problems.isEmpty }

    /// One line for the summary, one line per problem (with its fix), then the skipped
    /// registrations.
    public var description: String {
        let checked = verifiedCount == 1 ? "1 registration" : "\(verifiedCount) registrations"
        let found =
            switch problems.count {
            case 0: "no problems"
            case 1: "1 problem"
            default: "\(problems.count) problems"
            }
        var lines = ["verify(): \(storeDescription): checked \(checked), \(found)."]
        lines += problems.map { "- \($0)" }
        if !skipped.isEmpty {
            lines.append(
                "Skipped, as their factories take arguments (pass SampleArguments to verify(sampleArguments:) to build them):"
            )
            lines += skipped.map { "- \($0), registered at \($0.registeredAt ?? "?")" }
        }
        if !isolationSkips.isEmpty {
            lines.append(
                "Skipped, as verify() builds on threads of its own (resolve these with resolveAsync, and test them there):"
            )
            lines += isolationSkips.map { "- \($0.node), registered at \($0.node.registeredAt ?? "?"): \($0.reason)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// One thing wrong with a store's wiring, as ``DependencyStore/verify(sampleArguments:timeout:captives:)``
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
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The nodes involved, dependent first: for `.missing`, the chain from the registration being
    /// verified to the missing type; for `.cycle`, the loop, its first node repeated at the end;
    /// for `.captive`, the holder to the held instance.
    public let path: [DependencyGraph.Node]
    /// The problem and its fix, on one line.
    public let description: String

    static func missing(_ path: [DependencyGraph.Node], lazyAt declaration: SourceLocation?) -> Self {
        let missing = path.last!
        let how = declaration.map { ", by the @Injected property at \($0)" } ?? ""
        let chain = path.map(\.description).joined(separator: " -> ")
        return Self(
            kind: .missing,
            path: path,
            description: "missing: \(chain) (not registered\(how)). Fix: register \(missing) in the store "
                + "(or a parent), or use resolveIfRegistered / @OptionalInjected where it may be absent."
        )
    }

    static func cycle(_ path: [DependencyGraph.Node]) -> Self {
        let chain = path.map(\.description).joined(separator: " -> ")
        return Self(
            kind: .cycle,
            path: path,
            description: "cycle: \(chain). Fix: break the loop: let one side hold the other through @Injected "
                + "(resolved on first use, after both exist), or move what both need into a third service."
        )
    }

    /// The problem in a few words, for the report of a build that needed what this one stopped:
    /// `missing: A -> B -> C`.
    var summary: String {
        "\(kind): " + path.map(\.description).joined(separator: " -> ")
    }

    static func blocked(_ path: [DependencyGraph.Node], by cause: String) -> Self {
        let chain = path.map(\.description).joined(separator: " -> ")
        let needed = path.last.map { "\($0)" } ?? "a dependency"
        return Self(
            kind: .failed,
            path: path,
            description: "failed: \(chain): needs \(needed), whose build stopped on another problem of this "
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
        return Self(
            kind: .captive,
            path: path,
            description: "captive: \(holder.labelWithScope) holds \(held.labelWithScope)\(via), so that instance "
                + "lives as long as \(holder) does, not as its scope says. Fix: register \(held) with \(holder)'s "
                + "scope or a longer one, give \(holder) the shorter scope, or resolve \(held) where it is used "
                + "instead of keeping it." + (rule == .strict ? " (Reported by the strict captive rule.)" : "")
        )
    }

    static func failed(_ path: [DependencyGraph.Node], message: String) -> Self {
        let chain = path.map(\.description).joined(separator: " -> ")
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
            description: "failed: \(chain): \(firstLine) Fix: \(fix)"
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
