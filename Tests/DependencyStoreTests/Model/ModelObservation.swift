// What one operation showed, on the real store or in the model, and how the two are compared.
//
// The real store's instances are named by a serial number given at construction, the model's by
// an instance id. Neither can be predicted from the other (the store may build in another order
// than the model without being wrong), so the comparison keeps a one-to-one map between them
// across the whole sequence: the first time a model instance is seen, it is paired with the real
// object seen in its place; from then on each must appear where the other does. A new instance
// where the model expects a kept one, or the reverse, breaks the pairing.

/// One instance as a step saw it, with what it holds: its factory's dependencies, and for a
/// wrapping decorator's instance the one it wraps first.
struct ModelNode: Hashable, CustomStringConvertible {
    /// The real object's serial, or the model's instance id.
    let identity: Int
    let type: ModelType
    /// The ids of the marking decorators that ran on it, in the order they ran.
    let marks: [Int]
    let parts: [ModelNode]

    var description: String {
        let marks = self.marks.isEmpty ? "" : " marked\(self.marks)"
        let parts = self.parts.isEmpty ? "" : "(\(self.parts.map(\.description).joined(separator: ", ")))"
        return "\(type)#\(identity)\(marks)\(parts)"
    }
}

/// What an operation returned.
enum ModelObservation: Hashable, CustomStringConvertible {
    /// A registration, a child store, a holder made: nothing to compare but the counts.
    case nothing
    /// What `reset` and `unload` return.
    case count(Int)
    /// What `unregister` returns.
    case flag(Bool)
    /// What `registrations` lists, one line a registration (see `ModelObservation.listed`), in
    /// the listing's order.
    case listing([String])
    /// A resolve: one instance, or a collection's elements in order; `keys` for the dictionary
    /// form, sorted, with the instances in the same order.
    case instances([ModelNode], keys: [String]?)

    var description: String {
        switch self {
        case .nothing: "nothing"
        case .count(let count): "\(count)"
        case .flag(let flag): "\(flag)"
        case .listing(let lines): "[" + lines.joined(separator: "; ") + "]"
        case .instances(let nodes, let keys):
            if let keys {
                "[" + zip(keys, nodes).map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "]"
            } else {
                "[" + nodes.map(\.description).joined(separator: ", ") + "]"
            }
        }
    }
}

extension ModelObservation {
    /// One registration of a listing, as both sides write it: the type and name, then whether it
    /// is a provided value, a forward or a factory's, then whether it is inherited.
    static func listed(type: String, name: String?, provided: Bool, forward: Bool, inherited: Bool) -> String {
        let name = name.map { "[\"\($0)\"]" } ?? ""
        let kind = provided ? "provided value" : forward ? "forward" : "factory"
        return "\(type)\(name) \(kind)\(inherited ? ", inherited" : "")"
    }
}

/// One step's outcome: what the operation returned, and how often each factory and each
/// decorator (by id) has run since the sequence began.
struct ModelStepResult: Hashable {
    let observation: ModelObservation
    let factoryRuns: [Int: Int]
    let decoratorRuns: [Int: Int]
}

/// The pairing of real serials with model instance ids, kept across a sequence.
struct ModelIdentityMap {
    private var modelByReal: [Int: Int] = [:]
    private var realByModel: [Int: Int] = [:]

    /// Whether `real` is what `model` predicts, pairing the instances not seen before; on the
    /// first difference, what it is.
    mutating func difference(real: ModelObservation, model: ModelObservation) -> String? {
        switch (real, model) {
        case (.instances(let realNodes, let realKeys), .instances(let modelNodes, let modelKeys)):
            if realKeys != modelKeys {
                return "keys \(realKeys ?? []) where the model has \(modelKeys ?? [])"
            }
            return difference(realNodes, modelNodes, at: "result")
        default:
            return real == model ? nil : "\(real) where the model has \(model)"
        }
    }

    private mutating func difference(_ real: [ModelNode], _ model: [ModelNode], at path: String) -> String? {
        guard real.count == model.count else {
            return "\(path): \(real.count) instances where the model has \(model.count)"
        }
        for (index, (realNode, modelNode)) in zip(real, model).enumerated() {
            if let difference = difference(realNode, modelNode, at: "\(path)[\(index)]") { return difference }
        }
        return nil
    }

    private mutating func difference(_ real: ModelNode, _ model: ModelNode, at path: String) -> String? {
        guard real.type == model.type else {
            return "\(path): a \(real.type) where the model has a \(model.type)"
        }
        switch (modelByReal[real.identity], realByModel[model.identity]) {
        case (nil, nil):
            modelByReal[real.identity] = model.identity
            realByModel[model.identity] = real.identity
        case (model.identity?, real.identity?):
            break
        case (let paired?, _):
            let new = realByModel[model.identity] == nil ? " (a new one)" : ""
            return "\(path): the store returned the instance the model knows as #\(paired), "
                + "where the model has #\(model.identity)\(new)"
        case (nil, _?):
            return "\(path): the store returned a new instance, where the model has #\(model.identity), seen before"
        }
        guard real.marks == model.marks else {
            return "\(path): marked by decorators \(real.marks) where the model has \(model.marks)"
        }
        return difference(real.parts, model.parts, at: "\(path).parts")
    }
}
