import Dependencies
import DependencyStore
import Foundation
import Swinject

// DependencyStore against Swinject, swift-dependencies and the floor, side by side in one
// process. Run from the Benchmarks folder:
//
//     swift run -c release Benchmarks            # the full run, about 2 minutes
//     swift run -c release Benchmarks --quick    # under a minute
//     swift run -c release Benchmarks --allocations singleton 1000
//                                                # 1000 resolves and nothing else, for valgrind
//
// Every line is the median of `repetitions` repetitions of a loop sized to run for `target`
// seconds, after a warm-up. See Docs/Performance.md for the method and the figures.

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
/// `--rows 1,6`: measure only these rows (and the floors), to profile one of them.
let onlyRows: Set<Int>? = arguments.firstIndex(of: "--rows").flatMap { index in
    arguments.dropFirst(index - arguments.startIndex + 1).first.map {
        Set($0.split(separator: ",").compactMap { Int($0) })
    }
}
let repetitions = 9
/// Seconds one repetition should take.
let target = quick ? 0.015 : 0.1

if let index = arguments.firstIndex(of: "--allocations") {
    let rest = Array(arguments[index...].dropFirst())
    guard rest.count == 2, let count = Int(rest[1]) else {
        FileHandle.standardError.write(
            Data(
                ("usage: Benchmarks --allocations singleton|graph|seed|seedgraph|injected|plaininjected|create|"
                    + "createonly|execute|withdependencies|request|swinjectrequest|dependenciesrequest|"
                    + "handwiredrequest|floorrequest|floor|floorclosure|requestphases|requestphases1...7 COUNT\n")
                    .utf8
            )
        )
        exit(64)
    }
    exit(countAllocations(of: rest[0], count: count) ? 0 : 64)
}

/// The number of operations that takes about `target` seconds, from a short trial run.
func iterations(_ body: (Int) -> Void, operationsPerIteration: Int = 1) -> Int {
    var trial = 1_000
    while true {
        let start = DispatchTime.now().uptimeNanoseconds
        body(trial)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if elapsed > 0.005 || trial >= 100_000_000 {
            return Swift.max(100, Int(Double(trial) * target / elapsed))
        }
        trial *= 4
    }
}

nonisolated(unsafe) var measurements: [Measurement] = []

func run(_ row: Int, _ what: String, _ library: Library, operationsPerIteration: Int = 1, _ body: (Int) -> Void) {
    if let onlyRows, row != 9, !onlyRows.contains(row) { return }
    let count = iterations(body, operationsPerIteration: operationsPerIteration)
    let samples = measure(
        repetitions: repetitions, iterations: count, operationsPerIteration: operationsPerIteration, body)
    let measurement = Measurement(row: row, what: what, library: library, samples: samples)
    measurements.append(measurement)
    FileHandle.standardError.write(
        Data("  \(row) \(library.rawValue): \(String(format: "%.1f", measurement.median)) ns/op\n".utf8))
}

// MARK: - Setting up each library

// The root store, as an app uses it: `@Injected` properties bind to it.
let store = DependencyStore.shared
store.register(LiveService(), for: Service.self, scope: .singleton)
store.register(Leaf(), for: Leaf.self)
store.register(Root.self) { store in Root(left: store.resolve(), right: store.resolve()) }
_ = store.resolve(Service.self)
// The seed's idiom, for a protocol that is not class-bound: `.unique`, the closure runs each time.
store.register(PlainShared.shared, for: (any PlainService).self)
store.register(PlainShared(), for: (any PlainService).self, name: "kept", scope: .singleton)
_ = store.resolve((any PlainService).self, name: "kept")
// A graph of 3 registered the way the seed registers everything: by autoclosure.
let seedStore = DependencyStore()
seedStore.register(Leaf(), for: Leaf.self)
seedStore.register(Root(left: seedStore.resolve(), right: seedStore.resolve()), for: Root.self)

let container = Container()
container.register(Service.self) { _ in LiveService() }.inObjectScope(.container)
container.register(Leaf.self) { _ in Leaf() }
container.register(Root.self) { resolver in
    Root(left: resolver.resolve(Leaf.self)!, right: resolver.resolve(Leaf.self)!)
}
_ = container.resolve(Service.self)
nonisolated(unsafe) let synchronizedContainer = container.synchronize()

let floor = Floor()
floor.store(LiveService(), for: Service.self)
floor.register(PlainShared.self) { _ in PlainShared.shared }
floor.register(Leaf.self) { _ in Leaf() }
floor.register(Root.self) { floor in
    Root(
        left: unsafeDowncast(floor.make(Leaf.self), to: Leaf.self),
        right: unsafeDowncast(floor.make(Leaf.self), to: Leaf.self))
}

let numbered = NumberedRegistrations(count: 1_000)

let bigStore = DependencyStore()
for register in numbered.intoStore { register(bigStore) }
bigStore.register(LiveService(), for: Service.self, scope: .singleton)
_ = bigStore.resolve(Service.self)

let bigContainer = Container()
for register in numbered.intoContainer { register(bigContainer) }
bigContainer.register(Service.self) { _ in LiveService() }.inObjectScope(.container)
_ = bigContainer.resolve(Service.self)

let bigFloor = Floor()
for register in numbered.intoFloor { register(bigFloor) }
bigFloor.store(LiveService(), for: Service.self)

FileHandle.standardError.write(
    Data("Measuring (\(quick ? "quick" : "full") mode, \(repetitions) repetitions of ~\(target) s each)...\n".utf8))

// MARK: - 9. The floors (first, as every other row is compared with them)

run(9, "floor: mutex + [ObjectIdentifier: AnyObject] lookup", .floor) { n in
    for _ in 0..<n { blackHole(floor.instance(for: Service.self)) }
}
let mutexFloor = measurements.last!
let closure: () -> Leaf = { Leaf() }
let storedClosure = [closure]
run(9, "floor: stored closure call (builds a Leaf)", .floor) { n in
    for _ in 0..<n { blackHole(storedClosure[0]()) }
}

// MARK: - 1. Resolve an already-built singleton registered for a protocol

run(1, "resolve a built singleton", .dependencyStore) { n in
    for _ in 0..<n { blackHole(store.resolve(Service.self)) }
}
run(1, "resolve a built singleton", .swinject) { n in
    for _ in 0..<n { blackHole(container.resolve(Service.self)!) }
}
run(1, "resolve a built singleton", .swiftDependencies) { n in
    for _ in 0..<n { blackHole(DependencyHolder().service) }
}

// MARK: - 2. A unique service whose factory resolves two others

run(2, "resolve a graph of 3 (.unique)", .dependencyStore) { n in
    for _ in 0..<n { blackHole(store.resolve(Root.self)) }
}
run(2, "resolve a graph of 3 (.unique)", .swinject) { n in
    for _ in 0..<n { blackHole(container.resolve(Root.self)!) }
}
run(2, "floor: 3 stored closures behind the mutex", .floor) { n in
    for _ in 0..<n { blackHole(floor.make(Root.self)) }
}

// MARK: - 3. One type among 1,000 registered

run(3, "resolve a built singleton among 1,000", .dependencyStore) { n in
    for _ in 0..<n { blackHole(bigStore.resolve(Service.self)) }
}
run(3, "resolve a built singleton among 1,000", .swinject) { n in
    for _ in 0..<n { blackHole(bigContainer.resolve(Service.self)!) }
}
for read in numbered.readLiveValue { read() }
run(3, "resolve a built singleton among 1,000", .swiftDependencies) { n in
    for _ in 0..<n { blackHole(DependencyHolder().service) }
}
run(3, "floor: lookup among 1,000", .floor) { n in
    for _ in 0..<n { blackHole(bigFloor.instance(for: Service.self)) }
}

// MARK: - 4. Registration cost, per registration, for 1,000 services

run(4, "register 1,000 services (per registration)", .dependencyStore, operationsPerIteration: 1_000) { n in
    for _ in 0..<n {
        let fresh = DependencyStore()
        for register in numbered.intoStore { register(fresh) }
        blackHole(fresh)
    }
}
run(4, "register 1,000 services (per registration)", .swinject, operationsPerIteration: 1_000) { n in
    for _ in 0..<n {
        let fresh = Container()
        for register in numbered.intoContainer { register(fresh) }
        blackHole(fresh)
    }
}
run(4, "register 1,000 services (per registration)", .swiftDependencies, operationsPerIteration: 1_000) { n in
    for _ in 0..<n {
        var values = DependencyValues()
        for register in numbered.intoValues { register(&values) }
        blackHole(values)
    }
}
run(4, "floor: 1,000 dictionary inserts behind the mutex", .floor, operationsPerIteration: 1_000) { n in
    for _ in 0..<n {
        let fresh = Floor()
        for register in numbered.intoFloor { register(fresh) }
        blackHole(fresh)
    }
}

// MARK: - 5. Two threads resolving the same singleton at once

run(5, "2 threads resolve one singleton (aggregate)", .dependencyStore, operationsPerIteration: 2) { n in
    onThreads(2) { _ in for _ in 0..<n { blackHole(store.resolve(Service.self)) } }
}
run(5, "2 threads resolve one singleton (aggregate)", .swinject, operationsPerIteration: 2) { n in
    onThreads(2) { _ in for _ in 0..<n { blackHole(synchronizedContainer.resolve(Service.self)!) } }
}
run(5, "2 threads resolve one singleton (aggregate)", .swiftDependencies, operationsPerIteration: 2) { n in
    onThreads(2) { _ in for _ in 0..<n { blackHole(DependencyHolder().service) } }
}
run(5, "floor: 2 threads, one mutex", .floor, operationsPerIteration: 2) { n in
    onThreads(2) { _ in for _ in 0..<n { blackHole(floor.instance(for: Service.self)) } }
}

// MARK: - 6. Read a property after its first resolve

let holder = InjectedHolder()
_ = holder.service
run(6, "read an @Injected after its first resolve", .dependencyStore) { n in
    for _ in 0..<n { blackHole(holder.service) }
}
let dependencyHolder = DependencyHolder()
run(6, "read a stored @Dependency", .swiftDependencies) { n in
    for _ in 0..<n { blackHole(dependencyHolder.service) }
}

// MARK: - 7. First read of a fresh property

run(7, "create an @Injected and read it once", .dependencyStore) { n in
    for _ in 0..<n { blackHole(InjectedHolder().service) }
}
run(7, "create a @Dependency and read it once", .swiftDependencies) { n in
    for _ in 0..<n { blackHole(DependencyHolder().service) }
}
run(7, "floor: a plain resolve of the same registration", .floor) { n in
    for _ in 0..<n { blackHole(store.resolve(Service.self)) }
}

// MARK: - 8. Entering and leaving execute

run(8, "enter and leave execute / withDependencies", .dependencyStore) { n in
    for _ in 0..<n { store.execute { blackHole(n) } }
}
run(8, "enter and leave execute / withDependencies", .swiftDependencies) { n in
    for _ in 0..<n {
        withDependencies { _ in
        } operation: {
            blackHole(n)
        }
    }
}

// MARK: - 10. The seed's idiom: a shared instance registered for a protocol that is not class-bound

run(10, "resolve register(Shared.shared, for: (any P).self), .unique", .dependencyStore) { n in
    for _ in 0..<n { blackHole(store.resolve((any PlainService).self)) }
}
run(10, "floor: mutex + lookup + stored closure call", .floor) { n in
    for _ in 0..<n { blackHole(floor.make(PlainShared.self)) }
}

// MARK: - 11. A graph of 3, every piece registered by autoclosure

run(11, "resolve a graph of 3 by autoclosures (.unique)", .dependencyStore) { n in
    for _ in 0..<n { blackHole(seedStore.resolve(Root.self)) }
}
run(11, "floor: 3 stored closures behind the mutex", .floor) { n in
    for _ in 0..<n { blackHole(floor.make(Root.self)) }
}

// MARK: - 12. A built singleton of a protocol that is not class-bound

run(12, "resolve a built singleton of (any P)", .dependencyStore) { n in
    for _ in 0..<n { blackHole(store.resolve((any PlainService).self, name: "kept")) }
}

// MARK: - 13. An @Injected of a protocol that is not class-bound, after its first resolve

let plainHolder = PlainInjectedHolder()
_ = plainHolder.service
run(13, "read an @Injected of (any P) after its first resolve", .dependencyStore) { n in
    for _ in 0..<n { blackHole(plainHolder.service) }
}

// MARK: - 14. A request handled through a store of its own

// A child store of the app's, two registrations (the request's id and user), `execute`, and a
// handler whose four `@Injected` properties are read once: two app-wide singletons, which the
// request store shares, and the two values. Against the same handler wired by hand.
let server = Server()
let handWiredServer = HandWiredServer()
run(14, "a request through a store: child, 2 provided values, execute, 4 reads", .dependencyStore) { n in
    for number in 0..<n { blackHole(server.handleThroughAStore(number)) }
}
run(14, "the same handler wired by hand", .floor) { n in
    for number in 0..<n { blackHole(handWiredServer.handle(number)) }
}
// The least a store per request can do for the same request (see RequestFloor.swift).
let floorServer = FloorServer()
run(14, "a plain store per request, written for this request alone", .floor) { n in
    for number in 0..<n { blackHole(floorServer.handle(number)) }
}
// The same request through each peer (see RequestPeers.swift): a child container of the app's
// with the two values registered and four resolves, and `withDependencies` setting the two values
// around a handler with four `@Dependency` reads.
let swinjectServer = SwinjectServer()
run(14, "a request through a child container: 2 registrations, 4 resolves", .swinject) { n in
    for number in 0..<n { blackHole(swinjectServer.handle(number)) }
}
let dependenciesServer = DependenciesServer()
run(14, "a request in withDependencies: 2 values, 4 @Dependency reads", .swiftDependencies) { n in
    for number in 0..<n { blackHole(dependenciesServer.handle(number)) }
}

// MARK: - 15. Two threads resolve an app-wide singleton through request stores

// Each thread resolves through a store of its own layered over the app's, as two requests do: the
// app's instance is shared, so each resolve falls through to the app's store. Against row 5's
// floor, two threads on one mutex.
let appOf15 = DependencyStore()
appOf15.register(LiveService(), for: Service.self, scope: .singleton)
let requestsOf15 = [DependencyStore(parent: appOf15), DependencyStore(parent: appOf15)]
for request in requestsOf15 { _ = request.resolve(Service.self) }
run(
    15, "2 threads resolve an app singleton through a request store each (aggregate)", .dependencyStore,
    operationsPerIteration: 2
) { n in
    onThreads(2) { thread in
        let request = requestsOf15[thread]
        for _ in 0..<n { blackHole(request.resolve(Service.self)) }
    }
}
run(15, "floor: 2 threads, one mutex", .floor, operationsPerIteration: 2) { n in
    onThreads(2) { _ in for _ in 0..<n { blackHole(floor.instance(for: Service.self)) } }
}

// MARK: - 16. Row 14's request on two threads at once

// Each thread handles requests as row 14 does, every request through a store of its own over the
// one app's store. What the two threads share is the app's store: its lock, if a request takes
// it, its published instances and their reference counts. Against the plain store written for
// this request alone, on two threads.
run(16, "row 14's request on 2 threads (aggregate)", .dependencyStore, operationsPerIteration: 2) { n in
    onThreads(2) { thread in
        for number in 0..<n { blackHole(server.handleThroughAStore(number &* 2 &+ thread)) }
    }
}
run(16, "a plain store per request on 2 threads (aggregate)", .floor, operationsPerIteration: 2) { n in
    onThreads(2) { thread in
        for number in 0..<n { blackHole(floorServer.handle(number &* 2 &+ thread)) }
    }
}

// MARK: - The table

// Each row is compared with its own floor line, or else with the mutex-dictionary floor.
var floors: [Int: Measurement] = [:]
for row in 1...16 {
    floors[row] = measurements.first { $0.row == row && $0.library == .floor && row != 9 } ?? mutexFloor
}
let order = measurements.sorted {
    ($0.row, Library.allCases.firstIndex(of: $0.library)!) < ($1.row, Library.allCases.firstIndex(of: $1.library)!)
}
print(table(order, floors: floors))
