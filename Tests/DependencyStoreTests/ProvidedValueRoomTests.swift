import Testing

@testable import DependencyStore

/// Which provided values the store keeps in the rooms of its core (`ProvidedValueRoom`) and
/// which in boxes: the first two that fit, five words at most and a word's alignment at most.
@Suite struct ProvidedValueRoomTests {
    private protocol Holding {}
    private struct Held: Holding {}
    private struct SixWords {
        let a: Int, b: Int, c: Int, d: Int, e: Int, f: Int
    }
    private struct One {}
    private struct Two {}
    private struct Three {}

    private func roomsInUse(_ store: DependencyStore) -> Int {
        store.registry.withLock { $0.providedValues.roomsInUse }
    }

    @Test func theFirstTwoValuesThatFitGoInRoomsAndTheRestInBoxes() {
        let store = DependencyStore()
        store.provide(SixWords(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6))
        store.provide(SIMD4<Double>(1, 2, 3, 4))
        #expect(roomsInUse(store) == 0, "six words, or an alignment of 16, take a box")

        #expect(MemoryLayout<any Holding>.size == ProvidedValueRoom.valueBytes)
        store.provide(Held() as any Holding)
        store.provide(One())
        #expect(roomsInUse(store) == 2, "five words (an existential) fit a room")
        store.provide(Two())
        #expect(roomsInUse(store) == 2, "a third value that fits takes a box")

        #expect(store.resolve(SixWords.self).f == 6)
        #expect(store.resolve(SIMD4<Double>.self) == SIMD4<Double>(1, 2, 3, 4))
        #expect(store.resolve((any Holding).self) is Held)
        _ = store.resolve(One.self)
        _ = store.resolve(Two.self)
        #expect(roomsInUse(store) == 2, "a resolve leaves the value in its room")

        #expect(store.unregister(One.self))
        #expect(roomsInUse(store) == 1, "unregister moves it out")
        store.provide(Three())
        #expect(roomsInUse(store) == 2, "and the room is free for the next value")

        #expect(store.registrations.filter(\.isProvidedValue).count == 5)
        #expect(roomsInUse(store) == 0, "the listing turns every value into its registration")
        _ = store.resolve(Three.self)
    }
}
