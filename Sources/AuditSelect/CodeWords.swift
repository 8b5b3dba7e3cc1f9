import SwiftGrammar

/// The names a file uses in code, apart from those it only mentions in comments and string literals:
/// `// replaces the old ProgressView` or `Text("ProgressView")` hold no use of `ProgressView`.
///
/// A second, closer reading, taken only at the few files whose name index shows a trigger word, and at
/// the display files a round asks about (the name index's lexer cannot tell comments from code without
/// following strings, and strings are where `//` may hide). Nil where `CodeScanner` gives up: then
/// every name may be code, and the file is parsed. By Swift's rules it never calls code a comment or a
/// string; where the pinned parser reads otherwise (broken code, its `x!// note` and `//* note` gaps)
/// it gives up on every shape seen so far (the fuzzer's inputs in fuzz/regressions; docs/reliability.md).
public struct CodeWords: Sendable {
    /// Hashes (`WordHash.ofName`) of the names outside comments and string literals, interpolations included.
    public private(set) var code = Set<UInt64>()
    /// Hashes of the names inside comments (where `loadaudit:` suppressions live).
    public private(set) var comments = Set<UInt64>()
    /// Of the names `determinate` watches, those used in code only as calls of determinate progress:
    /// `ProgressView(value: 0.4)`, `ProgressView("Upload", value: sent, total: size)` (none when a
    /// style in the file may make one spin).
    public private(set) var onlyInDeterminateCalls = Set<UInt64>()

    public init?(bytes: [UInt8], determinate: DeterminateWatch? = nil) {
        var code = Set<UInt64>()
        var comments = Set<UInt64>()
        var calls = determinate.map(DeterminateCalls.init)
        let finished = bytes.withUnsafeBufferPointer { buffer in
            CodeScanner.scan(buffer) { token in
                switch token {
                case .name(let hash, _, _): code.insert(hash)
                case .commentName(let hash): comments.insert(hash)
                default: break
                }
                calls?.visit(token, in: buffer)
            }
        }
        guard finished else { return nil }
        self.code = code
        self.comments = comments
        onlyInDeterminateCalls = calls?.onlyDeterminate ?? []
    }

    /// Whether `word` (one name) is used in code.
    public func usesInCode(_ word: String) -> Bool { code.contains(WordHash.ofName(word)) }

    /// Whether one of `words` is used in code: each of its names (`UI.Spinner` has two) outside
    /// comments and strings, or in a comment for a name in `commentNames` (the suppression marker's).
    /// Names in `notCounting` count as unused.
    func usesAnyInCode(_ words: WordSet, orInComments commentNames: Set<UInt64> = [], notCounting: Set<UInt64> = []) -> Bool {
        words.words.contains { parts in
            !parts.isEmpty && parts.allSatisfy {
                (code.contains($0) && !notCounting.contains($0)) || (commentNames.contains($0) && comments.contains($0))
            }
        }
    }
}
