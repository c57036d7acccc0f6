/// The arguments a resolve passes to the factory.
///
/// The values sit in a class, so the enum is one pointer wide and `.none`, which almost every
/// resolve passes down its calls, costs nothing to copy; an `Any` payload inline would be copied
/// and destroyed through value witnesses at each call.
enum GivenArguments {
    case none
    case some(Values)

    /// `values` is a tuple of type `types` (or the single value, when `count` is 1).
    final class Values {
        let values: Any
        let types: Any.Type
        let count: Int

        init(values: Any, types: Any.Type, count: Int) {
            self.values = values
            self.types = types
            self.count = count
        }
    }

    /// The values of a resolve that passed arguments; only a factory that takes them asks.
    var values: Any {
        guard case .some(let given) = self else {
            preconditionFailure("DependencyStore: a factory that takes arguments ran without them")
        }
        return given.values
    }
}
