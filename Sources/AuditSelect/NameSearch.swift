/// A whole-word search for a few names in many files' bytes (`progress`: the new components, in
/// every file version): the word screen's byte loop first (`WordScreen`, which may say yes wrongly but
/// never no), then, only where it says yes, the name-by-name reading that settles it
/// (`FileSelector.mentionsAny`). The answer is the reading's alone.
public struct NameSearch: Sendable {
    private let names: Set<UInt64>
    /// Nil when the names do not suit the screen (a name of one byte): every file is read.
    private let screen: WordScreen?

    public init(_ names: some Collection<String>) {
        self.names = Set(names.map(WordHash.ofName))
        screen = names.isEmpty ? nil : WordScreen(groups: names.sorted().map { [$0] })
    }

    /// Whether the bytes mention one of the names as a whole word.
    public func isMentioned(in bytes: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        if let screen {
            let seen = bytes.withUnsafeBufferPointer { screen.groupsAppearing(in: $0, enough: { !$0.isEmpty }) }
            if seen.isEmpty { return false }
        }
        return FileSelector.mentionsAny(of: names, in: bytes)
    }
}
