import SwiftGrammar
import Foundation


/// The single pass: identifiers into the filters, UTF-8 checked as it goes, `[` looked at closely.
struct Lexer {
    var names: WordFilter
    var subscripted: WordFilter
    /// The names after `case` (see `FileNameIndex.caseNames`), as often as each was seen.
    var caseNames: [UInt64] = []
    var pairs: WordFilter
    var namesFollowedByAnything = Set<UInt64>()
    /// A subscripted name's or a member's chain could not be walked back to its start (see `argumentCallee`).
    var argumentsUnsure = false
    var invalidOffset: Int?
    var nulOffset: Int?
    var sawStringArray = false

    /// The names whose subscript brackets are open, with the bracket depth each opened at.
    private var openSubscripts: [(base: UInt64, depth: Int)] = []
    private var bracketDepth = 0
    /// A quote or slash inside open brackets: a `]` might be in a string or comment, so brackets no
    /// longer close subscripts (every later name pairs with them: more "yes", never a wrong "no").
    private var bracketsUnreliable = false
    /// A name just ended before a `[` at this offset: its subscript opens there.
    private var subscriptBase: (hash: UInt64, at: Int)?
    /// A name just ended before a `.` at this offset: the next name after the dot pairs with it.
    private var dotBase: (hash: UInt64, at: Int, start: Int)?
    private var inCaseList = false
    /// Parentheses opened since the `case` keyword (associated values).
    private var caseParenDepth = 0

    /// Exact lists (hashes), nil once too long to be worth keeping: then "unknown", which answers yes.
    var boundArrayNames: NameList = NameList()
    /// The names bound by the last few `let`/`var` keywords, each with whether its keyword may be in
    /// a comment (a `/` before it on its line, or a `/*` not yet closed): then it may not be code, and
    /// the binding before it is kept as a candidate too.
    var recentBindings: [(name: UInt64, mayBeHidden: Bool)] = []
    private var expectingBoundName = false
    /// Between a `let`/`var` and its `:`, `=` or line's end: the pattern. A dot there (`let m.essages = [`,
    /// broken code the parser reads as a declaration of `essages`) leaves the bound name unsure.
    private var bindingPatternOpen = false
    private var bindingPatternHasDot = false
    private var keywordMayBeHidden = false
    private var slashOnLine = false
    /// `/*` minus `*/` seen so far (strings may fool it upwards, which only keeps more candidates).
    private var blockCommentDepth = 0
    private var lastBlockCommentStar = -1
    /// Line breaks seen so far, and the line of the last `let`/`var`.
    private var line = 0
    private var bindingLine = -1

    init(byteCount: Int) {
        names = WordFilter(byteCount: byteCount)
        subscripted = WordFilter(byteCount: byteCount, shift: 3)
        pairs = WordFilter(byteCount: byteCount, shift: 2)
    }

    /// Letters, digits, `_`, and every byte of a multi-byte character: `SwiftWords.isNameByte`, copied
    /// into this module, where the byte loops read it without a call into another module per byte.
    static let isNameByte = SwiftWords.isNameByte

    /// `isNameByte` where the lexer's loop reads it: a table that is never freed, so that the loop
    /// needs no closure around it (whose captured variables, the loop's own, lived in memory).
    static let nameByteTable: UnsafePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        for byte in 0..<256 { table[byte] = isNameByte[byte] }
        return UnsafePointer(table)
    }()

    // Instance copies: a static let costs a swift_once check on every name.
    private let caseKeyword = WordHash.of("case")
    private let letKeyword = WordHash.of("let")
    private let varKeyword = WordHash.of("var")

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        var index = 0
        var nameStart = -1
        var hash = WordHash()
        /// Where the last byte that was not a blank is (a dot before a name makes `.idle` a use).
        var lastSignificant = -1
        var significantBeforeName = -1
        let isName = Self.nameByteTable
        lexing: do {
            while index < count {
                let byte = bytes[index]
                if byte >= 0x80 || isName[Int(byte)] {
                    if nameStart < 0 { nameStart = index; hash = WordHash(); significantBeforeName = lastSignificant }
                    if byte >= 0x80 {
                        guard let width = Self.utf8SequenceWidth(bytes, at: index) else {
                            invalidOffset = index
                            break lexing
                        }
                        for offset in 0..<width { hash.add(bytes[index + offset]) }
                        index += width
                    } else {
                        // The rest of a run of ASCII name bytes at once (most names are one).
                        var running = hash, position = index
                        running.add(byte)
                        position += 1
                        while position < count {
                            let next = bytes[position]
                            guard next < 0x80, isName[Int(next)] else { break }
                            running.add(next)
                            position &+= 1
                        }
                        hash = running
                        index = position
                    }
                    continue
                }
                if nameStart >= 0 {
                    endName(hash.value, bytes, at: index, significantBefore: significantBeforeName, start: nameStart)
                    // Only a word that starts with a digit (`0case`) has a name after its digits.
                    if bytes[nameStart] <= 0x39 { endNameAfterDigits(bytes, from: nameStart, to: index) }
                    nameStart = -1
                    lastSignificant = index - 1
                }
                // The two most common bytes between names, before the switch's jump: a space (above all
                // indentation) notes nothing, a line break ends the line's state.
                if byte == 0x20 {
                    var position = index + 1
                    while position < count, bytes[position] == 0x20 { position &+= 1 }
                    index = position
                    continue
                }
                if byte == 0x0A {
                    line += 1
                    bindingPatternOpen = false
                    slashOnLine = false
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "."):
                    if bindingPatternOpen { bindingPatternHasDot = true }
                case UInt8(ascii: "="):
                    bindingPatternOpen = false
                case 0:
                    if nulOffset == nil { nulOffset = index }
                case UInt8(ascii: "["):
                    if Self.stringArrayStarts(bytes, at: index) {
                        switch Self.valuePosition(bytes, before: index) {
                        case .notAValue:
                            // `f(["a", "b"])`, `return ["a", "b"]`: no declaration's value, nothing bound.
                            break
                        case .value(let linesUp, let equals):
                            // `let tips = [` (or `=` then a line break) has its keyword on the line of the `=`;
                            // `model.tips = [` assigns a member, declaring nothing; otherwise (a keyword lines
                            // above, one the parser will assume) the name is unsure.
                            if bindingLine == line - linesUp, !recentBindings.isEmpty {
                                sawStringArray = true
                                if !bindingPatternHasDot, let candidates = boundNameCandidates() {
                                    boundArrayNames.add(candidates)
                                } else {
                                    boundArrayNames.giveUp()
                                }
                            } else if !Self.assignsAMember(bytes, equals: equals) {
                                sawStringArray = true
                                boundArrayNames.giveUp()
                            }
                        case .unsure:
                            sawStringArray = true
                            boundArrayNames.giveUp()
                        }
                    }
                    if let base = subscriptBase, base.at == index { openSubscripts.append((base.hash, bracketDepth)) }
                    bracketDepth += 1
                case UInt8(ascii: "]"):
                    bracketDepth -= 1
                    while !bracketsUnreliable, let last = openSubscripts.last, last.depth >= bracketDepth { openSubscripts.removeLast() }
                case UInt8(ascii: "\""), UInt8(ascii: "/"):
                    if !openSubscripts.isEmpty { bracketsUnreliable = true }
                case UInt8(ascii: "("):
                    caseParenDepth += 1
                case UInt8(ascii: ")"):
                    caseParenDepth -= 1
                case UInt8(ascii: ":"):
                    // `case loading(progress: Double), done`: a label's colon does not end the list.
                    if caseParenDepth <= 0 { inCaseList = false }
                    bindingPatternOpen = false
                case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ";"):
                    inCaseList = false
                    bindingPatternOpen = false
                default:
                    break
                }
                // Spaces and line feeds were taken above.
                if byte != 0x09, byte != 0x0D {
                    lastSignificant = index
                    if byte == UInt8(ascii: "/") {
                        slashOnLine = true
                        if index + 1 < count, bytes[index + 1] == UInt8(ascii: "*") {
                            blockCommentDepth += 1
                            lastBlockCommentStar = index + 1
                        }
                    } else if byte == UInt8(ascii: "*"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "/"), index != lastBlockCommentStar {
                        blockCommentDepth = max(0, blockCommentDepth - 1)
                    }
                } else if byte == 0x0D {
                    slashOnLine = false
                }
                index += 1
            }
        }
        if nameStart >= 0, invalidOffset == nil {
            endName(hash.value, bytes, at: count, significantBefore: significantBeforeName, start: nameStart)
            endNameAfterDigits(bytes, from: nameStart, to: count)
        }
        if invalidOffset != nil, nulOffset == nil {
            // Lexing stopped at the bad byte; the binary check looks at the first 8 KB.
            let limit = min(count, 8192)
            nulOffset = (0..<limit).first { bytes[$0] == 0 }
        }
    }

    /// A name ends just before `end`; `significantBefore` is where the last non-blank byte before it
    /// is. Into the filters it belongs to, and what it starts (a subscript, a member access).
    mutating func endName(_ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, at end: Int, significantBefore: Int, start: Int) {
        names.insert(hash)
        // `` `case` `` and `` `let` `` are names, not keywords.
        let escaped = significantBefore >= 0 && bytes[significantBefore] == UInt8(ascii: "`")
        if !escaped, hash == letKeyword || hash == varKeyword {
            expectingBoundName = true
            bindingPatternOpen = true
            bindingPatternHasDot = false
            bindingLine = line
            keywordMayBeHidden = slashOnLine || blockCommentDepth > 0
        } else if expectingBoundName {
            expectingBoundName = false
            if recentBindings.count == 8 { recentBindings.removeFirst() }
            recentBindings.append((hash, keywordMayBeHidden))
        }
        // Where a dot before the name would be: before its backtick, for `` phase.`default` ``.
        var dotAt = significantBefore
        if escaped {
            dotAt -= 1
            while dotAt >= 0, bytes[dotAt] == 0x20 || bytes[dotAt] == 0x09 || bytes[dotAt] == 0x0A || bytes[dotAt] == 0x0D { dotAt -= 1 }
        }
        let afterDot = dotAt >= 0 && bytes[dotAt] == UInt8(ascii: ".")
        if !escaped, hash == caseKeyword {
            inCaseList = true
            caseParenDepth = 0
        } else if inCaseList, !afterDot {
            caseNames.append(hash)
        }
        // `tips[0].message` or `f().message` pairs with nothing: the parser reads `Text(tips[0].message)`
        // as showing a value, not a state's property (`RotationFacts.shown`), and no round asks the pair.
        if afterDot, let base = dotBase, base.at == dotAt {
            pairs.insert(WordHash.pair(base.hash, hash))
            if Self.endsAnArgument(bytes, at: end) { noteArgument(WordHash.pair(base.hash, hash), bytes, nameStart: base.start) }
        }
        for open in openSubscripts { pairs.insert(WordHash.pair(open.base, hash)) }
        subscriptBase = nil
        dotBase = nil
        // What follows, past blanks, `?`, `!`, `)` and a closing backtick: `tips[`, `phase.`,
        // `` `phase`. ``, or a comment that hides it.
        var next = end
        while next < bytes.count {
            let byte = bytes[next]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "!")
                || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "`") {
                next += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "["):
                subscripted.insert(hash)
                subscriptBase = (hash, next)
                noteArgument(hash, bytes, nameStart: start)
            case UInt8(ascii: "."):
                dotBase = (hash, next, start)
                var after = next + 1
                while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 || bytes[after] == 0x0A || bytes[after] == 0x0D { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: "/") { namesFollowedByAnything.insert(hash) }
            case UInt8(ascii: "/"):
                // A comment between a name and what follows is too rare to read through: say yes.
                subscripted.insert(hash)
                namesFollowedByAnything.insert(hash)
                noteArgument(hash, bytes, nameStart: start)
            default:
                break
            }
            break
        }
    }

    /// Pairs `shown` with the call whose argument list the expression of the name at `nameStart`
    /// starts: a display shows an array's element or a state's property only as its first argument
    /// (`RotationFacts.shown`). `shown` is the subscripted name (`Text(tips[i])`, `Text(model.tips[i])`)
    /// or the pair of a base and the member that ends the argument (`Text(model.phase.message)`).
    mutating func noteArgument(_ shown: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, nameStart: Int) {
        switch Self.argumentCallee(bytes, nameStart: nameStart) {
        case .callee(let callee): pairs.insert(WordHash.argumentPair(callee, shown))
        case .none: break
        case .unsure: argumentsUnsure = true
        }
    }
}
