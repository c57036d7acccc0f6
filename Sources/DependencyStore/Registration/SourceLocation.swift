/// A place in the user's source: where something was declared, registered or requested.
struct SourceLocation: CustomStringConvertible, Sendable {
    let fileID: StaticString
    let line: UInt

    var description: String { "\(fileID):\(line)" }
}

extension SourceLocation: Equatable {
    static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.line == rhs.line && lhs.fileID.description == rhs.fileID.description
    }
}
