import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AuditRules
import SwiftGrammar
import TreeSitter

/// Decides, round after round, which unparsed files the rotating-text rules still need, from the
/// facts of the files parsed so far and the others' name indexes (their names, in Bloom filters and
/// short exact lists, taken while reading). It must never leave out a file that holds part of a
/// finding (a test compares with parsing every file); it should leave out everything else.
///
/// A rotating message is a display (`Text(...)`, file D) of something a clock changes (file C),
/// made of strings from a string array (file A) or an enum's text property (file E):
///
/// 1. `Text(tips[index])`: A declares `tips`; C's clock assigns `index`; D subscripts `tips` with
///    an expression that mentions `index`.
/// 2. `Text(tips.randomElement() ?? "")`: A and D (D reads `randomElement` of a possible array).
/// 3. `Text(phase.message)`: E's enum declares a case `k` and the text property `message`; C's clock
///    assigns `phase = .k`; D has `phase.message`.
/// 4. `Text(line)`: C's clock assigns `line` a value that reads `tips`; D mentions `line`.
///
/// The rounds, each from what the earlier ones established (a display file must also use the display
/// call in code, not only in comments and strings: `FileNameIndex.mayUseInCode`, asked last):
/// - D: files with a display call whose first argument may subscript a possible array (the lexer pairs
///   a call with the names subscripted at the start of its argument list), or that read
///   `randomElement` of one: every `Text(tips[index])` is then known, with the names in its brackets,
///   and every `Text(tips.randomElement() ?? "")`;
/// - C: files that call a clock (the rules' `clocks`: `scheduledTimer`, `asyncAfter`, `sleep`, or
///   `onReceive` with `Timer.publish`) where the code the clocks run (`ClockBodyNames`, taken wide) assigns something that
///   can matter: a value that names a possible array (kind 4), to a name in a known display's brackets
///   (kind 1), or an enum case some file may show (kind 3: an enum file may declare the case and a
///   text property (`TextPropertyNames`), and a display file may read that property of the state as
///   a display call's first argument, `Text(phase.message)`, which the lexer pairs like subscripts).
///   The states clocks assign that matter are then known exactly;
/// - E: files with `enum`, `switch`, a declared case that a clock assigns to a state, and a possible
///   text property that a display file may read of that state;
/// - A: files whose possible string arrays a timed assignment reads;
/// - D: files with a display call and one of the three shapes above;
/// - A: files whose possible string arrays a known display names.
/// "Possible string arrays" are the names the lexer saw declared before `["…", "…"` in any file (or
/// the closer reading, `DeclaredStringArrays`, where the lexer lost track); a file whose declarations
/// neither could follow is parsed on sight instead (`isRelevantOnSight`).
public struct RotationFollower: Sendable {
    private var stage = 0
    /// The calls that show text (`Text`): a display file mentions one.
    private let displayCalls: WordSet
    /// Their names' hashes, for asking which arrays a file subscripts as a display's argument.
    private let displayCallHashes: [UInt64]

    /// Some file that may hold a text enum is in none of the rounds' lists: its name index was never
    /// taken, as it declares no case any clock may assign (`ProjectScanner`). It still counts for
    /// whether the rounds run at all.
    public var textEnumsLeftOut = false

    /// The rules' random picks (`randomElement`).
    private let randomPickHashes: [UInt64]
    /// The time-driven views (`TimelineView`): their content closures compute what they show.
    private let timeDrivenViews: WordSet

    public init(_ vocabulary: RotationVocabulary) {
        displayCalls = WordSet(vocabulary.displayCalls)
        displayCallHashes = displayCalls.words.flatMap { $0 }
        randomPickHashes = vocabulary.randomPicks.sorted().map(WordHash.ofName)
        timeDrivenViews = WordSet(vocabulary.timeDrivenViews.keys.sorted())
    }

    /// Whether any round may pick the file or ask about it: a display, a clock, an enum with a switch,
    /// or a possible string array. No round looks at the name index of any other file.
    public static func mayChoose(_ nameIndex: FileNameIndex, displayCalls: WordSet) -> Bool {
        nameIndex.mayDeclareStringArray || nameIndex.mentionsAny(displayCalls) || nameIndex.mentionsClock || mayHoldTextEnum(nameIndex)
    }

    static func mayHoldTextEnum(_ nameIndex: FileNameIndex) -> Bool { mayHoldTextEnum(nameIndex.names) }

    /// Whether this file may make the rounds run: it may hold a text enum, or declare a string array
    /// (the first round goes on for either, if it is real). A hint for the scanner, not a decision.
    static func mayStartRounds(_ nameIndex: FileNameIndex) -> Bool { nameIndex.mayDeclareStringArray || mayHoldTextEnum(nameIndex) }

    static func mayHoldTextEnum(_ names: WordFilter) -> Bool { names.mayContainAny(enumWord) && names.mayContainAny(switchWord) }

    static let textEnumNames = ["enum", "switch"]
    static let enumWord = WordSet([textEnumNames[0]])
    static let switchWord = WordSet([textEnumNames[1]])

    /// What `mayChoose` asks of the names, as groups of words that must all appear, for a look at
    /// the bytes (`WordSieve`), except `textEnumNames`; the string arrays are looked for apart.
    static func choosingWords(displayCalls: Set<String>, clocks: ClockWords) -> [[String]] {
        displayCalls.sorted().map { [$0] } + clocks.screenGroups
    }

    /// Which of the `pending` files (not parsed, or not yet relevant) to parse in the next round,
    /// given the rotation facts of the relevant files and the name indexes of every file; nil when
    /// there is nothing more to follow.
    public mutating func nextRound(facts: [RotationFacts], pending: [FileNameIndex], all: [FileNameIndex]) -> [Bool]? {
        stage += 1
        let known = Known(facts, possibleArrays: Self.possibleArrays(all))
        switch stage {
        case 1:
            // Every kind needs a string array or a text enum: without either, nothing to follow.
            guard !known.arrayHashes.isEmpty || !known.textPropertyNames.isEmpty || textEnumsLeftOut || all.contains(where: Self.mayHoldTextEnum)
            else { return nil }
            return chooseUsingDisplaysInCode(pending) { nameIndex in
                nameIndex.mentionsAny(displayCalls)
                    && (known.arrayHashes.contains { nameIndex.subscripts(hash: $0, asFirstArgumentOfAny: displayCallHashes) }
                        || picksARandomElement(nameIndex, of: known.arrayHashes))
            }
        case 2:
            var caseTexts = CaseTexts(all: all, displayCalls: displayCalls, displayCallHashes: displayCallHashes)
            caseTexts.lookAhead(atClocks: pending.filter(\.mentionsClock))
            return pending.map { nameIndex in
                nameIndex.mentionsClock
                    && (Self.clockMayMatter(nameIndex.clockBodyNames, known, &caseTexts) || mayShowTimeDrivenText(nameIndex, known))
            }
        case 3:
            // An enum matters with a case a clock assigns to a state some display reads one of its text properties of.
            var caseTexts = CaseTexts(all: all, displayCalls: displayCalls, displayCallHashes: displayCallHashes)
            return pending.map { nameIndex in
                Self.mayHoldTextEnum(nameIndex) && known.timedCases.contains { state, name in
                    nameIndex.declaresCase(hash: name) && caseTexts.mayShow(state: state, anyOf: nameIndex.textPropertyNames?.names)
                }
            }
        case 4:
            // The arrays timed assignments read, so that the states they give are known exactly.
            return pending.map { $0.boundArrayNames.mayIntersect(known.timedReads) }
        case 5:
            return chooseUsingDisplaysInCode(pending) { nameIndex in
                nameIndex.mentionsAny(displayCalls) && (
                    Self.subscriptsAnArray(nameIndex, known.arrayHashes, with: known.timedStateHashes, in: displayCallHashes)
                        || nameIndex.mentionsAny(known.statesFromArrays)
                        || Self.accessesAText(nameIndex, known, in: displayCallHashes))
            }
        case 6:
            let named = known.arrayNamesShown
            guard !named.isEmpty else { return nil }
            return pending.map { $0.boundArrayNames.mayIntersect(named) }
        default:
            return nil
        }
    }

    /// The files `mayShow` picks that also use a display call in code, not only in comments and strings
    /// (asked last: each such look rereads and scans a file; they are taken at once, on every core).
    private func chooseUsingDisplaysInCode(_ pending: [FileNameIndex], _ mayShow: (FileNameIndex) -> Bool) -> [Bool] {
        let shows = pending.map(mayShow)
        FileNameIndex.takeCodeLooks(zip(pending, shows).compactMap { $1 ? $0 : nil })
        return zip(pending, shows).map { $1 && $0.mayUseInCode(displayCalls) }
    }

    /// Which of the files whose only asked words are `enum` and `switch` (`FileSelector.WordScreen`) need
    /// their name index before the rounds: those that may declare a case some clock may assign (the
    /// only ones a round may ask about: rounds 2 and 3). All of them when a clock may assign any case,
    /// or its code could not be followed.
    public struct TextEnumFilter {
        /// The hashes of the case names to look for (as `WordHash.ofName` gives them); nil: every file needs
        /// its name index.
        private let names: Set<UInt64>?

        /// From the clock looks of the files not yet relevant (taken here, on every core) and the
        /// relevant files' facts.
        public init(pending: [FileNameIndex], facts: [RotationFacts]) {
            let clocks = pending.filter(\.mentionsClock)
            DispatchQueue.concurrentPerform(iterations: clocks.count) { _ = clocks[$0].clockBodyNames }
            var names = Set<UInt64>()
            var anyName = false
            for clock in clocks {
                guard let assigned = Self.caseNamesAssigned(by: clock) else {
                    anyName = true
                    break
                }
                names.formUnion(assigned)
            }
            for fact in facts { names.formUnion(fact.timedAssignments.compactMap(\.assignedCase).map(WordHash.ofName)) }
            self.names = anyName ? nil : names
        }

        /// Whether the clocks of a file (one that calls a clock, its look taken) may assign any case:
        /// then every put-off file needs its name index, and the scanner stops putting them off.
        public static func mayAssignAnyCase(_ nameIndex: FileNameIndex) -> Bool {
            nameIndex.mentionsClock && caseNamesAssigned(by: nameIndex) == nil
        }

        /// The case names a clock file's clocks may assign; nil when they may assign any (no look:
        /// anything may run on its clocks, and its facts, once parsed, may name any case).
        private static func caseNamesAssigned(by clock: FileNameIndex) -> [UInt64]? {
            guard let reach = clock.clockBodyNames else { return nil }
            guard reach.assigns else { return [] }
            let names = reach.caseAssignments.map(\.caseName)
            return names.contains(nil) ? nil : names.compactMap { $0 }
        }

        public func needsSignature(_ bytes: [UInt8]) -> Bool {
            guard let names else { return true }
            guard !names.isEmpty else { return false }
            return bytes.withUnsafeBufferPointer { Self.mayDeclareACase(named: names, in: $0) }
        }

        /// Whether a name whose hash is in `names` follows a `case` keyword before its list ends, as the
        /// lexer reads the cases a file declares (`FileNameIndex.declaresCase`), taken wider: `case`
        /// after any byte but a letter, `_` or a multi-byte character's (`` `case` ``, `0case`); every
        /// name of a run of name bytes and the name after its leading digits, after a dot too; the list
        /// ends at `{`, `}`, `;`, the next `case`, or `:` outside the parentheses opened since the
        /// keyword; comments and strings read as code, as the lexer reads them. Each `case` is found
        /// with `memchr`. Two names of one hash only make the answer wider.
        static func mayDeclareACase(named names: Set<UInt64>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = bytes.baseAddress else { return false }
            let isName = Lexer.isNameByte
            let count = bytes.count
            var from = 0
            while from < count, let found = memchr(base + from, Int32(UInt8(ascii: "c")), count - from) {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                from = at + caseKeyword.count
                guard from <= count, bytes[at..<from].elementsEqual(caseKeyword) else {
                    from = at + 1
                    continue
                }
                if from < count, isName[Int(bytes[from])] { continue }
                if at > 0, WordSieve.startsAWord(bytes[at - 1]) { continue }
                if listNamesOneOf(names, in: bytes, from: from, isName: isName) { return true }
            }
            return false
        }

        private static let caseKeyword = Array("case".utf8)

        /// Whether the case list that starts at `from` (right after its keyword) holds one of `names`.
        private static func listNamesOneOf(_ names: Set<UInt64>, in bytes: UnsafeBufferPointer<UInt8>, from: Int, isName: [Bool]) -> Bool {
            var depth = 0
            var index = from
            while index < bytes.count {
                let byte = bytes[index]
                if isName[Int(byte)] {
                    let start = index
                    while index < bytes.count, isName[Int(bytes[index])] { index += 1 }
                    // The run, then the name after its leading digits (`0case` is also `case`).
                    for nameStart in [start, Lexer.nameAfterDigits(bytes, from: start, to: index)?.start] {
                        guard let nameStart else { continue }
                        let name = bytes[nameStart..<index]
                        if name.elementsEqual(caseKeyword) { return false }  // A new list: `memchr` finds it next.
                        if names.contains(WordHash.of(bytes: name)) { return true }
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "("): depth += 1
                case UInt8(ascii: ")"): depth -= 1
                case UInt8(ascii: ":") where depth <= 0: return false
                case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ";"): return false
                default: break
                }
                index += 1
            }
            return false
        }
    }

    /// Whether a clock file's timed assignments may count (see the rounds); nil reach: it may.
    static func clockMayMatter(_ reach: ClockBodyNames?, _ known: Known, _ caseTexts: inout CaseTexts) -> Bool {
        guard let reach else { return true }
        guard reach.assigns else { return false }
        // Kind 1 needs a clock that assigns a name in a display's brackets (`index += 1` for `tips[index]`).
        let assignsAnIndex = !(reach.assignedTargets ?? reach.names).isDisjoint(with: known.indexNameHashes)
        return !reach.assignedFrom.isDisjoint(with: known.arrayHashes) || assignsAnIndex
            || reach.caseAssignments.contains { caseTexts.mayShow($0) }
    }

    /// Whether `phase = .k` may end up on screen as `Text(phase.message)` (kind 3): an enum file may
    /// declare the case `k` and a text property, and a display file may read that property of `phase`.
    struct CaseTexts {
        let enumFiles: [FileNameIndex]
        let displayFiles: [FileNameIndex]
        private var answers: [ClockBodyNames.CaseAssignment: Bool] = [:]
        private var shown: [Pair: Bool] = [:]

        /// A state and one of its properties (nil: any).
        struct Pair: Hashable {
            let state: UInt64
            let property: UInt64?
        }

        init(all: [FileNameIndex], displayCalls: WordSet, displayCallHashes: [UInt64]) {
            enumFiles = all.filter(RotationFollower.mayHoldTextEnum)
            displayFiles = all.filter { $0.mentionsAny(displayCalls) }
            self.displayCalls = displayCalls
            self.displayCallHashes = displayCallHashes
        }

        private let displayCalls: WordSet
        private let displayCallHashes: [UInt64]

        /// Takes, on every core, the closer readings (each rereads and scans its file) that deciding about
        /// `clocks` will ask for: the clock files' own, then those of the enum files that may declare a
        /// case they assign. Asked one at a time, they would run on one core.
        func lookAhead(atClocks clocks: [FileNameIndex]) {
            DispatchQueue.concurrentPerform(iterations: clocks.count) { _ = clocks[$0].clockBodyNames }
            var names = Set<UInt64>()
            var anyName = false
            for reach in clocks.compactMap(\.clockBodyNames) where reach.assigns {
                for assignment in reach.caseAssignments {
                    if let name = assignment.caseName { names.insert(name) } else { anyName = true }
                }
            }
            let asked = enumFiles.filter { file in anyName || names.contains(where: file.declaresCase(hash:)) }
            DispatchQueue.concurrentPerform(iterations: asked.count) { _ = asked[$0].textPropertyNames }
        }

        mutating func mayShow(_ assignment: ClockBodyNames.CaseAssignment) -> Bool {
            if let known = answers[assignment] { return known }
            let answer = decide(assignment)
            answers[assignment] = answer
            return answer
        }

        private mutating func decide(_ assignment: ClockBodyNames.CaseAssignment) -> Bool {
            var properties = Set<UInt64>()
            var anyProperty = false
            for file in enumFiles where assignment.caseName.map(file.declaresCase(hash:)) ?? true {
                guard let names = file.textPropertyNames else {
                    anyProperty = true
                    break
                }
                properties.formUnion(names.names)
            }
            guard anyProperty || !properties.isEmpty else { return false }
            guard let state = assignment.state else { return true }
            return mayShow(state: state, anyOf: anyProperty ? nil : properties)
        }

        /// Whether a display file may read one of `properties` (nil: any property) of `state`.
        mutating func mayShow(state: UInt64, anyOf properties: Set<UInt64>?) -> Bool {
            guard let properties else { return mayShow(Pair(state: state, property: nil)) }
            return properties.contains { mayShow(Pair(state: state, property: $0)) }
        }

        private mutating func mayShow(_ pair: Pair) -> Bool {
            if let known = shown[pair] { return known }
            // A file that names the display call only in comments and strings shows nothing (asked last).
            let answer = displayFiles.contains { file in
                file.mentions(hash: pair.state)
                    && (pair.property.map { file.accesses(hash: $0, of: pair.state, asFirstArgumentOfAny: displayCallHashes) } ?? true)
                    && file.mayUseInCode(displayCalls)
            }
            shown[pair] = answer
            return answer
        }
    }

    /// The names any file may declare as a string array.
    static func possibleArrays(_ all: [FileNameIndex]) -> Set<UInt64> {
        var hashes = Set<UInt64>()
        for nameIndex in all where nameIndex.mayDeclareStringArray {
            hashes.formUnion(nameIndex.boundArrayNames.hashes ?? [])
        }
        return hashes
    }

    /// `tips.randomElement()` for a possible array (the parser's `.random` display names the array
    /// right before the dot, as the lexer's pair does).
    func picksARandomElement(_ nameIndex: FileNameIndex, of arrays: Set<UInt64>) -> Bool {
        randomPickHashes.contains { pick in nameIndex.mentions(hash: pick) && arrays.contains { nameIndex.accesses(hash: pick, of: $0) } }
    }

    /// A time-driven view whose content closure may show an element of a possible array (kind 1 or 4
    /// computed from the time, `TimelineView { context in Text(tips[index(context.date)]) }`): the
    /// file names such a view, a display call and an array. Its values are local to the closure, so
    /// the file holds its own displays; the rounds after fetch the arrays it names.
    func mayShowTimeDrivenText(_ nameIndex: FileNameIndex, _ known: Known) -> Bool {
        nameIndex.mentionsAny(timeDrivenViews) && nameIndex.mentionsAny(displayCalls) && known.arrayHashes.contains(where: nameIndex.mentions(hash:))
    }

    /// `Text(tips[index])` for a possible array and a state some clock assigns.
    static func subscriptsAnArray(_ nameIndex: FileNameIndex, _ arrays: Set<UInt64>, with states: Set<UInt64>,
                                  in displayCalls: [UInt64]) -> Bool {
        arrays.contains { array in
            nameIndex.subscripts(hash: array, asFirstArgumentOfAny: displayCalls) && states.contains { nameIndex.subscripts(array, with: $0) }
        }
    }

    /// `Text(phase.message)` for a state a clock switches to a case of an enum with the text property `message`.
    static func accessesAText(_ nameIndex: FileNameIndex, _ known: Known, in displayCalls: [UInt64]) -> Bool {
        known.phaseTexts.contains { state, properties in
            nameIndex.mentions(state) && properties.contains {
                nameIndex.accesses(hash: WordHash.ofName($0), of: WordHash.ofName(state), asFirstArgumentOfAny: displayCalls)
            }
        }
    }

    /// The names the relevant files' facts give, and the possible arrays of every file.
    struct Known {
        /// Possible string arrays (from the lexer) and the arrays parsed so far.
        var arrayHashes: Set<UInt64>
        var textPropertyNames = Set<String>()
        var textPropertyCaseHashes = Set<UInt64>()
        var timedStateHashes = Set<UInt64>()
        /// The states clocks switch between enum cases, with each case (`phase`, `fetching`).
        var timedCases: [(state: UInt64, name: UInt64)] = []
        /// The names timed assignments read (`tips` in `line = tips[i]`).
        var timedReads = Set<UInt64>()
        /// States a clock assigns from a parsed string array (kind 4).
        var statesFromArrays = Set<String>()
        /// States a clock switches to a case of a known text enum (kind 3), each with the text
        /// properties of the enums that have the case: what a display must read of it.
        var phaseTexts: [String: Set<String>] = [:]
        /// Arrays the displays show (`tips[index]`, `tips.randomElement()`): the A files to parse last.
        var arrayNamesShown = Set<UInt64>()
        /// The names in the brackets of the displays' subscripts (`index` in `tips[index]`).
        var indexNameHashes = Set<UInt64>()

        init(_ facts: [RotationFacts], possibleArrays: Set<UInt64>) {
            var parsedArrays = Set<String>()
            var textPropertyCases = Set<String>()
            var propertiesByCase: [String: Set<String>] = [:]
            for fact in facts {
                parsedArrays.formUnion(fact.stringArrays.map(\.name))
                for property in fact.textProperties {
                    textPropertyNames.insert(property.place.name)
                    textPropertyCases.formUnion(property.cases)
                    for name in property.cases { propertiesByCase[name, default: []].insert(property.place.name) }
                }
            }
            arrayHashes = possibleArrays.union(parsedArrays.map(WordHash.ofName))
            textPropertyCaseHashes = Set(textPropertyCases.map(WordHash.ofName))
            for fact in facts {
                for assignment in fact.timedAssignments {
                    timedStateHashes.insert(WordHash.ofName(assignment.state))
                    if let assigned = assignment.assignedCase {
                        timedCases.append((WordHash.ofName(assignment.state), WordHash.ofName(assigned)))
                        if let properties = propertiesByCase[assigned] { phaseTexts[assignment.state, default: []].formUnion(properties) }
                    }
                    timedReads.formUnion(assignment.readsNames.map(WordHash.ofName))
                    if assignment.readsNames.contains(where: parsedArrays.contains) { statesFromArrays.insert(assignment.state) }
                }
                for display in fact.displays {
                    switch display.shown {
                    case .element(let array, let names):
                        arrayNamesShown.insert(WordHash.ofName(array))
                        indexNameHashes.formUnion(names.map(WordHash.ofName))
                    case .random(let array, _): arrayNamesShown.insert(WordHash.ofName(array))
                    case .property, .value: break
                    }
                }
            }
        }
    }
}

extension FileNameIndex {
    /// What this name index would wrongly deny about a parsed file: names the tree has but the filter
    /// says are absent, and rotation facts the follower's rounds could not reach. Always empty when
    /// the lexer is right; the mutation test and the fuzzer check it on hostile input.
    public func factsMissed(tree: Tree, facts: RotationFacts?) -> [String] {
        var denied: [String] = []
        // The closer reading at trigger words' files (`CodeWords`) may not take code for a comment or a string either.
        let codeWords = CodeWords(bytes: tree.source.bytes)
        // Error recovery (and some of the pinned grammar's gaps) may invent an empty name or cut one
        // out of a word (`odeUuid` of `episodeUuid`, `$0` of `$0rt`): those are not names of the file.
        // Nor is a raw identifier without a letter or digit (`` `***` ``, Swift 6): no rule asks about one.
        tree.rootNode.walk { node in
            if node.isError || node.isMissing { return false }
            guard node.type == "simple_identifier" || node.type == "type_identifier",
                  node.startByte < node.endByte, RotationFacts.isWholeWord(node) else { return true }
            let parts = WordSet.parts(of: node.text)
            if !parts.isEmpty {
                if !mentions(node.text) { denied.append("identifier \(node.text) at byte \(node.startByte)") }
                if let codeWords, !parts.allSatisfy(codeWords.code.contains) {
                    denied.append("identifier \(node.text) at byte \(node.startByte): taken for a comment or a string")
                }
            }
            return true
        }
        guard let facts else { return denied }
        for array in facts.stringArrays {
            if !mayDeclareStringArray { denied.append("string array \(array.name): no array seen") }
            if !boundArrayNames.mayIntersect([WordHash.ofName(array.name)]) { denied.append("string array \(array.name): name not bound") }
        }
        for property in facts.textProperties where !RotationFollower.mayHoldTextEnum(self) {
            denied.append("text property \(property.place.name): no enum and switch")
        }
        for property in facts.textProperties {
            if let names = textPropertyNames, !names.names.contains(WordHash.ofName(property.place.name)) {
                denied.append("text property \(property.place.name): not among the possible text properties")
            }
        }
        for property in facts.textProperties {
            for name in property.cases where !declaresCase(hash: WordHash.ofName(name)) { denied.append("case \(name) not declared") }
        }
        for assignment in facts.timedAssignments {
            if !mentionsClock { denied.append("timed \(assignment.state): no clock word") }
            // A time-driven view's values are declared, not assigned (`RotationFollower.mayShowTimeDrivenText`).
            guard assignment.within == nil, let reach = clockBodyNames else { continue }
            let unreached = ([assignment.state] + assignment.readsNames).filter { !WordSet.parts(of: $0).allSatisfy(reach.names.contains) }
            if !unreached.isEmpty { denied.append("timed \(assignment.state): \(unreached.joined(separator: ", ")) not in the clock's reach") }
            let unread = assignment.readsNames.filter { !WordSet.parts(of: $0).allSatisfy(reach.assignedFrom.contains) }
            if !unread.isEmpty { denied.append("timed \(assignment.state): \(unread.joined(separator: ", ")) not seen on its right side") }
            if !reach.assigns { denied.append("timed \(assignment.state): no assignment in the clock's reach") }
            if let targets = reach.assignedTargets, !WordSet.parts(of: assignment.state).allSatisfy(targets.contains) {
                denied.append("timed \(assignment.state): not among the names its clock's assignments assign to")
            }
            if let assigned = assignment.assignedCase {
                let state = WordHash.ofName(assignment.state), name = WordHash.ofName(assigned)
                if !reach.caseAssignments.contains(where: { ($0.state ?? state) == state && ($0.caseName ?? name) == name }) {
                    denied.append("timed \(assignment.state): its case assignment (\(assigned)) not seen")
                }
            }
        }
        for display in facts.displays {
            switch display.shown {
            case .element(let array, let names):
                for name in names where !subscripts(WordHash.ofName(array), with: WordHash.ofName(name)) {
                    denied.append("display \(array)[\(name)]: pair not seen")
                }
                if !subscripts(hash: WordHash.ofName(array)) { denied.append("display \(array)[…]: subscript not seen") }
                if !subscripts(hash: WordHash.ofName(array), asFirstArgumentOfAny: [WordHash.ofName(display.place.name)]) {
                    denied.append("display \(display.place.name)(\(array)[…]): argument subscript not seen")
                }
            case .random(let array, let call):
                let pick = WordHash.ofName(call.name)
                if !(mentions(hash: pick) && accesses(hash: pick, of: WordHash.ofName(array))) {
                    denied.append("display \(array).randomElement(): access not seen")
                }
            case .property(let base, let property):
                if !accesses(property, of: base) { denied.append("display \(base).\(property): access not seen") }
                if !accesses(hash: WordHash.ofName(property), of: WordHash.ofName(base), asFirstArgumentOfAny: [WordHash.ofName(display.place.name)]) {
                    denied.append("display \(display.place.name)(\(base).\(property)): argument member not seen")
                }
            case .value:
                break
            }
        }
        return denied
    }
}
