import SwiftGrammar

/// A whole-word search for a few names in many files' bytes (`progress`: the new components, in
/// every file version; the follow-up: the names the clocks link by, in the files left for later): the
/// word screen's byte loop first (`WordScreen`, which may say yes wrongly but never no), then, only
/// where it says yes, the name-by-name reading that settles it (`FileSelector.mentionsAny`). The answer
/// is the reading's alone.
public struct NameSearch: Sendable {
    private let names: Set<UInt64>
    /// Nil when a name does not suit the screen (one byte long, or not one identifier: the screen
    /// would ask for each of its parts): every file is read.
    let screen: WordScreen?
    /// The names' keys in a file's `NameSketch`; nil when a name is not one a sketch holds (no capital first).
    private let sketchKeys: [UInt64]?

    /// `hash` is how the reading hashes a name where it stands (`WordHash.ofName`, or `ofWord` for
    /// the name after leading digits); nil leaves the name out.
    public init(_ names: some Collection<String>, hashedAs hash: (String) -> UInt64?) {
        self.names = Set(names.compactMap(hash))
        let suitable = !names.isEmpty && names.allSatisfy { SwiftWords.isAllNameBytes($0.utf8) }
        screen = suitable ? WordScreen(groups: names.sorted().map { [$0] }) : nil
        var keys: [UInt64]? = []
        for name in names where hash(name) != nil {
            guard let key = NameSketch.key(of: name) else { keys = nil; break }
            if let key { keys?.append(key) }
        }
        sketchKeys = keys
    }

    public var isEmpty: Bool { names.isEmpty }

    /// Whether a file whose names `sketch` holds may mention one of the names: false only when none
    /// of them is among its names (then `isMentioned` is false for its bytes too), without its bytes.
    public func mayBeMentioned(in sketch: NameSketch) -> Bool {
        guard let sketchKeys else { return true }
        return sketchKeys.contains { sketch.mayHold($0) }
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
