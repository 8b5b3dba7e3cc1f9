import SwiftGrammar

/// Hollowing (docs/speed.md, "The anchor cut", "Inside a kept member"): inside what the cut keeps, a
/// brace block that holds no kept word, no name of a kept method and nothing of a clock's code is kept
/// as its two braces only (`VStack { <200 lines> }.onReceive(timer) { ... }` is parsed as
/// `VStack { }.onReceive(timer) { ... }`). What the reader (`RotationReader`) takes the anchor facts
/// from is **protected** and never hollowed:
///
/// - a call of a clock (not a wait), of a receiver, a sequence, a time-driven view or a publisher's
///   last name: the name, its argument list and its trailing closures, labelled ones included (the
///   clock's code, the publisher given to a receiver, the selector of a target clock); in a loop's
///   header (`for await _ in ticks.values {`), from the loop's keyword to the end of its body;
/// - a wait: the outermost enclosing loop (from its keyword), else the innermost enclosing closure or
///   function body, else the whole unit (the reader takes the innermost loop around a wait, else the
///   innermost closure or function body; a block is taken for a closure only when no keyword of a
///   statement or a declaration comes before it, so a mistake only protects more);
/// - a random pick: its call and the argument list around it with that call's trailing closures (a
///   display of the pick);
/// - a method whose name protected code names (`func advance() { ... }`), wherever it is declared,
///   until no more come in (the reader follows a clock's code into its type's methods).
extension AnchorCut {
    /// The words the cut keeps, by what the reader does with them (`WordHash.ofName` hashes).
    public struct Words: Sendable {
        /// Every word whose piece or member is kept.
        public let all: Set<UInt64>
        /// Calls whose argument list and trailing closures are protected: clocks other than waits,
        /// receivers, sequences, time-driven views, publishers' last names.
        public let calls: Set<UInt64>
        /// Waits: the loop (or closure, or function body) around one is protected.
        public let waits: Set<UInt64>
        /// Random picks: the argument list around one is protected.
        public let randomPicks: Set<UInt64>
        /// Receivers (among `calls`): protected only in a file that holds a publisher's last name (`publisherNames`),
        /// as bytes anywhere (the reader takes a receiver's closures only for a publisher it finds in the code's text).
        public let receivers: Set<UInt64>
        public let publisherNames: [[UInt8]]
        /// False: no hollowing (the cut of whole members only).
        public var hollows = true

        /// The same words, cutting whole members only.
        public var wholeMembers: Words {
            var words = self
            words.hollows = false
            return words
        }

        /// The keywords the outline asks about and these words, one lookup per name (`NameTable`).
        let table: NameTable

        public init(all: Set<UInt64>, calls: Set<UInt64>, waits: Set<UInt64>, randomPicks: Set<UInt64>, receivers: Set<UInt64>, publisherNames: [[UInt8]]) {
            self.all = all
            self.calls = calls
            self.waits = waits
            self.randomPicks = randomPicks
            self.receivers = receivers
            self.publisherNames = publisherNames
            var entries: [UInt64: UInt8] = [:]
            func mark(_ hashes: Set<UInt64>, _ flag: UInt8) { for hash in hashes { entries[hash, default: 0] |= flag } }
            mark(AnchorCut.loopKeywords, NameTable.loop)
            mark(AnchorCut.statementKeywords, NameTable.statement)
            mark(AnchorCut.typeKeywords, NameTable.type)
            mark([AnchorCut.funcHash], NameTable.function)
            mark(calls.union(waits).union(randomPicks), NameTable.interest)
            mark(all, NameTable.kept)
            table = NameTable(entries)
        }
    }

    /// Flags by name hash in one open-addressed table (the hashes are already mixed: their low bits
    /// index it), asked at every name of a cut file where a `Set` would hash each name again.
    struct NameTable: Sendable {
        static let loop: UInt8 = 1, statement: UInt8 = 2, function: UInt8 = 4, type: UInt8 = 8, interest: UInt8 = 16, kept: UInt8 = 32
        private var keys: [UInt64]
        private var flags: [UInt8]
        private let mask: Int

        init(_ entries: [UInt64: UInt8]) {
            var size = 16
            while size < entries.count * 4 { size *= 2 }
            mask = size - 1
            keys = [UInt64](repeating: 0, count: size)
            flags = [UInt8](repeating: 0, count: size)
            for (key, flag) in entries {
                var slot = Int(truncatingIfNeeded: key) & mask
                while flags[slot] != 0 { slot = (slot + 1) & mask }
                keys[slot] = key
                flags[slot] = flag
            }
        }

        /// The flags of `hash` (0: none).
        func flags(of hash: UInt64) -> UInt8 {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while flags[slot] != 0 {
                if keys[slot] == hash { return flags[slot] }
                slot = (slot + 1) & mask
            }
            return 0
        }
    }

    /// One token of the file, as the cut keeps it (no line breaks, no comments).
    struct Token {
        enum Kind: UInt8 { case name, punctuation, stringStart, stringEnd, other }
        var kind: Kind
        var byte: UInt8 = 0
        var at: Int
        var hash: UInt64 = 0
    }

    /// What comes before a `{` on its level since the last `{`, `}` or `;` there.
    struct Header: OptionSet {
        let rawValue: UInt8
        /// `for`, `while`, `repeat`.
        static let loop = Header(rawValue: 1)
        /// A statement's or a declaration's keyword other than `func` (`if`, `else`, `do`, `var`, `get`...).
        static let statement = Header(rawValue: 2)
        static let function = Header(rawValue: 4)
        /// A type's keyword: the block is a type's body.
        static let type = Header(rawValue: 8)
    }

    static let selfHash = WordHash.ofName("self"), selectorHash = WordHash.ofName("selector")
    static let loopKeywords: Set<UInt64> = Set(["for", "while", "repeat"].map(WordHash.ofName))
    static let statementKeywords: Set<UInt64> = Set([
        "if", "guard", "else", "switch", "do", "catch", "defer", "case", "default", "get", "set", "willSet", "didSet", "_modify", "_read",
        "init", "deinit", "subscript", "var", "let", "operator", "precedencegroup", "macro", "import", "typealias",
    ].map(WordHash.ofName))

    /// One `{ ... }`.
    struct Block {
        var open: Int, close = 0
        var header: Header
        /// The first loop keyword of its header (token index), when it has one.
        var loopKeyword: Int?
        /// After `func NAME`: the name.
        var functionName: UInt64?
        var inString: Bool
        var parent: Int?
    }

    /// The file's blocks, bracket matches and, for the words, where they sit.
    struct Outline {
        let tokens: [Token]
        var match: [Int]
        var blocks: [Block] = []
        /// For each token that opens a block, its block (-1: none).
        var blockAt: [Int32]
        /// For each word of interest: the innermost enclosing block, the innermost `(` open inside it,
        /// the header of its level so far and whether a level between that block and the word has a loop keyword.
        var sites: [Int: (block: Int?, paren: Int?, header: Header, loopKeyword: Int?, loopInside: Bool)] = [:]
        /// Each token's bracket depth.
        var depth: [Int]

        init(_ tokens: [Token], table: NameTable, interest: Bool) {
            self.tokens = tokens
            match = [Int](repeating: -1, count: tokens.count)
            depth = [Int](repeating: 0, count: tokens.count)
            blockAt = [Int32](repeating: -1, count: tokens.count)
            struct Level {
                var header: Header = []
                var loopKeyword: Int?
                var afterFunc = false
                var functionName: UInt64?
            }
            var levels = [Level()]
            var open: [(index: Int, block: Int?)] = []
            var strings = 0
            for (index, token) in tokens.enumerated() {
                depth[index] = open.count
                switch token.kind {
                case .name:
                    let hash = token.hash
                    let flags = table.flags(of: hash)
                    if interest, flags & NameTable.interest != 0 {
                        let blockIndex = open.lastIndex { $0.block != nil }
                        let block = blockIndex.map { open[$0].block! }
                        let paren = open.last.flatMap { tokens[$0.index].byte == UInt8(ascii: "(") ? $0.index : nil }
                        let from = (blockIndex ?? -1) + 1
                        let loopInside = levels[from...open.count].contains { $0.header.contains(.loop) }
                        sites[index] = (block, paren, levels[open.count].header, levels[open.count].loopKeyword, loopInside)
                    }
                    var level = levels[open.count]
                    if level.afterFunc {
                        level.functionName = hash
                        level.afterFunc = false
                    }
                    if flags & NameTable.loop != 0 {
                        level.header.insert(.loop)
                        if level.loopKeyword == nil { level.loopKeyword = index }
                    } else if flags & NameTable.statement != 0 {
                        level.header.insert(.statement)
                    } else if flags & NameTable.type != 0 {
                        level.header.insert(.type)
                    } else if flags & NameTable.function != 0 {
                        level.header.insert(.function)
                        level.afterFunc = true
                    }
                    levels[open.count] = level
                case .punctuation:
                    switch token.byte {
                    case UInt8(ascii: "{"):
                        var level = levels[open.count]
                        // `class func`, `class var`: a member, not a type's body.
                        if !level.header.isDisjoint(with: [.statement, .function]) { level.header.remove(.type) }
                        let parent = open.last { $0.block != nil }?.block
                        blocks.append(Block(open: index, header: level.header, loopKeyword: level.loopKeyword, functionName: level.functionName, inString: strings > 0, parent: parent))
                        blockAt[index] = Int32(blocks.count - 1)
                        open.append((index, blocks.count - 1))
                        if levels.count <= open.count { levels.append(Level()) } else { levels[open.count] = Level() }
                    case UInt8(ascii: "("), UInt8(ascii: "["):
                        open.append((index, nil))
                        if levels.count <= open.count { levels.append(Level()) } else { levels[open.count] = Level() }
                    case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                        guard let last = open.popLast() else { break }
                        match[last.index] = index
                        match[index] = last.index
                        depth[index] = open.count
                        if let block = last.block {
                            blocks[block].close = index
                            levels[open.count] = Level()
                        }
                    case UInt8(ascii: ";"):
                        levels[open.count] = Level()
                    default:
                        levels[open.count].afterFunc = false
                    }
                case .stringStart:
                    strings += 1
                case .stringEnd:
                    strings -= 1
                case .other:
                    levels[open.count].afterFunc = false
                }
            }
        }

        func isPunctuation(_ index: Int, _ byte: UInt8) -> Bool {
            index < tokens.count && tokens[index].kind == .punctuation && tokens[index].byte == byte
        }

        /// The end (token index) of a call whose name or `(` is at `index`: its argument list and
        /// trailing closures, labelled ones included.
        func callEnd(from index: Int) -> Int {
            var end = index
            var next = index + 1
            if isPunctuation(index, UInt8(ascii: "(")) {
                end = match[index]
                next = end + 1
            } else if isPunctuation(next, UInt8(ascii: "(")) {
                end = match[next]
                next = end + 1
            }
            while next < tokens.count, end >= 0 {
                if isPunctuation(next, UInt8(ascii: "{")) {
                    end = match[next]
                } else if tokens[next].kind == .name, isPunctuation(next + 1, UInt8(ascii: ":")), isPunctuation(next + 2, UInt8(ascii: "{")) {
                    end = match[next + 2]
                } else {
                    break
                }
                next = end + 1
            }
            return max(end, index)
        }

        /// The end of the first block opened on the level of `index` after it.
        func nextBlockEnd(after index: Int) -> Int? {
            var next = index + 1
            while next < tokens.count, depth[next] >= depth[index] {
                if depth[next] == depth[index], isPunctuation(next, UInt8(ascii: "{")) { return match[next] }
                next += 1
            }
            return nil
        }

        /// Whether the name at `index` may be a method the reader follows (`RotationReader.calledMethodName`):
        /// called (a `(` or a trailing closure after it), alone or on `self` (`self.`, `self?.`, `self!.`).
        func mayCallMethod(_ index: Int) -> Bool {
            guard isPunctuation(index + 1, UInt8(ascii: "(")) || isPunctuation(index + 1, UInt8(ascii: "{")) else { return false }
            guard index > 0, isPunctuation(index - 1, UInt8(ascii: ".")) else { return true }
            var before = index - 2
            if before >= 0, tokens[before].kind == .other { before -= 1 }
            return before >= 0 && tokens[before].kind == .name && tokens[before].hash == AnchorCut.selfHash
        }

        /// The tokens inside a `#selector(...)`: the method a target clock runs.
        func selectorTokens() -> Set<Int> {
            var inside = Set<Int>()
            for index in tokens.indices where tokens[index].kind == .name && tokens[index].hash == AnchorCut.selectorHash
                && index > 0 && isPunctuation(index - 1, UInt8(ascii: "#")) && isPunctuation(index + 1, UInt8(ascii: "(")) {
                inside.formUnion((index + 1)...max(index + 1, match[index + 1]))
            }
            return inside
        }

        /// The blocks around a block, innermost first.
        func chain(from block: Int?) -> [Int] {
            var chain: [Int] = []
            var current = block
            while let index = current {
                chain.append(index)
                current = blocks[index].parent
            }
            return chain
        }
    }

    /// The token ranges (inclusive) that are never hollowed, before methods are followed.
    static func protectedRanges(_ outline: Outline, words: Words, bytes: [UInt8]) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        let everything = 0...max(0, outline.tokens.count - 1)
        let receives = words.publisherNames.contains { contains(bytes, $0) }
        for (index, site) in outline.sites.sorted(by: { $0.key < $1.key }) {
            let hash = outline.tokens[index].hash
            if words.receivers.contains(hash), !receives, !words.waits.contains(hash), !words.randomPicks.contains(hash) { continue }
            if words.calls.contains(hash) || words.randomPicks.contains(hash) {
                ranges.append(index...outline.callEnd(from: index))
                // In a loop's header: the loop.
                if site.header.contains(.loop), let keyword = site.loopKeyword {
                    ranges.append(keyword...(outline.nextBlockEnd(after: index) ?? everything.upperBound))
                }
            }
            if words.randomPicks.contains(hash), let paren = site.paren {
                ranges.append(max(0, paren - 1)...outline.callEnd(from: paren))
            }
            if words.waits.contains(hash) {
                ranges.append(waitRange(outline, site: site, at: index) ?? everything)
            }
        }
        return ranges
    }

    /// Whether `bytes` hold `part` anywhere.
    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard let first = part.first, bytes.count >= part.count else { return part.isEmpty }
        var index = 0
        let last = bytes.count - part.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < part.count, bytes[index + matched] == part[matched] { matched += 1 }
                if matched == part.count { return true }
            }
            index += 1
        }
        return false
    }

    /// What may be a wait's clock code; nil: any of the file.
    static func waitRange(_ outline: Outline, site: (block: Int?, paren: Int?, header: Header, loopKeyword: Int?, loopInside: Bool), at index: Int) -> ClosedRange<Int>? {
        var chain = outline.chain(from: site.block)
        // A type's body ends the chain (a member's code is inside it), unless code is around the type.
        if let type = chain.firstIndex(where: { outline.blocks[$0].header.contains(.type) }) {
            guard chain[type...].allSatisfy({ outline.blocks[$0].header.contains(.type) }) else { return nil }
            chain = Array(chain[..<type])
        }
        let inLoopHeader = site.header.contains(.loop) || site.loopInside
        guard !chain.isEmpty else { return inLoopHeader ? nil : index...index }
        var chosen: Int?
        if inLoopHeader { chosen = 0 }
        if let outermostLoop = chain.lastIndex(where: { outline.blocks[$0].header.contains(.loop) }) { chosen = max(chosen ?? 0, outermostLoop) }
        if chosen == nil {
            let closure = chain.firstIndex { outline.blocks[$0].header.isDisjoint(with: [.loop, .statement, .type]) }
            chosen = closure ?? chain.count - 1
        }
        let block = outline.blocks[chain[chosen!]]
        return (block.header.contains(.loop) ? (block.loopKeyword ?? block.open) : block.open)...block.close
    }
}
