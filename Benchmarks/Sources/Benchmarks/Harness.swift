import Dispatch
import Foundation

/// One measured line of the table: a row of the issue, for one library.
struct Measurement {
    let row: Int
    let what: String
    let library: Library
    /// ns per operation, one per repetition.
    let samples: [Double]

    var median: Double { samples.sorted()[samples.count / 2] }
    var min: Double { samples.min()! }
    /// (max - min) / median, in percent.
    var spread: Double { (samples.max()! - samples.min()!) / median * 100 }
}

enum Library: String, CaseIterable {
    case dependencyStore = "DependencyStore"
    case swinject = "Swinject 2.10.0"
    case swiftDependencies = "swift-dependencies 1.17.1"
    case floor = "floor"

    var isPeer: Bool { self == .swinject || self == .swiftDependencies }
}

/// Runs `body(iterations)` `repetitions` times (after one warm-up) and returns ns per operation
/// for each repetition. `body` performs `iterations` operations.
func measure(repetitions: Int, iterations: Int, operationsPerIteration: Int = 1, _ body: (Int) -> Void) -> [Double] {
    body(Swift.max(1, iterations / 10))  // warm-up: caches, lazy metadata, first allocations
    var samples: [Double] = []
    for _ in 0..<repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        body(iterations)
        let end = DispatchTime.now().uptimeNanoseconds
        samples.append(Double(end - start) / Double(iterations * operationsPerIteration))
    }
    return samples
}

/// Keeps a value alive and opaque to the optimiser, so the work producing it cannot be removed.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Runs `body` on `threads` threads released together, and returns when all are done.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<threads {
        group.enter()
        Thread {
            start.wait()
            body(index)
            group.leave()
        }.start()
    }
    for _ in 0..<threads { start.signal() }
    group.wait()
}

/// The table, in Markdown: ns/op median, min and spread, and the ratios to the row's floor and
/// to the fastest peer.
func table(_ measurements: [Measurement], floors: [Int: Measurement]) -> String {
    func format(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }
    func ratio(_ value: Double, _ reference: Double?) -> String {
        guard let reference else { return "" }
        return String(format: "%.2fx", value / reference)
    }
    var lines = [
        "| # | What | Library | median ns/op | min ns/op | spread | vs floor | vs fastest peer |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for measurement in measurements {
        let peers = measurements.filter { $0.row == measurement.row && $0.library.isPeer }
        let fastestPeer = peers.map(\.median).min()
        let floor = floors[measurement.row]
        lines.append(
            "| \(measurement.row) | \(measurement.what) | \(measurement.library.rawValue) | "
                + "\(format(measurement.median)) | \(format(measurement.min)) | \(String(format: "%.0f%%", measurement.spread)) | "
                + "\(measurement.library == .floor ? "" : ratio(measurement.median, floor?.median)) | "
                + "\(measurement.library.isPeer ? "" : ratio(measurement.median, fastestPeer)) |")
    }
    return lines.joined(separator: "\n")
}
