import Hummingbird

extension Request {
    /// The query's parameters by name, when each is one the route takes and is given once: a
    /// misspelt `curency=EUR` is refused, not answered in the default currency.
    ///
    /// - Parameter names: The parameters the route takes.
    /// - Throws: ``APIError`` (400) naming the parameter that is not taken, or given twice.
    func queryParameters(taking names: Set<String>) throws(APIError) -> [String: String] {
        let route = "\(method) \(uri.path)"
        let takes = names.isEmpty ? "no query parameters" : names.sorted().joined(separator: ", ")
        var parameters: [String: String] = [:]
        for (name, value) in uri.queryParameters {
            guard names.contains(String(name)) else {
                throw .badRequest("unknown query parameter \(APIError.quoted(name)): \(route) takes \(takes)")
            }
            guard parameters.updateValue(String(value), forKey: String(name)) == nil else {
                throw .badRequest("the query parameter \(name) is given more than once")
            }
        }
        return parameters
    }

    /// The currency `GET /price` asks for: its `currency` parameter, or USD when it has none.
    ///
    /// - Throws: ``APIError`` (400) for any other parameter, or a currency that is not a code.
    func requestedCurrency() throws(APIError) -> Currency {
        guard let code = try queryParameters(taking: ["currency"])["currency"] else { return .default }
        return try Currency(parsing: code)
    }
}
