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
    /// The reading stopped before the end where `stoppingWhen` said that what it had read settled the
    /// question (`init(bytes:determinate:noting:stoppingWhen:)`): the sets hold what was read so far.
    private(set) var stoppedEarly = false

    public init?(bytes: [UInt8], determinate: DeterminateWatch? = nil) {
        self.init(bytes: bytes, determinate: determinate, noting: nil)
    }

    /// The same, noting only the names of `interest` (nil: every name) in `code`, `comments` and
    /// `positions`: each set is then the full reading's set and `interest` in common, which is all the
    /// select step asks (`FileSelector`), for a Set insert of the few names it asks about instead of
    /// one for every name (a test compares both readings). `onlyInDeterminateCalls` is the same either way.
    ///
    /// `stoppingWhen`, asked each time a name is noted anew (of a reading so far, whose
    /// `onlyInDeterminateCalls` is empty), ends the reading when it says yes (`stoppedEarly`): for a
    /// question that what follows cannot answer otherwise (`FileSelector`: a use that makes the file parsed).
    init?(bytes: [UInt8], determinate: DeterminateWatch?, noting interest: NameInterest?, stoppingWhen settles: ((CodeWords) -> Bool)? = nil) {
        // The reading holds the closure: what it found is taken out before the closure ends.
        let read: CodeWords? = withoutActuallyEscaping(settles ?? { _ in false }) { settles in
            bytes.withUnsafeBufferPointer { buffer in
                var reading = Reading(bytes: buffer, interest: interest, determinate: determinate, settles: settles)
                guard CodeScanner.scan(buffer, &reading) else { return nil }
                var read = CodeWords(code: reading.code, comments: reading.comments, positions: reading.positions.found)
                read.onlyInDeterminateCalls = reading.hasReadEnough ? [] : reading.calls?.onlyDeterminate ?? []
                read.stoppedEarly = reading.hasReadEnough
                return read
            }
        }
        guard let read else { return nil }
        self = read
    }

    private init(code: Set<UInt64>, comments: Set<UInt64>, positions: NamePositions) {
        self.code = code
        self.comments = comments
        self.positions = positions
    }

    /// Takes `CodeScanner`'s tokens (a struct the scanner is specialized for: no closure per token).
    private struct Reading: CodeTokenVisitor {
        let bytes: UnsafeBufferPointer<UInt8>
        let interest: NameInterest?
        var code = Set<UInt64>()
        var comments = Set<UInt64>()
        var calls: DeterminateCalls?
        var positions: NamePositions.Reader
        let settles: (CodeWords) -> Bool
        /// How many names were noted anew, and how many when `settles` was last asked.
        var noted = 0, asked = 0
        private(set) var hasReadEnough = false

        init(bytes: UnsafeBufferPointer<UInt8>, interest: NameInterest?, determinate: DeterminateWatch?, settles: @escaping (CodeWords) -> Bool) {
            self.bytes = bytes
            self.interest = interest
            self.settles = settles
            calls = determinate.map(DeterminateCalls.init)
            positions = NamePositions.Reader(noting: interest)
        }

        mutating func visit(_ token: CodeScanner.Token) {
            switch token {
            case .name(let hash, _, _): if interest?.contains(hash) ?? true, code.insert(hash).inserted { noted += 1 }
            case .commentName(let hash): if interest?.contains(hash) ?? true, comments.insert(hash).inserted { noted += 1 }
            default: break
            }
            calls?.visit(token, in: bytes)
            positions.visit(token, in: bytes)
            if noted + positions.noted != asked {
                asked = noted + positions.noted
                hasReadEnough = settles(CodeWords(code: code, comments: comments, positions: positions.found))
            }
        }
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
        /// How many names were inserted into `found`'s sets.
        private(set) var noted = 0
        /// The names noted (nil: all): those the select step asks about (`CodeWords.init(bytes:determinate:noting:)`).
        let interest: NameInterest?

        init(noting interest: NameInterest? = nil) { self.interest = interest }

        private func notes(_ hash: UInt64) -> Bool { interest?.contains(hash) ?? true }
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
        /// An instance copy: a static costs a `swift_once` check at every name.
        private let initHash = WordHash.ofName("init")

        mutating func visit(_ token: CodeScanner.Token, in bytes: UnsafeBufferPointer<UInt8>) {
            switch token {
            case .lineBreak, .commentName:
                return
            case .name(let hash, _, _):
                if afterDot, hash == initHash, let named = nameBeforeDot, notes(named), found.called.insert(named).inserted { noted += 1 }
                let marked = opensMark
                if marked, notes(hash), found.marked.insert(hash).inserted { noted += 1 }
                pending = (hash, afterDot)
                lastName = hash
                lastNameMarked = marked
                afterDot = false
                opensMark = false
            case .punctuation(let byte, _):
                if let name = pending, byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{"), notes(name.hash), found.called.insert(name.hash).inserted { noted += 1 }
                let followsName = pending != nil
                pending = nil
                afterDot = byte == UInt8(ascii: ".")
                nameBeforeDot = afterDot && followsName ? lastName : nil
                opensMark = byte == UInt8(ascii: "@") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
                    || (afterDot && followsName && lastNameMarked)
            case .operatorRun(let assigns, let start):
                let first = bytes[start]
                if let name = pending, name.afterDot, assigns || first == UInt8(ascii: "?") || first == UInt8(ascii: "!"), notes(name.hash),
                   found.setAfterDot.insert(name.hash).inserted {
                    noted += 1
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

/// The names a closer reading notes when it need not note every name (`CodeWords.init(bytes:determinate:noting:)`).
/// A name's hash (`WordHash`, mixed) picks one of 4,096 bits: most names of a file find theirs clear
/// and cost no Set lookup.
struct NameInterest: Sendable {
    let names: Set<UInt64>
    private let bits: [UInt64]

    init(_ names: Set<UInt64>) {
        self.names = names
        var bits = [UInt64](repeating: 0, count: 64)
        for name in names { bits[Int(truncatingIfNeeded: (name >> 6) & 63)] |= 1 &<< (name & 63) }
        self.bits = bits
    }

    @inline(__always)
    func contains(_ name: UInt64) -> Bool {
        bits[Int(truncatingIfNeeded: (name >> 6) & 63)] & (1 &<< (name & 63)) != 0 && names.contains(name)
    }
}
