import SwiftGrammar

/// The part of a possible rotating-text anchor that decides whether it is one (docs/speed.md, "The
/// anchor cut"), cut by `CodeScanner`'s tokens: the top-level pieces that hold a clock's, a
/// receiver's, a publisher's or a random pick's word, and, inside a type or an extension, only its
/// members that hold one, with the methods the kept clock code calls (a clock's code is followed into
/// its type's methods), `methodLevels` calls deep; the type's head and closing brace around them; and
/// inside what is kept, each brace block that holds nothing the reader needs is kept as its two braces
/// only (`AnchorCut+Hollow`). The scanner parses only these (tree-sitter's included ranges) and asks
/// the engine whether the part may anchor; only then is the whole file parsed, else it is left for later.
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
    /// How many calls deep the cut follows the kept code into methods: the reader follows a clock's code
    /// (or a target clock's selected method, which the clock's call names) two calls deep
    /// (`RotationReader.methodDepth`) and reads, at the last, the body of a method an assignment calls
    /// (`movesOnInMethod`): four levels from the clock's call.
    static let methodLevels = 4
    /// How many bytes they hold.
    var byteCount: Int { ranges.reduce(0) { $0 + $1.count } }

    /// One piece: where it is, whether a name in its code is a word the cut keeps, the methods it
    /// declares (a member's).
    struct Piece {
        var range: Range<Int>
        var holdsWord = false
        var methods: [UInt64] = []
        /// A top-level type's body (after its `{`, up to its `}`) and its members; nil when the piece
        /// is no single type declaration (then it is kept or not whole).
        var body: Range<Int>?
        var members: [Piece] = []
    }

    /// The cut of `bytes` keeping what holds one of `words` (name hashes), hollowed inside (`AnchorCut+Hollow`)
    /// unless `words.hollows` is false. Nil when `CodeScanner` gives up, or when nothing holds a word.
    static func cut(_ bytes: [UInt8], keeping words: Words) -> AnchorCut? {
        guard let (pieces, tokens) = read(bytes, keeping: words.all) else { return nil }
        // A type's piece with a word outside its members (in its head) is kept whole.
        let whole = pieces.map { piece in piece.holdsWord && (piece.body == nil || !piece.members.contains(where: \.holdsWord)) }
        var kept = pieces.map { piece in piece.members.map(\.holdsWord) }
        let outline = Outline(tokens, table: words.table, interest: words.hollows)
        // The tokens never hollowed, and the methods they may call (`RotationReader.calledMethodName`, or
        // a `#selector`'s): with hollowing, levels of them (`methodLevels`); without, every name of the
        // kept code, until no more come in.
        var protected = [Bool](repeating: false, count: tokens.count)
        var called = Set<UInt64>()
        let selectors = words.hollows ? outline.selectorTokens() : []
        func protect(_ range: ClosedRange<Int>) {
            for index in range.clamped(to: 0...max(0, tokens.count - 1)) where !protected[index] {
                protected[index] = true
                if tokens[index].kind == .name, !words.hollows || outline.mayCallMethod(index) || (!selectors.isEmpty && selectors.contains(index)) { called.insert(tokens[index].hash) }
            }
        }
        func tokenRange(_ range: Range<Int>) -> Range<Int> { firstToken(at: range.lowerBound, tokens)..<firstToken(at: range.upperBound, tokens) }
        func protect(_ range: Range<Int>) {
            let tokens = tokenRange(range)
            if !tokens.isEmpty { protect(tokens.lowerBound...(tokens.upperBound - 1)) }
        }
        for range in protectedRanges(outline, words: words, bytes: bytes) { protect(range) }
        if !words.hollows {
            for (index, piece) in pieces.enumerated() {
                if whole[index] { protect(piece.range) }
                for (member, isKept) in zip(piece.members, kept[index]) where isKept { protect(member.range) }
            }
        }
        let functions = outline.blocks.filter { $0.functionName != nil }
        // The methods the kept code calls: a member declaring one is kept whole, a method declared
        // elsewhere (an extension's, a nested type's) is protected whole; then the methods those call.
        var named = Set<UInt64>()
        var level = 0
        while !called.subtracting(named).isEmpty, !words.hollows || level < methodLevels {
            let names = called
            named.formUnion(called)
            called = []
            level += 1
            for block in functions where !protected[block.open] && names.contains(block.functionName!) { protect(block.open...block.close) }
            for (index, piece) in pieces.enumerated() where !whole[index] {
                for (position, member) in piece.members.enumerated() where !kept[index][position] && member.methods.contains(where: names.contains) {
                    kept[index][position] = true
                    protect(member.range)
                }
            }
            called.formUnion(named)
        }
        // A block is hollowed when it holds no protected token, no kept word, no name of a kept method.
        let keptMethods = named.intersection(functions.map { $0.functionName! })
        var protectedBefore = [Int](repeating: 0, count: tokens.count + 1)
        var forbiddenBefore = [Int](repeating: 0, count: tokens.count + 1)
        for (index, token) in tokens.enumerated() {
            protectedBefore[index + 1] = protectedBefore[index] + (protected[index] ? 1 : 0)
            let forbidden = token.kind == .name && (words.table.flags(of: token.hash) & NameTable.kept != 0 || (!keptMethods.isEmpty && keptMethods.contains(token.hash)))
            forbiddenBefore[index + 1] = forbiddenBefore[index] + (forbidden ? 1 : 0)
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
        func addHollowed(_ range: Range<Int>) {
            var from = range.lowerBound
            var index = firstToken(at: range.lowerBound, tokens)
            let end = firstToken(at: range.upperBound, tokens)
            while index < end {
                if outline.blockAt[index] >= 0, case let block = outline.blocks[Int(outline.blockAt[index])], !block.inString, block.close > block.open + 1,
                   protectedBefore[block.close + 1] == protectedBefore[block.open], forbiddenBefore[block.close] == forbiddenBefore[block.open + 1] {
                    add(from..<(tokens[block.open].at + 1))
                    from = tokens[block.close].at
                    index = block.close + 1
                } else {
                    index += 1
                }
            }
            add(from..<range.upperBound)
        }
        for (index, piece) in pieces.enumerated() {
            if whole[index] {
                addHollowed(piece.range)
            } else if let body = piece.body, kept[index].contains(true) {
                add(piece.range.lowerBound..<body.lowerBound)
                for (member, isKept) in zip(piece.members, kept[index]) where isKept { addHollowed(member.range) }
                add(body.upperBound..<piece.range.upperBound)
            }
        }
        return ranges.isEmpty ? nil : AnchorCut(ranges: ranges)
    }

    /// The index of the first token at or after byte `offset`.
    static func firstToken(at offset: Int, _ tokens: [Token]) -> Int {
        var low = 0, high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle].at < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The file's top-level pieces, which together cover it, and its tokens; nil when `CodeScanner` gives up.
    static func read(_ bytes: [UInt8], keeping words: Set<UInt64>) -> ([Piece], [Token])? {
        bytes.withUnsafeBufferPointer { buffer -> ([Piece], [Token])? in
            var reader = PieceReader(bytes: buffer, words: words)
            guard CodeScanner.scan(buffer, &reader) else { return nil }
            reader.finish()
            return (reader.pieces, reader.tokens)
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
        /// Every token but line breaks and comments' names, for the hollowing.
        var tokens: [Token] = []

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
            case .name(let hash, let start, _):
                tokens.append(Token(kind: .name, at: start, hash: hash))
            case .punctuation(let byte, let at):
                tokens.append(Token(kind: .punctuation, byte: byte, at: at))
            case .stringStart(let at):
                tokens.append(Token(kind: .stringStart, at: at))
            case .stringEnd(let at):
                tokens.append(Token(kind: .stringEnd, at: at))
            case .operatorRun(_, let at):
                tokens.append(Token(kind: .other, at: at))
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
                    if isWord { member.holdsWord = true }
                    if afterFunc, depth == 1 { member.methods.append(hash) }
                }
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
