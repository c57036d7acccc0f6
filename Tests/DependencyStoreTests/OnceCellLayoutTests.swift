import Testing

@testable import DependencyStore

/// What `OnceCell` assumes of its header's layout, which a change to `OnceHeader` could break.
@Suite struct OnceCellLayoutTests {
    @Test func theGateIsWhereTheCellLooksForIt() {
        #expect(MemoryLayout<OnceHeader>.offset(of: \.gateMemory) == OnceHeader.gateOffset)
    }
}
