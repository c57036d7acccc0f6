extension StartupReport: CustomStringConvertible {
    /// A summary line, then a table of the entries, slowest first, times in milliseconds:
    ///
    /// ```text
    /// 3 factories ran 3 times: 12.000 ms in factories, over 20.000 ms recorded. Slowest first:
    ///
    ///  own ms  total ms  runs  scope       registration  store
    ///   8.000     8.000     1  .singleton  Database      the root store
    ///   3.000    11.000     1  .singleton  Catalog       the root store
    ///   1.000    12.000     1  .unique     AppModel      the root store
    /// ```
    public var description: String {
        let elapsed = Tracing.milliseconds(elapsedNanoseconds)
        guard !entries.isEmpty else {
            return "No factory ran, over \(elapsed) ms recorded."
        }
        let runs = entries.reduce(0) { $0 + $1.count }
        let summary =
            "\(Tracing.counted(entries.count, "factory", "factories")) ran \(Tracing.counted(runs, "time", "times")): "
            + "\(Tracing.milliseconds(factoryNanoseconds)) ms in factories, over \(elapsed) ms recorded. Slowest first:"
        let header = ["own ms", "total ms", "runs", "scope", "registration", "store"]
        let rows = entries.map { entry in
            [
                Tracing.milliseconds(entry.ownNanoseconds), Tracing.milliseconds(entry.nanoseconds),
                String(entry.count),
                entry.scope.description, entry.label, entry.store,
            ]
        }
        // The numbers are right-aligned; the text is left-aligned, the last column unpadded.
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        let lines = ([header] + rows).map { cells in
            cells.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                if column < 3 { return padding + cells[column] }
                return column == cells.count - 1 ? cells[column] : cells[column] + padding
            }
            .joined(separator: "  ")
        }
        return ([summary, ""] + lines).joined(separator: "\n")
    }
}
