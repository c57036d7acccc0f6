import Testing

@testable import DependencyStore

/// What `OnceStorage` assumes of the layout of its elements: the gate, then the value's room,
/// then the name, none overlapping and all inside the allocation. The gate's size is the C
/// struct's; a change to it or to the room's count could make two of them overlap.
@Suite struct OnceCellLayoutTests {
    struct Wide {
        var words: (Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5)
    }

    @Test func theValueTheGateAndTheNameDoNotOverlap() {
        let cell = OnceCell<Wide>(
            binding: .store(DependencyStore()), name: "wide",
            requester: .call(SourceLocation(fileID: #fileID, line: #line)))
        let gate = UInt(bitPattern: cell.gate.base)
        let value = UInt(bitPattern: cell.valueSlot)
        let name = UInt(bitPattern: cell.header.pointee.nameAddress.map { UnsafeMutableRawPointer($0) })
        let end = cell.storage.withUnsafeMutablePointerToElements { elements in
            UInt(bitPattern: elements + cell.storage.capacity)
        }
        #expect(gate % UInt(RawGate.alignment) == 0)
        #expect(gate + UInt(RawGate.size) <= value)
        #expect(value + UInt(MemoryLayout<Wide>.size) <= name)
        #expect(name % UInt(MemoryLayout<String>.alignment) == 0)
        #expect(name + UInt(MemoryLayout<String>.size) <= end)
        #expect(cell.name == "wide")
        #expect(cell.gate.published == nil)
    }
}
