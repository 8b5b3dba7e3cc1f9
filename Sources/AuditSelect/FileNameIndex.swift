import SwiftGrammar
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
    /// Whether the file may call one of the rules' clocks (`ClockWords.mentioned(by:)`).
    public let mentionsClock: Bool
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

    /// `clocks`: the rules' clock names (`ClockWords.none` without rotating-text rules). `reread`, when
    /// given, reads the file again: the closer readings for clocks, text properties and names in code
    /// then wait until a round asks (see `ReadingOnDemand`). Without it, they are taken at once.
    public init(bytes: [UInt8], clocks: ClockWords, reread: (@Sendable () -> [UInt8]?)? = nil) {
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
        mentionsClock = clocks.mentioned(by: lexer.names)
        clockBodyNamesOnDemand = text && mentionsClock
            ? ReadingOnDemand(bytes, reread: reread, look: { ClockBodyNames(bytes: $0, clocks: clocks) }) : nil
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
