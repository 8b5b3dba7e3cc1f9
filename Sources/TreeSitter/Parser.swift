// TreeSitter: the only code that touches tree-sitter's C API: a memory-safe parser, tree, node and
// cursor, source text with positions, and the per-thread parse arena. It must not know Swift's
// grammar beyond loading it, nor anything of loadaudit's rules.

import CParseArena
import CTreeSitter

public enum TreeSitterError: Error, Equatable, CustomStringConvertible {
    /// The grammar was generated for a language ABI this runtime cannot load.
    case incompatibleLanguage(abi: Int)
    /// The runtime returned no tree (it was cancelled or has no language).
    case parseFailed
    /// The parse ran past its time limit (some truncated inputs make this grammar's error recovery loop).
    case timedOut(seconds: Int)

    public var description: String {
        switch self {
        case .incompatibleLanguage(let abi):
            return "the Swift grammar has language ABI \(abi), which this tree-sitter runtime cannot load (re-run scripts/bootstrap)"
        case .parseFailed:
            return "tree-sitter returned no syntax tree"
        case .timedOut(let seconds):
            return "tree-sitter did not finish within \(seconds) s (its error recovery can loop on some broken code)"
        }
    }
}

/// A grammar. Immutable, and shareable across threads.
public struct Language: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Every symbol's name, by symbol: a node's type without a C string to decode each time.
    let symbolNames: [String]
    /// Every field's number, by its name, as `ts_language_field_id_for_name` gives it: that function
    /// compares the name with the grammar's field names one by one (`strncmp`), on every
    /// `Node.child(byField:)`; a name missing here is still asked of it.
    let fieldIDs: [String: TSFieldId]
    /// The same numbers, looked up by a name's bytes (`FieldTable`): what `Node.child(byField:)` asks.
    let fields: FieldTable
    /// Whether each symbol is named `ERROR` (`Node.isError` without a string per node).
    let isErrorNamed: [Bool]

    init(pointer: OpaquePointer) {
        self.pointer = pointer
        symbolNames = (0..<ts_language_symbol_count(pointer)).map { symbol in
            ts_language_symbol_name(pointer, TSSymbol(symbol)).map { String(cString: $0) } ?? ""
        }
        var fieldIDs: [String: TSFieldId] = [:]
        let fieldCount = ts_language_field_count(pointer)
        if fieldCount > 0 {
            for field in 1...fieldCount {
                guard let cName = ts_language_field_name_for_id(pointer, TSFieldId(field)) else { continue }
                let name = String(cString: cName)
                fieldIDs[name] = ts_language_field_id_for_name(pointer, name, UInt32(name.utf8.count))
            }
        }
        self.fieldIDs = fieldIDs
        fields = FieldTable(fieldIDs.map { (name: $0.key, id: $0.value) })
        isErrorNamed = symbolNames.map { $0 == "ERROR" }
    }

    /// The Swift grammar linked in by scripts/bootstrap.
    public static let swift = Language(pointer: tree_sitter_swift())

    public var abiVersion: Int { Int(ts_language_version(pointer)) }

    /// The numbers (`Node.symbol`) of the node kinds named `name` (a grammar may give one name
    /// several numbers).
    public func symbols(named name: String) -> Set<Int> {
        Set(symbolNames.indices.filter { symbolNames[$0] == name })
    }

    /// How many node kinds the grammar has: every `Node.symbol` of a named or anonymous node is below it
    /// (an ERROR node's is not).
    public var symbolCount: Int { symbolNames.count }

    /// Whether the grammar has a node type of this name, named (`call_expression`) or anonymous (`"("`):
    /// a rules file's `kind:` is checked with it.
    public func hasNodeType(_ name: String, named: Bool) -> Bool {
        ts_language_symbol_for_name(pointer, name, UInt32(name.utf8.count), named) != 0
    }

}

/// Turns UTF-8 source into syntax trees. A parser is not thread-safe: use one per thread.
public final class Parser {
    private let pointer: OpaquePointer
    public let language: Language
    /// Made in a parse arena, which takes its memory back (see `ArenaParse`).
    fileprivate var abandoned = false

    public init(language: Language = .swift) throws {
        guard let parser = ts_parser_new() else { throw TreeSitterError.parseFailed }
        guard ts_parser_set_language(parser, language.pointer) else {
            ts_parser_delete(parser)
            throw TreeSitterError.incompatibleLanguage(abi: language.abiVersion)
        }
        pointer = parser
        self.language = language
    }

    deinit {
        if !abandoned { ts_parser_delete(pointer) }
    }

    /// The time a parse may take: generous (tree-sitter reads several MB/s) and never unbounded,
    /// because on some truncated inputs the pinned grammar's error recovery never ends.
    public static func timeLimit(forBytes count: Int) -> Int {
        max(10, 10 * (count >> 20))
    }

    /// Parses `source`, giving up after `timeLimit` seconds (default: `timeLimit(forBytes:)`) with
    /// `TreeSitterError.timedOut`.
    public func parse(_ source: SourceText, timeLimit: Int? = nil) throws -> Tree {
        try parse(source, includedRanges: nil, timeLimit: timeLimit)
    }

    /// Parses only the bytes of `includedRanges` (sorted, apart, within the text; nil: all of it), as
    /// if they were one text: tree-sitter's included ranges. The tree's nodes keep their places in
    /// the whole text; what lies between the ranges is in no node.
    public func parse(_ source: SourceText, includedRanges: [Range<Int>]?, timeLimit: Int? = nil) throws -> Tree {
        let seconds = timeLimit ?? Self.timeLimit(forBytes: source.bytes.count)
        ts_parser_set_timeout_micros(pointer, UInt64(seconds) * 1_000_000)
        if let includedRanges {
            let ranges = Self.tsRanges(includedRanges, in: source.bytes)
            let set = ranges.withUnsafeBufferPointer { ts_parser_set_included_ranges(pointer, $0.baseAddress, UInt32($0.count)) }
            guard set else { throw TreeSitterError.parseFailed }
        }
        defer { if includedRanges != nil { ts_parser_set_included_ranges(pointer, nil, 0) } }
        let tree = source.bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                ts_parser_parse_string(pointer, nil, chars.baseAddress, UInt32(chars.count))
            }
        }
        guard let tree else {
            ts_parser_reset(pointer)
            throw TreeSitterError.timedOut(seconds: seconds)
        }
        return Tree(pointer: tree, source: source, language: language)
    }

    /// The ranges as tree-sitter takes them: bytes, and rows and byte columns (counted once, in order).
    static func tsRanges(_ ranges: [Range<Int>], in bytes: [UInt8]) -> [TSRange] {
        var row: UInt32 = 0, lineStart = 0, scanned = 0
        func point(_ offset: Int) -> TSPoint {
            while scanned < offset {
                if bytes[scanned] == 0x0A {
                    row += 1
                    lineStart = scanned + 1
                }
                scanned += 1
            }
            return TSPoint(row: row, column: UInt32(offset - lineStart))
        }
        return ranges.map { range in
            let start = point(range.lowerBound)
            let end = point(range.upperBound)
            return TSRange(start_point: start, end_point: end, start_byte: UInt32(range.lowerBound), end_byte: UInt32(range.upperBound))
        }
    }

    public func parse(_ string: String) throws -> Tree {
        try parse(SourceText(string))
    }
}

/// A syntax tree and the text it was parsed from. Nodes keep their tree alive.
public final class Tree {
    let pointer: OpaquePointer
    public let source: SourceText
    let symbolNames: [String]
    let fields: FieldTable
    let isErrorNamed: [Bool]
    /// Made in a parse arena, which takes its memory back (see `ArenaParse`).
    fileprivate var abandoned = false

    init(pointer: OpaquePointer, source: SourceText, language: Language) {
        self.pointer = pointer
        self.source = source
        symbolNames = language.symbolNames
        fields = language.fields
        isErrorNamed = language.isErrorNamed
    }

    deinit {
        if !abandoned { ts_tree_delete(pointer) }
    }

    public var rootNode: Node {
        Node(raw: ts_tree_root_node(pointer), tree: self)
    }
}

/// Parses in this thread's arena (`CParseArena`): tree-sitter's blocks come from a bump pointer and
/// lists of freed blocks, and the whole parse is taken back at once, the tree never walked to be
/// deleted. A scan parses thousands of small files; with libc's allocator malloc, free and the
/// tree's deletion took about an eighth of each parse's time. Without the arena (an AddressSanitizer
/// build, or no address space to reserve) the same call parses with libc's allocator.
public enum ArenaParse {
    /// What a thread's arena keeps of its touched memory between parses; the rest goes back.
    public static let keptBytes = 4 << 20

    /// Parses `source` with a parser of its own and hands the tree to `body`. Neither the tree nor any
    /// node may outlive `body` (checked: a tree kept stops the program, as its memory is reused).
    public static func withTree<Result>(
        of source: SourceText, language: Language = .swift, includedRanges: [Range<Int>]? = nil, timeLimit: Int? = nil,
        _ body: (Tree) throws -> Result
    ) throws -> Result {
        loadaudit_arena_install()
        // A parse inside another's `body` uses the arena already open; its opener takes it back.
        let opened = loadaudit_arena_open() != 0
        guard opened || loadaudit_arena_is_open() != 0 else {
            // No arena (an AddressSanitizer build, or no address space for this thread): libc's, and
            // the tree and parser deleted as usual.
            return try body(Parser(language: language).parse(source, includedRanges: includedRanges, timeLimit: timeLimit))
        }
        // The parser, the tree and whatever `body` made are gone when `parseAndVisit` returns.
        let outcome = Swift.Result { try parseAndVisit(source, language: language, includedRanges: includedRanges, timeLimit: timeLimit, body) }
        if opened { loadaudit_arena_close(keptBytes) }
        return try outcome.get()
    }

    private static func parseAndVisit<Result>(
        _ source: SourceText, language: Language, includedRanges: [Range<Int>]?, timeLimit: Int?, _ body: (Tree) throws -> Result
    ) throws -> Result {
        let parser = try Parser(language: language)
        parser.abandoned = true
        var tree = try parser.parse(source, includedRanges: includedRanges, timeLimit: timeLimit)
        tree.abandoned = true
        let result = try body(tree)
        precondition(isKnownUniquelyReferenced(&tree), "a syntax tree made in a parse arena outlived its parse")
        return result
    }

    /// Bytes tree-sitter asked of this thread's arena in its last parse (freed or not), and the most of
    /// the arena in use at once then.
    public static var lastParseBytes: (requested: Int, peak: Int) {
        (Int(loadaudit_arena_bytes_requested()), Int(loadaudit_arena_bytes_peak()))
    }
}
