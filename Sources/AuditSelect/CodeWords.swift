import SwiftGrammar

/// The names a file uses in code, apart from those it only mentions in comments and string literals:
/// `// replaces the old ProgressView` or `Text("ProgressView")` hold no use of `ProgressView`.
///
/// The closer reading, taken only at the few files whose word screen shows a trigger word or the words
/// of a possible rotating-text anchor (the screen cannot tell comments from code without following
/// strings, and strings are where `//` may hide). Nil where `CodeScanner` gives up: then
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
    /// Where names stand (`NamePositions`): what the rotating-text rules' words must be to count.
    public private(set) var positions = NamePositions()

    public init?(bytes: [UInt8], determinate: DeterminateWatch? = nil) {
        var code = Set<UInt64>()
        var comments = Set<UInt64>()
        var calls = determinate.map(DeterminateCalls.init)
        var positions = NamePositions.Reader()
        let finished = bytes.withUnsafeBufferPointer { buffer in
            CodeScanner.scan(buffer) { token in
                switch token {
                case .name(let hash, _, _): code.insert(hash)
                case .commentName(let hash): comments.insert(hash)
                default: break
                }
                calls?.visit(token, in: buffer)
                positions.visit(token, in: buffer)
            }
        }
        guard finished else { return nil }
        self.code = code
        self.comments = comments
        onlyInDeterminateCalls = calls?.onlyDeterminate ?? []
        self.positions = positions.found
    }

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

/// Where names stand in code, as far as tokens tell (each set over-approximates what the parser
/// reads, never less): the rotating-text rules' words count only so (`FileSelector`), which keeps most
/// files that name a clock and `title` or `Text` somewhere from being parsed for nothing.
public struct NamePositions: Sendable {
    /// Names followed by `(` or `{` (line breaks between allowed), and `Name.init(`: what may be called.
    public private(set) var called = Set<UInt64>()
    /// Names after a `.` and before an assignment (or a `?`/`!` that may come before one):
    /// `statusLabel.text = ...`, a property set on another value.
    public private(set) var setAfterDot = Set<UInt64>()
    /// Names after `@` (an attribute, `@State`, `@Observation.Observable`) or after `:`, `,` or `&`
    /// (a conformance, `: ObservableObject`), and the further names of such a dotted chain.
    public private(set) var marked = Set<UInt64>()

    /// Takes the tokens of `CodeScanner` in order.
    struct Reader {
        var found = NamePositions()
        /// The last name, while the token after it is still to come.
        private var pending: (hash: UInt64, afterDot: Bool)?
        /// The last significant token was a `.` (line breaks are not significant).
        private var afterDot = false
        /// The last significant token opens a mark: `@`, `:`, `,`, `&`, or a `.` after a marked name.
        private var opensMark = false
        /// The name before the last `.`, for `Name.init(`.
        private var nameBeforeDot: UInt64?
        private var lastName: UInt64?
        private var lastNameMarked = false
        private static let initHash = WordHash.ofName("init")

        mutating func visit(_ token: CodeScanner.Token, in bytes: UnsafeBufferPointer<UInt8>) {
            switch token {
            case .lineBreak, .commentName:
                return
            case .name(let hash, _, _):
                if afterDot, hash == Self.initHash, let named = nameBeforeDot { found.called.insert(named) }
                let marked = opensMark
                if marked { found.marked.insert(hash) }
                pending = (hash, afterDot)
                lastName = hash
                lastNameMarked = marked
                afterDot = false
                opensMark = false
            case .punctuation(let byte, _):
                if let name = pending, byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") { found.called.insert(name.hash) }
                let followsName = pending != nil
                pending = nil
                afterDot = byte == UInt8(ascii: ".")
                nameBeforeDot = afterDot && followsName ? lastName : nil
                opensMark = byte == UInt8(ascii: "@") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
                    || (afterDot && followsName && lastNameMarked)
            case .operatorRun(let assigns, let start):
                let first = bytes[start]
                if let name = pending, name.afterDot, assigns || first == UInt8(ascii: "?") || first == UInt8(ascii: "!") {
                    found.setAfterDot.insert(name.hash)
                }
                // `?` and `!` after a name may come before the `.` of a chain or an assignment: the name
                // stays the last one.
                if first != UInt8(ascii: "?"), first != UInt8(ascii: "!") || assigns { pending = nil }
                afterDot = false
                opensMark = first == UInt8(ascii: "&") && start + 1 < bytes.count && !ByteClass.of(bytes[start + 1]).contains(.operatorCharacter)
            case .stringStart, .stringEnd:
                pending = nil
                afterDot = false
                opensMark = false
            }
        }
    }
}
