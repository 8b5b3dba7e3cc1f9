import SwiftGrammar

/// The part of a possible rotating-text anchor that decides whether it is one (docs/speed.md, "The
/// anchor cut"), cut by `CodeScanner`'s tokens: the top-level pieces that hold a clock's, a
/// receiver's, a publisher's or a random pick's word, and, inside a type or an extension, only its
/// members that hold one, with every method a kept piece names (a clock's code is followed into its
/// type's methods), until no more come in; the type's head and closing brace around them. The
/// scanner parses only these (tree-sitter's included ranges) and asks the engine whether the part may
/// anchor; only then is the whole file parsed, else it is left for later.
///
/// A top-level piece is a run of code that ends with a closing bracket at depth zero (not an
/// attribute's `)`; or an `#endif` closing a top-level `#if`) followed, on a new line, by a name (not
/// `else`, `catch`, `where`, `while`, `as`, `is`, `in`), an `@` or a `#`: a declaration with its attributes and the plain lines before it; the
/// last runs to the end of the file. A member is cut the same way one level down, inside the body of
/// a piece that is one type declaration (a type keyword before its only top-level `{`); an `#if`
/// region is never cut.
public struct AnchorCut {
    /// The ranges to parse, in order and apart.
    let ranges: [Range<Int>]
    /// A cut larger than this share of its file is not taken: parsing it and then, for an anchor (about
    /// one possible anchor in eight), the whole file would cost about what it saves.
    public static let largestShare = 0.75
    /// How many bytes they hold.
    var byteCount: Int { ranges.reduce(0) { $0 + $1.count } }

    /// One piece: where it is, the names in its code, the methods it declares (a member's).
    struct Piece {
        var range: Range<Int>
        /// The names in its code, in order (kept as a list: a set per piece cost more than the cut saved
        /// on a small app), and whether one of them is a word the cut keeps.
        var names: [UInt64] = []
        var holdsWord = false
        var methods: [UInt64] = []
        /// A top-level type's body (after its `{`, up to its `}`) and its members; nil when the piece
        /// is no single type declaration (then it is kept or not whole).
        var body: Range<Int>?
        var members: [Piece] = []
    }

    /// The cut of `bytes` keeping what holds one of `words` (name hashes). Nil when `CodeScanner`
    /// gives up, or when nothing holds a word.
    static func cut(_ bytes: [UInt8], keeping words: Set<UInt64>) -> AnchorCut? {
        guard let pieces = pieces(bytes, keeping: words) else { return nil }
        // A type's piece with a word outside its members (in its head) is kept whole.
        let whole = pieces.map { piece in piece.holdsWord && (piece.body == nil || !piece.members.contains(where: \.holdsWord)) }
        var kept = pieces.map { piece in piece.members.map(\.holdsWord) }
        // The methods the kept code names, until none comes in.
        var named = Set<UInt64>()
        var read = pieces.map { piece in [Bool](repeating: false, count: piece.members.count) }
        var readWhole = [Bool](repeating: false, count: pieces.count)
        var changed = true
        while changed {
            changed = false
            for (index, piece) in pieces.enumerated() {
                if whole[index], !readWhole[index] {
                    named.formUnion(piece.names)
                    readWhole[index] = true
                }
                for (position, member) in piece.members.enumerated() where kept[index][position] && !read[index][position] {
                    named.formUnion(member.names)
                    read[index][position] = true
                }
            }
            for (index, piece) in pieces.enumerated() where !whole[index] {
                for (position, member) in piece.members.enumerated() where !kept[index][position] && member.methods.contains(where: named.contains) {
                    kept[index][position] = true
                    changed = true
                }
            }
        }
        var ranges: [Range<Int>] = []
        func add(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        for (index, piece) in pieces.enumerated() {
            if whole[index] {
                add(piece.range)
            } else if let body = piece.body, kept[index].contains(true) {
                add(piece.range.lowerBound..<body.lowerBound)
                for (member, isKept) in zip(piece.members, kept[index]) where isKept { add(member.range) }
                add(body.upperBound..<piece.range.upperBound)
            }
        }
        return ranges.isEmpty ? nil : AnchorCut(ranges: ranges)
    }

    /// The file's top-level pieces, which together cover it; nil when `CodeScanner` gives up.
    static func pieces(_ bytes: [UInt8], keeping words: Set<UInt64>) -> [Piece]? {
        bytes.withUnsafeBufferPointer { buffer -> [Piece]? in
            var reader = PieceReader(bytes: buffer, words: words)
            guard CodeScanner.scan(buffer, &reader) else { return nil }
            reader.finish()
            return reader.pieces
        }
    }

    /// Type-declaring keywords.
    static let typeKeywords: Set<UInt64> = Set(["struct", "class", "enum", "actor", "extension", "protocol"].map(WordHash.ofName))
    /// Names that go on with the code before them after a `}` (`} else {`, `} catch {`, `} while x`).
    static let continuations: Set<UInt64> = Set(["else", "catch", "where", "while", "as", "is", "in"].map(WordHash.ofName))
    static let ifHash = WordHash.ofName("if"), endifHash = WordHash.ofName("endif"), funcHash = WordHash.ofName("func")

    /// Where a piece may end (after a `}` or an `#endif` at its level), until the next token says.
    struct Ending {
        var at: Int?
        var lineBreak = false

        mutating func noteLineBreak() { if at != nil { lineBreak = true } }

        /// The end, when `token` (the next one that is no line break) starts a new piece.
        mutating func confirmed(by token: CodeScanner.Token, closingBraceStarts: Bool) -> Int? {
            guard let end = at else { return nil }
            defer { at = nil; lineBreak = false }
            guard lineBreak else { return nil }
            switch token {
            case .name(let hash, _, _): return AnchorCut.continuations.contains(hash) ? nil : end
            case .punctuation(let byte, _):
                return byte == UInt8(ascii: "@") || byte == UInt8(ascii: "#") || (closingBraceStarts && byte == UInt8(ascii: "}")) ? end : nil
            default: return nil
            }
        }
    }

    struct PieceReader: CodeTokenVisitor {
        let bytes: UnsafeBufferPointer<UInt8>
        var pieces: [Piece] = []
        var current = Piece(range: 0..<0)
        var member = Piece(range: 0..<0)
        /// Brackets open; `#if`s open at the top level and at a type body's level.
        var depth = 0
        var ifDepth = 0
        var memberIfDepth = 0
        var ending = Ending()
        var memberEnding = Ending()
        var afterHash = false
        var afterFunc = false
        /// The last token was `@`, or a name right after one (an attribute's, whose arguments may follow).
        var afterAt = false
        var attributeName = false
        /// For each bracket open, whether it holds an attribute's arguments (`@available(iOS 17, *)`):
        /// a piece never ends at its close.
        var opens: [Bool] = []
        /// A type keyword came at the top level in this piece, before any top-level `{`.
        var typeKeyword = false
        var topLevelBraces = 0
        /// The piece's body's `{`, while its members are read.
        var bodyOpen: Int?

        let words: Set<UInt64>

        init(bytes: UnsafeBufferPointer<UInt8>, words: Set<UInt64>) {
            self.bytes = bytes
            self.words = words
        }

        mutating func visit(_ token: CodeScanner.Token) {
            switch token {
            case .lineBreak:
                ending.noteLineBreak()
                memberEnding.noteLineBreak()
                return
            case .commentName:
                return
            default:
                break
            }
            if let end = ending.confirmed(by: token, closingBraceStarts: false) {
                current.range = current.range.lowerBound..<end
                pieces.append(current)
                current = Piece(range: end..<end)
                typeKeyword = false
                topLevelBraces = 0
            }
            if let end = memberEnding.confirmed(by: token, closingBraceStarts: true) {
                member.range = member.range.lowerBound..<end
                current.members.append(member)
                member = Piece(range: end..<end)
            }
            switch token {
            case .name(let hash, let start, _):
                attributeName = afterAt
                afterAt = false
                let isWord = words.contains(hash)
                if bodyOpen != nil {
                    member.names.append(hash)
                    if isWord { member.holdsWord = true }
                    if afterFunc, depth == 1 { member.methods.append(hash) }
                }
                current.names.append(hash)
                if isWord { current.holdsWord = true }
                afterFunc = hash == AnchorCut.funcHash
                if afterHash, depth == 0 {
                    if hash == AnchorCut.ifHash { ifDepth += 1 }
                    if hash == AnchorCut.endifHash, ifDepth > 0 {
                        ifDepth -= 1
                        if ifDepth == 0 { ending.at = nameEnd(from: start) }
                    }
                }
                if afterHash, depth == 1, bodyOpen != nil {
                    if hash == AnchorCut.ifHash { memberIfDepth += 1 }
                    if hash == AnchorCut.endifHash, memberIfDepth > 0 {
                        memberIfDepth -= 1
                        if memberIfDepth == 0 { memberEnding.at = nameEnd(from: start) }
                    }
                }
                afterHash = false
                if depth == 0, ifDepth == 0, AnchorCut.typeKeywords.contains(hash) { typeKeyword = true }
            case .punctuation(let byte, let at):
                afterHash = byte == UInt8(ascii: "#")
                afterFunc = false
                let opensAttribute = attributeName && byte == UInt8(ascii: "(")
                afterAt = byte == UInt8(ascii: "@")
                attributeName = false
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                    opens.append(opensAttribute)
                    if depth == 0, byte == UInt8(ascii: "{") {
                        topLevelBraces += 1
                        if typeKeyword, topLevelBraces == 1, ifDepth == 0 {
                            bodyOpen = at
                            member = Piece(range: (at + 1)..<(at + 1))
                        } else {
                            // No single type declaration: kept or not whole.
                            current.body = nil
                            current.members = []
                        }
                    }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                    depth -= 1
                    let closesAttribute = opens.popLast() ?? false
                    if depth == 1, bodyOpen != nil, memberIfDepth == 0, !closesAttribute { memberEnding.at = at + 1 }
                    if depth == 0, byte != UInt8(ascii: "}"), ifDepth == 0, !closesAttribute { ending.at = at + 1 }
                    if depth == 0, byte == UInt8(ascii: "}") {
                        if let open = bodyOpen {
                            // The body closes: its last member runs to the `}`.
                            memberEnding = Ending()
                            member.range = member.range.lowerBound..<at
                            current.members.append(member)
                            if topLevelBraces == 1 { current.body = (open + 1)..<at } else { current.members = [] }
                            bodyOpen = nil
                        }
                        if ifDepth == 0 { ending.at = at + 1 }
                    }
                default:
                    break
                }
            default:
                afterHash = false
                afterFunc = false
                afterAt = false
                attributeName = false
            }
        }

        func nameEnd(from start: Int) -> Int {
            var end = start
            while end < bytes.count, ByteClass.of(bytes[end]).contains(.name) { end += 1 }
            return end
        }

        mutating func finish() {
            current.range = current.range.lowerBound..<bytes.count
            pieces.append(current)
        }
    }
}
