import Testing

@testable import DependencyStore

/// A distinct type for every depth: `Nested<Nested<Root>>` and so on, made at run time.
private enum Root {}
private enum Nested<Inner> {}

/// The registrations of `count` distinct types, deepest last.
private func registrations(_ count: Int) -> [(key: ObjectIdentifier, registration: AnyRegistration)] {
    var made: [(key: ObjectIdentifier, registration: AnyRegistration)] = []
    func add<T>(_ type: T.Type, left: Int) {
        guard left > 0 else { return }
        let registration = Registration<T>(
            name: nil, scope: .unique, location: SourceLocation(fileID: #fileID, line: #line), arguments: nil,
            build: { _, _ in fatalError("never built") })
        made.append((ObjectIdentifier(type), registration))
        add(Nested<T>.self, left: left - 1)
    }
    add(Root.self, left: count)
    return made
}

struct TypeTableTests {
    /// Random inserts, replacements and removals against a dictionary, with seeds: the table
    /// grows, and its removals shift entries back, which a wrong shift shows as a lost entry.
    @Test(arguments: 0..<40)
    func agreesWithADictionaryThroughRandomChanges(seed: UInt64) {
        var random = ModelRandom(seed: seed)
        let pool = registrations(48)
        var table = TypeTable<AnyRegistration>()
        var model: [ObjectIdentifier: AnyRegistration] = [:]
        for _ in 0..<400 {
            let (key, registration) = random.pick(pool)
            if random.chance(40) {
                table[key] = nil
                model[key] = nil
            } else {
                table[key] = registration
                model[key] = registration
            }
            #expect(table.count == model.count)
        }
        for (key, _) in pool {
            #expect(table[key] === model[key], "seed \(seed): the entry of \(key)")
        }
        #expect(Set(table.values.map(ObjectIdentifier.init)) == Set(model.values.map(ObjectIdentifier.init)))
    }

    @Test func aCopyIsIndependentOfItsOriginal() {
        let pool = registrations(6)
        var original = TypeTable<AnyRegistration>()
        for (key, registration) in pool.prefix(3) { original[key] = registration }
        var copy = original
        copy[pool[0].key] = nil
        copy[pool[4].key] = pool[4].registration
        #expect(original[pool[0].key] === pool[0].registration)
        #expect(original[pool[4].key] == nil)
        #expect(original.count == 3)
        #expect(copy.count == 3)
        #expect(copy[pool[0].key] == nil)
    }

    @Test func anEmptyTableFindsNothingAndRemovesNothing() {
        var table = TypeTable<AnyRegistration>()
        let pool = registrations(1)
        #expect(table[pool[0].key] == nil)
        table[pool[0].key] = nil
        #expect(table.isEmpty)
    }
}
