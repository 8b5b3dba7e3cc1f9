// AuditSelect: the select step of a scan, which files need parsing now and which in later rounds, so
// that most files of a large tree are read but never parsed.
// It owns: the word screen over raw bytes (WordSieve, in C for the byte loop), the per-file name index
// (FileNameIndex: a lexer's names in Bloom filters), the closer readings of a few files (CodeWords,
// DeclaredStringArrays, ClockBodyNames, TextPropertyNames) and the rounds that follow rotating text
// across files (RotationFollower). It is fed only by what the rules declare (`SelectionNeeds`).
// It must not: decide findings (selection never changes a report: a file it wrongly keeps is parsed
// for nothing, and it may never wrongly drop one; tests and the fuzzer compare with parsing every
// file), read or parse files itself (the scanner hands it bytes), or be known by the rules or the
// engine, which see only `SelectionNeeds` and `RotationFacts.Hints`.

import AuditRules
import SwiftGrammar

/// The select step's one interface: built from what the rules need, asked about each file's bytes
/// and name index, and, for rotating text, following names across files round after round.
public struct FileSelector: Sendable {
    public let needs: SelectionNeeds
    /// The trigger words, hashed once: asked of every file.
    private let triggerWordSet: WordSet
    /// The names a call of determinate progress leaves without a finding (see `SelectionNeeds`),
    /// hashed; nil when no name qualifies.
    private let determinateWatch: DeterminateWatch?
    private let commentTriggerParts: Set<UInt64>
    private let wordScreen: WordSieve?
    private let displayCallWords: WordSet
    /// The rules' clock names, as the name indexes and closer readings ask about them.
    public let clockWords: ClockWords

    public init(_ needs: SelectionNeeds) {
        self.needs = needs
        let triggerWords = needs.triggerWords
        triggerWordSet = WordSet(triggerWords)
        commentTriggerParts = Set(needs.commentWords.flatMap { WordSet.parts(of: $0) })
        displayCallWords = WordSet(needs.rotation?.displayCalls ?? [])
        clockWords = needs.rotation.map(ClockWords.init) ?? .none
        if needs.determinateLabels.isEmpty {
            determinateWatch = nil
        } else {
            determinateWatch = DeterminateWatch(
                labels: Dictionary(uniqueKeysWithValues: needs.determinateLabels.map { (WordHash.ofName($0), Set($1.map(WordHash.ofName))) }),
                spinningStyles: Dictionary(uniqueKeysWithValues: needs.determinateStyles.map { (WordHash.ofName($0), $1) }))
        }
        let rotating = needs.rotation
        let clocks = clockWords
        wordScreen = WordSieve(groups: triggerWords.map { [$0] } + (rotating.map { RotationFollower.choosingWords(displayCalls: $0.displayCalls, clocks: clocks) } ?? []),
                               setAside: rotating == nil ? [] : [RotationFollower.textEnumNames])
    }

    /// The selector for an engine's rules.
    public init(_ engine: RuleEngine) { self.init(engine.selectionNeeds) }

    /// Words one of which a file must mention to be parsed on sight: the components' names, the
    /// label components, suppression and re-export markers. Files with displays, clocks and text
    /// enums are picked later, by `RotationFollower`, only where the names line up (a display of
    /// `tips.randomElement()` too: only where `tips` may be a string array).
    public var triggerWords: [String] { needs.triggerWords }

    private var followsRotatingText: Bool { needs.rotation != nil }

    /// What the quick look at a file's bytes tells (see `screen(_:)`).
    public enum WordScreen: Sendable {
        /// Nothing a rule or round asks about (`isIrrelevantByItsWords`).
        case irrelevant
        /// `enum` and `switch`, and nothing else a rule or round asks about: the file may hold a text
        /// enum, which matters only if it declares a case some clock may assign (then it needs its
        /// name index; `FirstPass` defers the lexer until that is known).
        case onlyTextEnumWords
        /// Anything else: the file needs its name index.
        case needsIndex
    }

    /// Whether a file is sure to need no name index: valid UTF-8 with no NUL byte (anything else is
    /// reported from its name index), none of the trigger words, and, with rotating-text rules, nothing
    /// `keepsIndex` looks for (no display call, clock or `enum` with `switch`, no `[` that may start a
    /// string array), each as a whole word anywhere, comments and strings included. Such a file is
    /// neither relevant on sight nor followed, whatever its name index would say; the scanner then
    /// skips the lexer. False when the rules' words do not suit the screen (see `WordSieve`).
    public func isIrrelevantByItsWords(_ bytes: [UInt8]) -> Bool { screen(bytes) == .irrelevant }

    /// `isIrrelevantByItsWords`, telling apart the files whose only asked words are `enum` and `switch`
    /// (with the same other conditions: no `[` that may start a string array, UTF-8 without NUL).
    public func screen(_ bytes: [UInt8]) -> WordScreen {
        guard let wordScreen else { return .needsIndex }
        return bytes.withUnsafeBufferPointer { bytes in
            let sighting = wordScreen.sighting(in: bytes)
            guard sighting != .other, !followsRotatingText || !WordSieve.mayStartAStringArray(bytes), WordSieve.isTextWithoutNUL(bytes) else {
                return .needsIndex
            }
            return sighting == .none ? .irrelevant : .onlyTextEnumWords
        }
    }

    /// Whether a file must be parsed, from its name index and, when that shows a trigger word, a
    /// closer reading of where the word stands. A word only in comments or strings
    /// (`// was ProgressView`) makes nothing to report, except the suppression marker, which lives in
    /// comments; nor does a name only ever called as determinate progress (see `determinateWatch`).
    /// For rotating text, a file must be parsed also when it may declare a string array whose name
    /// neither the lexer nor the closer reading (`DeclaredStringArrays`) could tell: the other rounds
    /// match every file against the possible arrays' names.
    public func isRelevantOnSight(_ nameIndex: FileNameIndex, bytes: [UInt8]) -> Bool {
        if followsRotatingText, nameIndex.mayDeclareStringArray, nameIndex.boundArrayNames.hashes == nil { return true }
        guard nameIndex.mentionsAny(triggerWordSet) else { return false }
        // A name used only in calls of determinate progress (`ProgressView(value: 0.4)`) has nothing
        // to report, unless a style in the file may make one spin.
        let watch = determinateWatch.flatMap { watch in watch.labels.keys.contains(where: nameIndex.mentions(hash:)) ? watch : nil }
        guard let words = CodeWords(bytes: bytes, determinate: watch) else { return true }
        return words.usesAnyInCode(triggerWordSet, orInComments: commentTriggerParts, notCounting: words.onlyInDeterminateCalls)
    }

    /// Whether `RotationFollower` may ask about this file in a round (see there): only then must its
    /// name index be kept.
    public func keepsIndex(_ nameIndex: FileNameIndex) -> Bool {
        followsRotatingText && RotationFollower.mayChoose(nameIndex, displayCalls: displayCallWords)
    }

    /// Whether this file may make the rotating-text rounds run (see `RotationFollower.mayStartRounds`).
    public func mayStartRounds(_ nameIndex: FileNameIndex) -> Bool {
        followsRotatingText && RotationFollower.mayStartRounds(nameIndex)
    }

    /// What follows rotating text across files, when the rules have any.
    public func rotationFollower() -> RotationFollower? {
        needs.rotation.map(RotationFollower.init)
    }

    /// What a file's name index rules out, for the engine's rotating-text walk (nil: nothing known).
    public func hints(for nameIndex: FileNameIndex?) -> RotationFacts.Hints? {
        guard let nameIndex else { return nil }
        return RotationFacts.Hints(stringArrays: nameIndex.mayDeclareStringArray, textEnums: RotationFollower.mayHoldTextEnum(nameIndex),
                                   clocks: nameIndex.mentionsClock, displays: nameIndex.mentionsAny(displayCallWords))
    }
}
