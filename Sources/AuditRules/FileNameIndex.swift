import Foundation

/// What the prefilter learns about a file from one pass over its bytes, before anything is parsed:
/// whether it is text the parser may see, which identifiers it mentions (and which of them it
/// subscripts, and which follow `case`), and whether it may declare a string array. The names go into
/// Bloom filters, so later rounds can ask "does this file mention `tips`?" for hundreds of names
/// without reading the file again. A Bloom filter can answer "yes" wrongly (a file is parsed for
/// nothing) but never "no" wrongly, which is what keeps the prefilter from changing results.
///
/// Identifiers are taken from everything, comments and strings included, and every doubt resolves to
/// "yes": each filter is a superset of what the parser would find, never a subset.
///
/// A class: the rounds hand every file's name index around many times, and a copy is then one reference.
public final class FileNameIndex: Sendable {
    /// The first NUL byte, if any (a file with one early on is binary, not Swift).
    public let firstNULOffset: Int?
    /// The first byte that does not start a valid UTF-8 sequence, if any.
    public let firstInvalidUTF8Offset: Int?
    /// Somewhere an array literal starts with two string literals (`["Loading…", "Almost there"`),
    /// or something the lexer cannot rule out as one (an interpolation, a raw or multi-line string).
    public let mayDeclareStringArray: Bool
    public let byteCount: Int
    let names: WordFilter
    /// Names followed by `[` (blanks, line breaks, `?`, `!` and `)` between): `tips[index]`,
    /// `tips?[0]`, `(tips)[0]`.
    private let subscripted: WordFilter
    /// Names after a `case` keyword, up to the next `{`, `}`, `;` or `:` outside parentheses, except
    /// those after a dot: the cases an enum declares (`case idle, loading(Int) = …`), not those a
    /// switch matches (`case .idle:`). Exact (hashes, sorted, each once), not a Bloom filter: a round
    /// asks every enum file about each case a clock assigns, and a small filter's false "yes" then
    /// sent a file with a long `switch` to a closer reading or a parse for nothing.
    private let caseNames: [UInt64]
    /// Pairs of names: a subscripted name with each name inside its brackets, a name with the name
    /// after a dot that follows it.
    private let pairs: WordFilter
    /// Names anything may follow, as the lexer could not tell what does (a comment after the name
    /// or after its dot): kept exactly, not in `pairs`, as one false "yes" there would pair the name
    /// with every other name.
    private let namesFollowedByAnything: Set<UInt64>
    /// Some subscript's or member's expression could not be walked back to where it starts: any call's
    /// first argument may subscript any name or read any member.
    private let argumentsUnsure: Bool
    /// The names a possible string array may be bound to (`let tips = ["…", "…"]`): the name after
    /// the last `let`/`var` (and the ones before it, where a comment might hide a keyword); unknown
    /// when the keyword is not on the array's line.
    public let boundArrayNames: NameList
    /// For a file that calls a clock: what the code the clocks run may do (nil: anything, or no clock).
    /// Taken when a round first asks, or by `takeClockBodyNames`: many clock files are parsed on sight.
    public var clockBodyNames: ClockBodyNames? { clockBodyNamesOnDemand?.value }

    /// Takes the clock look now, from the file's `bytes` as read (the scanner's, for a file left
    /// unparsed: the second round asks every such clock file, and would read it again).
    public func takeClockBodyNames(from bytes: [UInt8]) { clockBodyNamesOnDemand?.take(from: bytes) }
    private let clockBodyNamesOnDemand: ReadingOnDemand<ClockBodyNames>?
    /// For a file that may hold a text enum: the text properties it may declare (nil: any, or no enum).
    public var textPropertyNames: TextPropertyNames? { deferredTextPropertyNames?.value }
    private let deferredTextPropertyNames: ReadingOnDemand<TextPropertyNames>?
    /// The names it uses in code, not only in comments and strings (nil: unknown, any may be).
    private let codeWordsOnDemand: ReadingOnDemand<CodeWords>

    /// `reread`, when given, reads the file again: the closer readings for clocks, text properties and
    /// names in code then wait until a round asks (see `ReadingOnDemand`). Without it, they are taken at once.
    public init(bytes: [UInt8], reread: (@Sendable () -> [UInt8]?)? = nil) {
        var lexer = Lexer(byteCount: bytes.count)
        bytes.withUnsafeBufferPointer { lexer.run($0) }
        names = lexer.names
        subscripted = lexer.subscripted
        caseNames = Self.sortedOnce(lexer.caseNames)
        pairs = lexer.pairs
        namesFollowedByAnything = lexer.namesFollowedByAnything
        argumentsUnsure = lexer.argumentsUnsure
        firstInvalidUTF8Offset = lexer.invalidOffset
        firstNULOffset = lexer.nulOffset
        byteCount = bytes.count
        let text = lexer.invalidOffset == nil && lexer.nulOffset == nil
        if text, lexer.sawStringArray, lexer.boundArrayNames.hashes == nil, let declared = DeclaredStringArrays(bytes: bytes) {
            // The lexer lost track of an array's name; a closer reading at the code may not.
            mayDeclareStringArray = declared.found
            boundArrayNames = NameList(declared.names)
        } else {
            mayDeclareStringArray = lexer.sawStringArray
            boundArrayNames = lexer.boundArrayNames
        }
        clockBodyNamesOnDemand = text && RotationFollower.mentionsClock(lexer.names)
            ? ReadingOnDemand(bytes, reread: reread, look: { ClockBodyNames(bytes: $0) }) : nil
        deferredTextPropertyNames = text && RotationFollower.mayHoldTextEnum(lexer.names)
            ? ReadingOnDemand(bytes, reread: reread, look: { TextPropertyNames(bytes: $0) }) : nil
        codeWordsOnDemand = text ? ReadingOnDemand(bytes, reread: reread, look: { CodeWords(bytes: $0) }) : ReadingOnDemand(nil)
    }

    /// Whether the file may use one of `words` in code, not only in comments and strings (a display
    /// call named in a doc comment): the closer reading (`CodeWords`), taken when first asked. Only a
    /// look that finished can say no; ask it last, after the cheap questions.
    public func mayUseInCode(_ words: WordSet) -> Bool {
        codeWordsOnDemand.value?.usesAnyInCode(words) ?? true
    }

    /// Takes, on every core, the closer readings `mayUseInCode` will ask of `nameIndexes`.
    public static func takeCodeLooks(_ nameIndexes: [FileNameIndex]) {
        DispatchQueue.concurrentPerform(iterations: nameIndexes.count) { _ = nameIndexes[$0].codeWordsOnDemand.value }
    }

    /// Whether the file may mention `word` as an identifier. A word that is not one identifier
    /// (`loadaudit:`, `@_exported`, `UI.Spinner`) is mentioned when every identifier in it is;
    /// backticks are not part of a name (`` `default` `` mentions `default`).
    public func mentions(_ word: String) -> Bool { names.mayContain(word) }

    public func mentionsAny<Words: Sequence>(_ words: Words) -> Bool where Words.Element == String {
        words.contains { names.mayContain($0) }
    }

    public func mentionsAny(_ set: WordSet) -> Bool { names.mayContainAny(set) }

    /// Whether the file may subscript one of `words` (`tips[...]`).
    public func subscriptsAny<Words: Sequence>(_ words: Words) -> Bool where Words.Element == String {
        words.contains { subscripted.mayContain($0) }
    }

    /// The same questions by hash (`WordHash.ofName`), for the follower's sets of names.
    public func mentions(hash: UInt64) -> Bool { names.contains(hash) }
    public func subscripts(hash: UInt64) -> Bool { subscripted.contains(hash) }
    public func declaresCase(hash: UInt64) -> Bool { Self.sorted(caseNames, contains: hash) }
    /// Whether the file may subscript `array` as the whole first argument of one of `calls`
    /// (`Text(tips[i])`, `Text(model.tips[i])`): what a display of an array's element is.
    public func subscripts(hash array: UInt64, asFirstArgumentOfAny calls: [UInt64]) -> Bool {
        subscripted.contains(array) && mayShowAsFirstArgument(array, ofAny: calls)
    }

    /// Whether the file may read `member` of `base` as the whole first argument of one of `calls`
    /// (`Text(phase.message)`, `Text(model.phase.message)`): what a display of a state's property is.
    public func accesses(hash member: UInt64, of base: UInt64, asFirstArgumentOfAny calls: [UInt64]) -> Bool {
        mayPair(base, member) && (namesFollowedByAnything.contains(base) || mayShowAsFirstArgument(WordHash.pair(base, member), ofAny: calls))
    }

    /// What the lexer's `noteArgument` paired: `shown` as the first argument of one of `calls`.
    private func mayShowAsFirstArgument(_ shown: UInt64, ofAny calls: [UInt64]) -> Bool {
        argumentsUnsure || calls.contains { pairs.contains(WordHash.argumentPair($0, shown)) }
    }

    /// Whether the file may subscript `base` with an expression that mentions `name` (`tips[index]`,
    /// `tips[(index + 1) % tips.count]`).
    public func subscripts(_ base: UInt64, with name: UInt64) -> Bool { mayPair(base, name) }

    /// Whether the file may have `base.member` (blanks, `?` and `!` allowed around the dot).
    public func accesses(_ member: String, of base: String) -> Bool { mayPair(WordHash.ofName(base), WordHash.ofName(member)) }
    public func accesses(hash member: UInt64, of base: UInt64) -> Bool { mayPair(base, member) }

    /// The pair, or the first name followed by something the lexer could not read (a comment).
    private func mayPair(_ first: UInt64, _ second: UInt64) -> Bool {
        pairs.contains(WordHash.pair(first, second)) || namesFollowedByAnything.contains(first)
    }

    /// Whether the file may declare an enum case named one of `words`.
    public func declaresCaseAny<Words: Sequence>(_ words: Words) -> Bool where Words.Element == String {
        words.contains { word in
            let parts = WordSet.parts(of: word)
            return !parts.isEmpty && parts.allSatisfy(declaresCase(hash:))
        }
    }

    static func sortedOnce(_ hashes: [UInt64]) -> [UInt64] {
        var sorted = hashes.sorted()
        var kept = 0
        for hash in sorted where kept == 0 || sorted[kept - 1] != hash {
            sorted[kept] = hash
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }

    static func sorted(_ hashes: [UInt64], contains hash: UInt64) -> Bool {
        var low = 0, high = hashes.count
        while low < high {
            let middle = (low + high) / 2
            if hashes[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return low < hashes.count && hashes[low] == hash
    }
}

/// A closer reading at a file (`ClockBodyNames`, `TextPropertyNames`, `CodeWords`), taken when a round first asks. Most
/// files are never asked about (of every `enum` with a `switch`, only those that may declare a case
/// some clock assigns), and holding every file's text until then would cost more memory than reading
/// the few asked about again. A file that changed size since, or cannot be read, gets nil (the look's
/// "anything may be"), so the answer never wrongly says no.
final class ReadingOnDemand<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let byteCount: Int
    private let reread: (@Sendable () -> [UInt8]?)?
    private let look: (@Sendable ([UInt8]) -> Value?)?
    private var answer: Value??

    init(byteCount: Int, reread: @escaping @Sendable () -> [UInt8]?, look: @escaping @Sendable ([UInt8]) -> Value?) {
        self.byteCount = byteCount
        self.reread = reread
        self.look = look
    }

    /// A look already taken.
    init(_ value: Value?) {
        byteCount = 0
        reread = nil
        look = nil
        answer = .some(value)
    }

    /// `look` at `bytes` when first asked, reading them again with `reread`; without it, at once.
    convenience init(_ bytes: [UInt8], reread: (@Sendable () -> [UInt8]?)?, look: @escaping @Sendable ([UInt8]) -> Value?) {
        if let reread { self.init(byteCount: bytes.count, reread: reread, look: look) } else { self.init(look(bytes)) }
    }

    /// Takes the look now from `bytes` (the file's, as first read), unless it is taken already.
    func take(from bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard answer == nil, bytes.count == byteCount, let look else { return }
        answer = .some(look(bytes))
    }

    var value: Value? {
        lock.lock()
        defer { lock.unlock() }
        if let answer { return answer }
        var found: Value?
        if let bytes = reread?(), bytes.count == byteCount { found = look?(bytes) }
        answer = .some(found)
        return found
    }
}

/// A Bloom filter of identifier hashes: two probes from one 64-bit hash, a power-of-two size.
struct WordFilter: Sendable {
    private let storage: Storage
    private let mask: UInt64

    /// The bits, behind a pointer: the lexer sets two bits per name, millions of times per tree, and
    /// an array's copy-on-write and bounds checks cost more than the setting. Written only while the
    /// lexer fills the filter, before its name index is handed to anyone; read-only after.
    private final class Storage: @unchecked Sendable {
        let bits: UnsafeMutablePointer<UInt64>

        init(words: Int) {
            bits = .allocate(capacity: words)
            bits.initialize(repeating: 0, count: words)
        }

        deinit { bits.deallocate() }
    }

    /// About one bit per byte of source (at least 512): a 10 KB file with 300 distinct names gets
    /// 2 KB of filter and a false "yes" about once in 20,000 questions, so asking about a few hundred
    /// names still rarely parses a file for nothing. `shift` makes smaller filters for rarer names.
    init(byteCount: Int, shift: Int = 0) {
        var count = 512
        while count < byteCount >> shift { count <<= 1 }
        storage = Storage(words: count / 64)
        mask = UInt64(count - 1)
    }

    @inline(__always)
    func insert(_ hash: UInt64) {
        let first = hash & mask, second = (hash >> 32) & mask
        storage.bits[Int(first >> 6)] |= 1 << (first & 63)
        storage.bits[Int(second >> 6)] |= 1 << (second & 63)
    }

    func contains(_ hash: UInt64) -> Bool {
        let first = hash & mask, second = (hash >> 32) & mask
        return storage.bits[Int(first >> 6)] & (1 << (first & 63)) != 0 && storage.bits[Int(second >> 6)] & (1 << (second & 63)) != 0
    }

    /// Every identifier in `word` may be in the filter (and there is at least one).
    func mayContain(_ word: String) -> Bool { mayContain(parts: WordSet.parts(of: word)) }

    func mayContain(parts: [UInt64]) -> Bool { !parts.isEmpty && parts.allSatisfy(contains) }

    func mayContainAny(_ set: WordSet) -> Bool { set.words.contains { mayContain(parts: $0) } }
}

/// Words hashed once, for asking many name indexes about them (a trigger list, the clock words).
public struct WordSet: Sendable {
    /// Each word's identifiers' hashes (`loadaudit:` has one, `UI.Spinner` two).
    let words: [[UInt64]]

    public init<Words: Sequence>(_ words: Words) where Words.Element == String {
        self.words = words.map(Self.parts(of:))
    }

    /// The hashes of the identifiers in `word`.
    static func parts(of word: String) -> [UInt64] { identifiers(of: word).map(WordHash.of(bytes:)) }

    /// The identifiers in `word`, split as the lexer splits names (`loadaudit:` has one, `UI.Spinner` two).
    static func identifiers(of word: String) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in word.utf8 {
            if Lexer.isNameByte[Int(byte)] {
                current.append(byte)
            } else if !current.isEmpty {
                parts.append(current)
                current = []
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}

/// An exact set of name hashes from one file, or nil ("unknown": too many, or the lexer lost track).
public struct NameList: Sendable {
    public private(set) var hashes: Set<UInt64>? = []

    init() {}

    init(_ hashes: Set<UInt64>) {
        if hashes.count <= Self.limit { self.hashes = hashes } else { self.hashes = nil }
    }

    static let limit = 4096

    mutating func add(_ hash: UInt64) {
        guard hashes != nil else { return }
        hashes!.insert(hash)
        if hashes!.count > Self.limit { hashes = nil }
    }

    mutating func add(_ more: [UInt64]) {
        for hash in more { add(hash) }
    }

    mutating func giveUp() { hashes = nil }

    /// Whether it may hold one of `wanted` (always, when unknown).
    public func mayIntersect(_ wanted: Set<UInt64>) -> Bool {
        guard let hashes else { return true }
        return hashes.count <= wanted.count ? hashes.contains(where: wanted.contains) : wanted.contains(where: hashes.contains)
    }
}

/// The one hash of the prefilter and the rounds: FNV-1a over a word's bytes, then a final mix so that
/// both halves of the value are usable. (The baseline's fingerprints use their own, stable hash: it is a
/// file format, see AuditBaseline.)
public struct WordHash {
    fileprivate var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    static func of(_ word: String) -> UInt64 { of(bytes: word.utf8) }

    /// The hash the lexer gives a name, for asking name indexes about names known as strings: of its
    /// name bytes only, as the lexer splits (`$0` is `0`, `` `default` `` is `default`).
    public static func ofName(_ name: String) -> UInt64 {
        var hash = WordHash()
        for byte in name.utf8 where Lexer.isNameByte[Int(byte)] { hash.add(byte) }
        return hash.value
    }

    static func of<Bytes: Sequence>(bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = WordHash()
        for byte in bytes { hash.add(byte) }
        return hash.value
    }

    /// A call and what its first argument shows (an array's name, or a base and member's `pair`),
    /// kept apart from `pair`.
    static func argumentPair(_ callee: UInt64, _ array: UInt64) -> UInt64 {
        pair(callee ^ 0x5851_F42D_4C95_7F2D, array)
    }

    /// A pair of names (`tips` subscripted with `index`, `phase` followed by `.message`).
    static func pair(_ first: UInt64, _ second: UInt64) -> UInt64 {
        var hash = WordHash()
        hash.state = first ^ (second &* 0x9E37_79B9_7F4A_7C15)
        return hash.value
    }

    var value: UInt64 {
        var mixed = state
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        return mixed
    }
}

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
    private var recentBindings: [(name: UInt64, mayBeHidden: Bool)] = []
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

    /// Letters, digits, `_`, and every byte of a multi-byte character (Swift allows many in names).
    static let isNameByte: [Bool] = (0..<256).map { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

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

    /// Whether what follows the name ending at `end` may end an argument: `)` or `,` past blanks and a
    /// closing backtick, or a comment that may hide either.
    static func endsAnArgument(_ bytes: UnsafeBufferPointer<UInt8>, at end: Int) -> Bool {
        var next = end
        if next < bytes.count, bytes[next] == UInt8(ascii: "`") { next += 1 }
        while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0A || bytes[next] == 0x0D
            || bytes[next] == 0x0B || bytes[next] == 0x0C { next += 1 }
        guard next < bytes.count else { return false }
        return bytes[next] == UInt8(ascii: ")") || bytes[next] == UInt8(ascii: ",") || bytes[next] == UInt8(ascii: "/")
            || bytes[next] == UInt8(ascii: "#")
    }

    enum ArgumentCallee: Equatable {
        /// The expression starts right after `callee(`.
        case callee(UInt64)
        /// It starts after something else (`,`, `label:`, `try`, `"\(`).
        case none
        /// A comment, a directive, a string or a generic call stands in the way.
        case unsure
    }

    /// Walks left from a name to where the expression it belongs to starts, as the grammar groups a
    /// subscript or call of it: over member chains (`a.b`, `a?.b`, `f(x).b`, `xs[0].b`, `$0.b`, across
    /// lines) and over operators and their operands, since the grammar lets `+ - * / %` and prefix
    /// operators bind tighter than a call or subscript suffix (`a * b.tips[0]` is `(a * b.tips)[0]`,
    /// `-b.tips[0]` is `(-b.tips)[0]`; `loadaudit syntax` shows it). A `(`
    /// after a name there gives that name. Line breaks crossed onto a line with a `/` or `#` (a comment
    /// or `#if` may hide what the parser sees), groups holding a quote, slash or `#`, and the end of a
    /// block comment give `unsure`: every doubt is a "yes" later.
    static func argumentCallee(_ bytes: UnsafeBufferPointer<UInt8>, nameStart: Int) -> ArgumentCallee {
        var index = nameStart - 1
        if index >= 0, bytes[index] == UInt8(ascii: "`") { index -= 1 }
        if index >= 0, bytes[index] == UInt8(ascii: "$") { index -= 1 }
        guard var position = skipBlanksBackward(bytes, from: index) else { return .unsure }
        while position >= 0, isOperatorByte[Int(bytes[position])] {
            // An operator run the grammar binds tighter than a suffix (`.`, `?.`, ` * `, `-`): the operand
            // before it belongs to the expression too. Any other (`==`, `??`, `..<`) starts the expression
            // after it; `//` starts a comment the name is in (or, touching another operator, makes a
            // custom operator, which binds looser); `*/` ends a comment that may hide anything; `>.`
            // may close a generic type (`Cache<Tip>.shared.tips[0]`).
            let runEnd = position
            var binds = true
            while position >= 0, isOperatorByte[Int(bytes[position])] {
                let byte = bytes[position], before = position > 0 ? bytes[position - 1] : 0
                if byte == UInt8(ascii: "/"), before == UInt8(ascii: "*") { return .unsure }
                if byte == UInt8(ascii: "/"), before == UInt8(ascii: "/") { return .none }
                if byte == UInt8(ascii: "."), before == UInt8(ascii: ">") { return .unsure }
                if !bindsTighterThanASuffix[Int(byte)], !(byte == UInt8(ascii: "?") && bytes[runEnd] == UInt8(ascii: ".")) { binds = false }
                position -= 1
            }
            guard binds else {
                position = runEnd
                break
            }
            guard let operandEnd = skipBlanksBackward(bytes, from: position) else { return .unsure }
            guard let before = operandStart(bytes, end: operandEnd) else { return .unsure }
            position = before
        }
        guard position >= 0 else { return .none }
        switch bytes[position] {
        case UInt8(ascii: "("):
            guard let found = skipBlanksBackward(bytes, from: position - 1) else { return .unsure }
            var nameEnd = found
            if nameEnd >= 0, bytes[nameEnd] == UInt8(ascii: "`") { nameEnd -= 1 }
            guard nameEnd >= 0 else { return .none }
            let byte = bytes[nameEnd]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "#") { return .unsure }
            guard isNameByte[Int(byte)] else { return .none }
            var start = nameEnd
            while start > 0, isNameByte[Int(bytes[start - 1])] { start -= 1 }
            if bytes[start] <= 0x39 { return .unsure }
            var hash = WordHash()
            for offset in start...nameEnd { hash.add(bytes[offset]) }
            return .callee(hash.value)
        case UInt8(ascii: "#"), UInt8(ascii: "\""):
            return .unsure
        default:
            return .none
        }
    }

    /// The bytes operators are made of (and `.`, which chains members like one).
    static let isOperatorByte: [Bool] = (0..<256).map { byte in
        "./=-+!*%<>&|^~?".utf8.contains(UInt8(byte))
    }

    /// The bytes of the operators the grammar binds tighter than a call or subscript suffix: `+ - * / %`,
    /// the prefix `! ~ &`, and the dot (`?` too, right before a dot: `a?.b`).
    static let bindsTighterThanASuffix: [Bool] = (0..<256).map { byte in
        "./-+!*%&~".utf8.contains(UInt8(byte))
    }

    /// Steps left over one operand that ends at `end` (`foo`, `` `foo` ``, `$0`, `f(x)`, `xs[0]`,
    /// `list.first { … }`, `(a ?? b)`): the first non-blank byte before it, or `end` itself when
    /// nothing there is an operand (a `(` or `,`); nil when a group cannot be stepped over.
    static func operandStart(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Int? {
        var position = end
        while position >= 0 {
            let byte = bytes[position]
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                guard let opening = openingOfGroup(bytes, closingAt: position), let next = skipBlanksBackward(bytes, from: opening - 1) else {
                    return nil
                }
                // A generic call (`Cache<Tip>(…)`): its type's brackets are not walked.
                if next >= 0, bytes[next] == UInt8(ascii: ">") { return nil }
                position = next
                // Optional chaining or a forced unwrap before the group (`store?[0]`, `load!(1)`).
                while position >= 0, bytes[position] == UInt8(ascii: "?") || bytes[position] == UInt8(ascii: "!") { position -= 1 }
            } else if byte == UInt8(ascii: "`") || isNameByte[Int(byte)] {
                var start = position
                if byte == UInt8(ascii: "`") {
                    start -= 1
                    while start >= 0, bytes[start] != UInt8(ascii: "`"), bytes[start] != 0x0A { start -= 1 }
                    guard start >= 0, bytes[start] == UInt8(ascii: "`") else { return nil }
                    start -= 1
                } else {
                    while start >= 0, isNameByte[Int(bytes[start])] { start -= 1 }
                }
                if start >= 0, bytes[start] == UInt8(ascii: "$") { start -= 1 }
                return skipBlanksBackward(bytes, from: start)
            } else {
                return position
            }
        }
        return position
    }

    /// The first byte at or before `index` that is not blank (-1 at the file's start); nil when a line
    /// break was crossed onto a line that holds a `/` or `#` before that byte.
    static func skipBlanksBackward(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        var position = index
        var crossedBreak = false
        while position >= 0, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0A || bytes[position] == 0x0D
            || bytes[position] == 0x0B || bytes[position] == 0x0C {
            if bytes[position] == 0x0A || bytes[position] == 0x0D { crossedBreak = true }
            position -= 1
        }
        if crossedBreak {
            var start = position
            while start >= 0, bytes[start] != 0x0A, bytes[start] != 0x0D {
                if bytes[start] == UInt8(ascii: "/") || bytes[start] == UInt8(ascii: "#") { return nil }
                start -= 1
            }
        }
        return position
    }

    /// Where the group that closes at `closing` (`)`, `]` or `}`) opens; nil when it holds a quote,
    /// slash or `#` (a string or comment may hold brackets), or opens too far back to look.
    static func openingOfGroup(_ bytes: UnsafeBufferPointer<UInt8>, closingAt closing: Int) -> Int? {
        var depth = 0
        var position = closing
        let limit = max(0, closing - 4096)
        while position >= limit {
            switch bytes[position] {
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth += 1
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth -= 1
                if depth == 0 { return position }
            case UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "#"):
                return nil
            default:
                break
            }
            position -= 1
        }
        return nil
    }

    /// A word that starts with digits (`0case`, `3tips`) is not one name to a parser: a number, then a
    /// keyword or a name. The part after the digits counts as a name of its own too.
    mutating func endNameAfterDigits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        guard let suffix = Self.nameAfterDigits(bytes, from: start, to: end) else { return }
        endName(suffix.hash, bytes, at: end, significantBefore: suffix.start - 1, start: suffix.start)
    }

    /// Where the name after a word's leading digits starts, and its hash; nil when the word does not
    /// start with a digit or is all digits. Shared with `CodeScanner`, which splits words the same way.
    static func nameAfterDigits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (start: Int, hash: UInt64)? {
        guard bytes[start] >= 0x30, bytes[start] <= 0x39 else { return nil }
        var letter = start
        while letter < end, bytes[letter] >= 0x30, bytes[letter] <= 0x39 { letter += 1 }
        guard letter < end else { return nil }
        var hash = WordHash()
        for offset in letter..<end { hash.add(bytes[offset]) }
        return (letter, hash.value)
    }

    /// The names a string array's declaration may bind: the last binding, and the ones before it
    /// while the later keyword may be in a comment. Nil when every binding kept may be: the real one
    /// may be older.
    func boundNameCandidates() -> [UInt64]? {
        var names: [UInt64] = []
        var index = recentBindings.count - 1
        while index >= 0 {
            names.append(recentBindings[index].name)
            guard recentBindings[index].mayBeHidden else { return names }
            index -= 1
        }
        return nil
    }

    enum ValuePosition {
        /// Right after the `=` at `equals`, `linesUp` line breaks above the `[`.
        case value(linesUp: Int, equals: Int)
        /// After something else: a declaration's value always follows its `=`.
        case notAValue
        /// A comment or a compiler directive may stand between the `=` and the `[`.
        case unsure
    }

    /// Whether the `[` at `open` may start the value of a declaration (`let tips = [`), from the
    /// last byte before it that is not blank. A comment (`= // tips` then a line break, `= /* */ [`)
    /// or an `#if` line in between hides what is before it: unsure, never a wrong `notAValue`.
    static func valuePosition(_ bytes: UnsafeBufferPointer<UInt8>, before open: Int) -> ValuePosition {
        // Across a line break, a `//` or `#` on the line reached may hide what is before the `[`.
        guard let index = skipBlanksBackward(bytes, from: open - 1) else { return .unsure }
        guard index >= 0 else { return .notAValue }
        if bytes[index] == UInt8(ascii: "/") { return .unsure }
        guard bytes[index] == UInt8(ascii: "=") else { return .notAValue }
        let linesUp = bytes[(index + 1)..<open].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        return .value(linesUp: linesUp, equals: index)
    }

    /// Whether the `=` at `equals` follows a member on its line (`model.tips =`): an assignment, as a
    /// declaration's name never follows a dot.
    static func assignsAMember(_ bytes: UnsafeBufferPointer<UInt8>, equals: Int) -> Bool {
        var index = equals - 1
        while index >= 0, bytes[index] == 0x20 || bytes[index] == 0x09 { index -= 1 }
        let nameEnd = index
        while index >= 0, bytes[index] >= 0x80 || isNameByte[Int(bytes[index])] { index -= 1 }
        guard index < nameEnd else { return false }
        while index >= 0, bytes[index] == 0x20 || bytes[index] == 0x09 { index -= 1 }
        return index >= 0 && bytes[index] == UInt8(ascii: ".")
    }

    /// The length of the valid UTF-8 sequence starting at `index` (a non-ASCII lead byte), or nil:
    /// no overlong forms, no surrogates, nothing above U+10FFFF (as Swift's own decoder).
    static func utf8SequenceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let width: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: width = 2
        case 0xE0: width = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: width = 3
        case 0xED: width = 3; high = 0x9F
        case 0xF0: width = 4; low = 0x90
        case 0xF1...0xF3: width = 4
        case 0xF4: width = 4; high = 0x8F
        default: return nil
        }
        guard index + width <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return nil }
        for offset in 2..<max(2, width) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return width
    }

    /// Whether the `[` at `open` may start an array literal whose first two elements are string
    /// literals. Anything the lexer cannot follow (an interpolation, a raw or multi-line string, an
    /// unterminated comment or string) counts as "may": the answer must never be a wrong "no".
    static func stringArrayStarts(_ bytes: UnsafeBufferPointer<UInt8>, at open: Int) -> Bool {
        var index = open + 1
        guard skipTrivia(bytes, &index) else { return true }
        switch skipPlainString(bytes, &index) {
        case .notAString: return false
        case .unsure: return true
        case .ended: break
        }
        guard skipTrivia(bytes, &index) else { return true }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
        index += 1
        guard skipTrivia(bytes, &index) else { return true }
        guard index < bytes.count else { return true }
        return bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "#")
    }

    /// Skips blanks, line breaks and comments (block comments nest in Swift). False when it cannot
    /// tell where they end.
    static func skipTrivia(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
                index += 1
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == slash {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == star {
                var depth = 0
                repeat {
                    if index + 1 >= bytes.count { return false }
                    if bytes[index] == slash, bytes[index + 1] == star { depth += 1; index += 2 }
                    else if bytes[index] == star, bytes[index + 1] == slash { depth -= 1; index += 2 }
                    else { index += 1 }
                } while depth > 0
            } else {
                return true
            }
        }
        return true
    }

    enum StringEnd { case ended, notAString, unsure }

    /// Skips a one-line string literal without interpolation; anything fancier is `unsure`.
    static func skipPlainString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> StringEnd {
        guard index < bytes.count else { return .unsure }
        if bytes[index] == UInt8(ascii: "#") {
            // `#"raw"#`, or `#if` around the elements: unsure; `#keyPath(…)`, `#selector(…)`: no string.
            var end = index + 1
            while end < bytes.count, bytes[end] < 0x80, isNameByte[Int(bytes[end])] { end += 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)
            return word.isEmpty || ["if", "elseif", "else", "endif"].contains(word) ? .unsure : .notAString
        }
        guard bytes[index] == UInt8(ascii: "\"") else { return .notAString }
        if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\"") { return .unsure }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return .ended
            case UInt8(ascii: "\\"):
                if index + 1 >= bytes.count || bytes[index + 1] == UInt8(ascii: "(") { return .unsure }
                index += 2
            case 0x0A, 0x0D:
                return .unsure
            default:
                index += 1
            }
        }
        return .unsure
    }
}
