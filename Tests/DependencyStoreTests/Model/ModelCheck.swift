import Foundation
import Testing

// Runs a sequence on a real store and on the reference model, compares them step by step, tells a
// known bug from a new discrepancy, and shrinks a new one to a short sequence that still shows it.

/// How many sequences of how many operations a run checks. The defaults keep the Model suite to a
/// few seconds on two cores; the environment asks for more:
///
/// - `MODEL_SEEDS=1000`: seeds 1 to 1000 (the default seeds are the first of them);
/// - `MODEL_SEED=1234`: that seed alone, to replay a failure;
/// - `MODEL_OPS=200`: operations per sequence.
struct ModelRunConfiguration {
    static let defaultSeedCount = 40
    static let defaultOperations = 80

    let seeds: [UInt64]
    let operations: Int

    /// The sequences of the default run, made once for the tests that share them.
    static let defaultSequences: [(seed: UInt64, operations: [ModelOperation])] = (1...UInt64(defaultSeedCount)).map {
        ($0, ModelGenerator.sequence(seed: $0, count: defaultOperations))
    }

    /// The sequences this run checks.
    var sequences: [(seed: UInt64, operations: [ModelOperation])] {
        if seeds == Array(1...UInt64(Self.defaultSeedCount)), operations == Self.defaultOperations {
            return Self.defaultSequences
        }
        return seeds.map { ($0, ModelGenerator.sequence(seed: $0, count: operations)) }
    }

    static var current: ModelRunConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let operations = environment["MODEL_OPS"].flatMap { Int($0) } ?? defaultOperations
        if let seed = environment["MODEL_SEED"].flatMap({ UInt64($0) }) {
            return ModelRunConfiguration(seeds: [seed], operations: operations)
        }
        let count = environment["MODEL_SEEDS"].flatMap { UInt64($0) } ?? UInt64(defaultSeedCount)
        return ModelRunConfiguration(seeds: Array(1...max(1, count)), operations: operations)
    }
}

enum ModelCheck {
    /// The first step where the store and a model part ways.
    struct Mismatch {
        let step: Int
        let detail: String
    }

    enum Verdict {
        case agrees
        case discrepancy(Mismatch)
    }

    // MARK: - Running

    /// Whether the plain model accepts every operation: only such a sequence is run on a store.
    static func isRunnable(_ operations: [ModelOperation]) -> Bool {
        var model = ModelReference()
        model.observes = false
        for operation in operations {
            guard (try? model.perform(operation)) != nil else { return false }
        }
        return true
    }

    /// Runs a runnable sequence on a fresh store. With a `label` (the seed), a trap on the way
    /// writes the label and the operation before the process dies (see `ModelTrapNote`).
    static func runStore(_ operations: [ModelOperation], label: String? = nil) -> [ModelStepResult] {
        let runner = ModelStoreRunner()
        defer { if label != nil { ModelTrapNote.set(nil) } }
        return operations.enumerated().map { step, operation in
            if let label {
                // The seed replays the whole sequence; the operation says where it stopped.
                ModelTrapNote.set(
                    "The store trapped in a model-based test, where the model says it must not: \(label), "
                        + "at step \(step) of \(operations.count): \(operation)")
            }
            return runner.perform(operation)
        }
    }

    /// Compares the store's results with a model's, from the first step.
    static func firstMismatch(
        _ operations: [ModelOperation], store: [ModelStepResult]
    ) -> Mismatch? {
        var model = ModelReference()
        var identities = ModelIdentityMap()
        for (step, (operation, real)) in zip(operations, store).enumerated() {
            let predicted: ModelObservation
            do {
                predicted = try model.perform(operation)
            } catch {
                return Mismatch(step: step, detail: "the model refuses it (\(error)), the store ran it")
            }
            if let difference = identities.difference(real: real.observation, model: predicted) {
                return Mismatch(
                    step: step,
                    detail: "\(difference)\n    store: \(real.observation)\n    model: \(predicted)")
            }
            if let difference = countDifference("factory", real.factoryRuns, model.factoryRuns) {
                return Mismatch(step: step, detail: difference)
            }
            if let difference = countDifference("decorator", real.decoratorRuns, model.decoratorRuns) {
                return Mismatch(step: step, detail: difference)
            }
        }
        return nil
    }

    private static func countDifference(_ what: String, _ real: [Int: Int], _ model: [Int: Int]) -> String? {
        let differing = Set(real.keys).union(model.keys).sorted().filter { real[$0] != model[$0] }
        guard !differing.isEmpty else { return nil }
        return differing.map {
            "\(what) #\($0) ran \(real[$0] ?? 0) times in the store, \(model[$0] ?? 0) in the model"
        }
        .joined(separator: "; ")
    }

    /// Runs a runnable sequence and judges it.
    static func verdict(_ operations: [ModelOperation], label: String? = nil) -> Verdict {
        let store = runStore(operations, label: label)
        guard let mismatch = firstMismatch(operations, store: store) else { return .agrees }
        return .discrepancy(mismatch)
    }

    // MARK: - Shrinking

    /// The shortest sequence found, by dropping one operation at a time (and then simplifying
    /// the ones left), that the plain model still accepts and the store still contradicts in a
    /// way no known bug explains.
    static func shrink(_ operations: [ModelOperation], label: String? = nil) -> [ModelOperation] {
        let fails: ([ModelOperation]) -> Bool = { candidate in
            guard isRunnable(candidate), case .discrepancy = verdict(candidate, label: label) else { return false }
            return true
        }
        var current = operations
        var changed = true
        while changed {
            changed = false
            var index = current.count - 1
            while index >= 0 {
                var candidate = current
                candidate.remove(at: index)
                if fails(candidate) {
                    current = candidate
                    changed = true
                }
                index -= 1
            }
            for index in current.indices {
                for simpler in simplifications(of: current[index]) {
                    var candidate = current
                    candidate[index] = simpler
                    if fails(candidate) {
                        current = candidate
                        changed = true
                        break
                    }
                }
            }
        }
        return current
    }

    /// Simpler versions of one operation: fewer dependencies, fewer assemblies or steps, no
    /// `keep` or `execute`.
    private static func simplifications(of operation: ModelOperation) -> [ModelOperation] {
        switch operation {
        case .register(let store, let registration):
            return simplifications(of: registration).map { .register(store: store, $0) }
        case .contribute(let store, let element):
            return simplifications(of: element).map { .contribute(store: store, $0) }
        case .decorate(let store, let decorator):
            return simplifications(of: decorator).map { .decorate(store: store, $0) }
        case .apply(let store, let assemblies):
            var result: [ModelOperation] = []
            if assemblies.count > 1 {
                result += assemblies.indices.map { index in
                    var fewer = assemblies
                    fewer.remove(at: index)
                    return .apply(store: store, fewer)
                }
            }
            for (index, assembly) in assemblies.enumerated() {
                for simpler in simplifications(of: assembly) {
                    var changed = assemblies
                    changed[index] = simpler
                    result.append(.apply(store: store, changed))
                }
            }
            return result
        case .resolve(let store, let request, let keep, let viaExecute):
            return (keep ? [.resolve(store: store, request, keep: false, viaExecute: viaExecute)] : [])
                + (viaExecute ? [.resolve(store: store, request, keep: keep, viaExecute: false)] : [])
        default:
            return []
        }
    }

    private static func simplifications(of assembly: ModelAssembly) -> [ModelAssembly] {
        var result: [ModelAssembly] = []
        if assembly.steps.count > 1 {
            result += assembly.steps.indices.map { index in
                var fewer = assembly.steps
                fewer.remove(at: index)
                return ModelAssembly(kind: assembly.kind, steps: fewer)
            }
        }
        for (index, step) in assembly.steps.enumerated() {
            let simpler: [ModelStep] =
                switch step {
                case .register(let registration): simplifications(of: registration).map { .register($0) }
                case .contribute(let element): simplifications(of: element).map { .contribute($0) }
                case .decorate(let decorator): simplifications(of: decorator).map { .decorate($0) }
                case .apply(let inner): simplifications(of: inner).map { .apply($0) }
                case .forward: []
                }
            for step in simpler {
                var changed = assembly.steps
                changed[index] = step
                result.append(ModelAssembly(kind: assembly.kind, steps: changed))
            }
        }
        return result
    }

    private static func simplifications(of registration: ModelRegistration) -> [ModelRegistration] {
        let fewerDependencies = registration.recipe.indices.map { index in
            var recipe = registration.recipe
            recipe.remove(at: index)
            return ModelRegistration(
                factory: registration.factory, type: registration.type, name: registration.name,
                scope: registration.scope, recipe: recipe, autoclosure: false, effects: registration.effects)
        }
        let noEffects =
            registration.effects.isEmpty
            ? []
            : [
                ModelRegistration(
                    factory: registration.factory, type: registration.type, name: registration.name,
                    scope: registration.scope, recipe: registration.recipe, autoclosure: false)
            ]
        return noEffects + fewerDependencies
    }

    private static func simplifications(of decorator: ModelDecorator) -> [ModelDecorator] {
        decorator.recipe.isEmpty
            ? []
            : [
                ModelDecorator(
                    id: decorator.id, type: decorator.type, target: decorator.target, wraps: decorator.wraps,
                    recipe: [], sharedLine: decorator.sharedLine)
            ]
    }

    // MARK: - Reporting

    /// The sequence, one numbered operation a line, as the failure messages print it.
    static func listing(_ operations: [ModelOperation]) -> String {
        operations.enumerated().map { "  \($0): \($1)" }.joined(separator: "\n")
    }

    static func describe(_ mismatch: Mismatch, in operations: [ModelOperation]) -> String {
        "at step \(mismatch.step) of \(operations.count), \(operations[mismatch.step]):\n  \(mismatch.detail)"
    }

    /// Checks `operations` (a fixed repro, or a generated sequence) and records an issue when the
    /// store contradicts the model, shrunk, with `seed` if it has one.
    static func expectAgreement(
        _ operations: [ModelOperation], seed: UInt64? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard isRunnable(operations) else {
            Issue.record("the model refuses this sequence:\n\(listing(operations))", sourceLocation: sourceLocation)
            return
        }
        let label = seed.map { "seed \($0) (replay: MODEL_SEED=\($0) swift test --filter Model)" }
        let replay = label.map { "\($0): " } ?? ""
        switch verdict(operations, label: label) {
        case .agrees:
            return
        case .discrepancy(let mismatch):
            let shrunk = shrink(operations, label: label.map { "\($0), while shrinking" })
            let shrunkMismatch = firstMismatch(shrunk, store: runStore(shrunk))
            Issue.record(
                """
                \(replay)the store contradicts the documented model \(describe(mismatch, in: operations))
                Shrunk to \(shrunk.count) operations:
                \(listing(shrunk))
                \(shrunkMismatch.map { describe($0, in: shrunk) } ?? "")
                """,
                sourceLocation: sourceLocation)
        }
    }
}
