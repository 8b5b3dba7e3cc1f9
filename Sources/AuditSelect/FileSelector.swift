// AuditSelect: the select step of a scan: which files need parsing, so that most files of a large
// tree are read but never parsed. It owns the word screen over raw bytes (WordScreen, in C for the
// byte loop), the closer reading of the few files that name a rule's word (CodeWords: code, not
// comments or strings; not only determinate progress), the anchor cut (the part of a possible
// rotating-text anchor that is parsed first: AnchorCut), and the follow-up decision for the files that
// can matter only through another file's clock (a whole-word search of the names that clock's facts
// link by). It is fed only by what the rules declare (`SelectionNeeds`, `RotationLinks`).
// It must not: decide findings (selection never changes a report: a file it wrongly keeps is parsed
// for nothing, and it may never wrongly drop one; tests and the fuzzer compare with parsing every
// file), read or parse files itself (the scanner hands it bytes), or be known by the rules or the
// engine.

import AuditRotation
import AuditRules
import SwiftGrammar

/// What to do with a file, from its bytes.
public enum FileDecision: Sendable, Equatable {
    /// It may hold a finding or a fact on its own: parse it now.
    case parse
    /// It can hold neither: no rule's word, no clock.
    case skip
    /// A package manifest with nothing else to look at: parsed for the modules it declares only.
    case manifest
    /// It may take part in a finding only through another file's clock (a view showing a model's
    /// state, the strings a model reads): decided once the files parsed now tell their linking names
    /// (`FileSelector.wants`).
    case later
}

/// The select step's one interface: built from what the rules need, asked about each file's bytes,
/// and, once the first files are parsed, about the files left for later.
public struct FileSelector: Sendable {
    public let needs: SelectionNeeds
    /// The trigger words, hashed once: asked of the files that name one.
    private let triggerWordSet: WordSet
    /// The names a call of determinate progress leaves without a finding (see `SelectionNeeds`),
    /// hashed; nil when no name qualifies.
    var determinateWatch: DeterminateWatch?
    private let commentTriggerParts: Set<UInt64>
    /// Every word the step asks about, one group each: the trigger words, then the rotating-text
    /// rules' clocks, receivers, publishers, displays, observable-state names and random picks
    /// (`groupKinds`).
    private let wordScreen: WordScreen?
    private let groupKinds: [WordKind]
    /// The rotating-text rules' words by where they count in code (`NamePositions`), hashed, for the
    /// closer reading of a possible anchor.
    private let rotationUses: RotationUses?
    /// Every name the closer reading is asked about (trigger words' and comment markers' parts, the
    /// rotating-text rules' words): the only names it notes (`CodeWords.init(bytes:determinate:noting:)`).
    /// Nil (tests: the plain way) notes every name.
    var askedNames: NameInterest?
    /// Whether the closer reading stops once what it has read settles a parse (tests: false, the plain
    /// way, reads every file to its end).
    var stopsEarly = true
    /// The names a call of determinate progress may take back (`CodeWords.onlyInDeterminateCalls`
    /// holds no other): a trigger word among them settles nothing before the end.
    private let determinateNames: Set<UInt64>

    /// What a word of the screen is for.
    enum WordKind: Sendable {
        case trigger, clock, receiver, publisher, display, observableState, randomPick
    }

    /// The rotating-text rules' words as the closer reading asks about them: each kind where the
    /// engine's `RotationReader` takes it (a clock or a display is a call, a display property is set
    /// on a value, observable state is an attribute or a conformance).
    struct RotationUses: Sendable {
        /// Clocks that are calls (closures, targets, waits, time-driven views; not receivers).
        let clocks: Set<UInt64>
        let receivers: Set<UInt64>
        let displayCalls: Set<UInt64>
        let displayProperties: Set<UInt64>
        let observableState: Set<UInt64>
        let randomPicks: WordSet
        /// The words whose top-level pieces the anchor cut keeps (`AnchorCut`): every clock (receivers
        /// and sequences included), the publishers' last names and the random picks' names.
        let cutWords: AnchorCut.Words

        init(_ rotation: RotationVocabulary) {
            func last(_ words: some Sequence<String>) -> Set<UInt64> { Set(words.compactMap { WordSet.parts(of: $0).last }) }
            clocks = last(rotation.clockCalls.subtracting(rotation.receivers))
            receivers = last(rotation.receivers)
            displayCalls = last(rotation.displayCalls.union(rotation.displaySetters))
            displayProperties = last(rotation.displayProperties)
            observableState = last(rotation.observableState)
            randomPicks = WordSet(rotation.randomPicks)
            let waits = last(rotation.waitClocks.keys)
            cutWords = AnchorCut.Words(
                all: Set(rotation.clockCalls.flatMap(WordSet.parts(of:))).union(last(rotation.publishers.keys)).union(rotation.randomPicks.flatMap(WordSet.parts(of:))),
                calls: last(rotation.clockCalls.subtracting(rotation.waitClocks.keys)).union(last(rotation.publishers.keys)),
                waits: waits, randomPicks: last(rotation.randomPicks), receivers: last(rotation.receivers),
                publisherNames: rotation.publishers.keys.sorted().compactMap { $0.split(separator: ".").last.map { Array($0.utf8) } })
        }

        /// Every name these sets ask about.
        var names: Set<UInt64> {
            clocks.union(receivers).union(displayCalls).union(displayProperties).union(observableState).union(randomPicks.words.joined())
        }

        /// The kinds a file's code uses where they count; a receiver only with a publisher named
        /// anywhere in the file (`seen`): the reader takes no other.
        func kinds(in words: CodeWords, seen: Set<WordKind>) -> Set<WordKind> {
            let positions = words.positions
            var kinds = Set<WordKind>()
            if !clocks.isDisjoint(with: positions.called) { kinds.insert(.clock) }
            if seen.contains(.publisher), !receivers.isDisjoint(with: positions.called) { kinds.insert(.clock) }
            if !displayCalls.isDisjoint(with: positions.called) || !displayProperties.isDisjoint(with: positions.setAfterDot) { kinds.insert(.display) }
            if !observableState.isDisjoint(with: positions.marked) { kinds.insert(.observableState) }
            if words.usesAnyInCode(randomPicks) { kinds.insert(.randomPick) }
            return kinds
        }
    }

    public init(_ needs: SelectionNeeds) {
        self.needs = needs
        let triggerWords = needs.triggerWords
        triggerWordSet = WordSet(triggerWords)
        commentTriggerParts = Set(needs.commentWords.flatMap { WordSet.parts(of: $0) })
        if needs.determinateLabels.isEmpty {
            determinateWatch = nil
        } else {
            determinateWatch = DeterminateWatch(
                labels: Dictionary(uniqueKeysWithValues: needs.determinateLabels.map { (WordHash.ofName($0), Set($1.map(WordHash.ofName))) }),
                spinningStyles: Dictionary(uniqueKeysWithValues: needs.determinateStyles.map { (WordHash.ofName($0), $1) }))
        }
        var groups: [(words: [String], kind: WordKind)] = triggerWords.map { ([$0], .trigger) }
        if let rotation = needs.rotation {
            let kinds: [(WordKind, Set<String>)] = [
                (.clock, rotation.clockCalls.subtracting(rotation.receivers)), (.receiver, rotation.receivers),
                (.publisher, Set(rotation.publishers.keys)), (.display, rotation.displayNames),
                (.observableState, rotation.observableState), (.randomPick, rotation.randomPicks),
            ]
            for (kind, words) in kinds { groups += words.sorted().map { ([$0], kind) } }
            rotationUses = RotationUses(rotation)
        } else {
            rotationUses = nil
        }
        wordScreen = WordScreen(groups: groups.map(\.words))
        groupKinds = groups.map(\.kind)
        askedNames = NameInterest(Set(triggerWordSet.words.joined()).union(commentTriggerParts).union(rotationUses?.names ?? []))
        determinateNames = Set(needs.determinateLabels.keys.map(WordHash.ofName))
    }

    /// Words one of which a file must use in code to be parsed on sight: the components' names, the
    /// label components, suppression and re-export markers.
    public var triggerWords: [String] { needs.triggerWords }

    /// What to do with a file: parse it when it uses a rule's word in code (the closer reading:
    /// `// was ProgressView` or `ProgressView(value: 0.4)` alone makes nothing to report), or when it
    /// may anchor rotating text on its own (a clock with a display or observable state, a display
    /// with a random pick: the words the engine's `RotationReader` needs for clock facts that count);
    /// with rotating-text rules, leave every other file for later; else skip it. `path` names a
    /// package manifest, always parsed (`.manifest`: it says which modules the project has).
    public func decide(_ bytes: [UInt8], path: String) -> FileDecision {
        let decision = decideByWords(bytes).decision
        return decision != .parse && SwiftPackageManifest.isManifest(path: path) ? .manifest : decision
    }

    /// The same decision, and for a file parsed only because it may anchor rotating text, the part of
    /// it that decides whether it does (`AnchorCut`, docs/speed.md): the scanner parses that part
    /// first and the whole file only if the part may anchor (else the file is left for later, as if
    /// decided so here). Nil: parse the whole file (it is parsed for another rule's word, its tokens
    /// cannot be read, or the part would be more than `AnchorCut.largestShare` of it).
    /// (`largestShare`: 1 takes every cut, for the tests that check the cut's answers.)
    /// (`hollows`: false cuts whole members only, for the tests that compare.)
    public func decideCutting(_ bytes: [UInt8], path: String, largestShare: Double = AnchorCut.largestShare, hollows: Bool = true) -> (decision: FileDecision, anchorCut: [Range<Int>]?) {
        let (decision, possibleAnchor) = decideByWords(bytes)
        guard decision == .parse else {
            return (SwiftPackageManifest.isManifest(path: path) ? .manifest : decision, nil)
        }
        guard possibleAnchor, let rotationUses, !SwiftPackageManifest.isManifest(path: path),
              let cut = AnchorCut.cut(bytes, keeping: hollows ? rotationUses.cutWords : rotationUses.cutWords.wholeMembers),
              Double(cut.byteCount) <= largestShare * Double(bytes.count) else { return (.parse, nil) }
        return (.parse, cut.ranges)
    }

    /// The decision by the words, and whether a file parsed is parsed only as a possible anchor.
    private func decideByWords(_ bytes: [UInt8]) -> (decision: FileDecision, possibleAnchor: Bool) {
        let seen = bytes.withUnsafeBufferPointer { buffer in
            wordScreen.map { screen in Set(screen.groupsAppearing(in: buffer).map { groupKinds[$0] }) }
                ?? [.trigger, .clock, .receiver, .publisher, .display, .observableState, .randomPick]
        }
        // A possible anchor by its words anywhere; then, closer, by its words in code where they count
        // (a clock named in a string, `"sleep"` an icon's name, starts nothing; nor does a `title`
        // that is no view's). Unread code counts as code.
        var clockOrNot = seen
        if seen.contains(.receiver), seen.contains(.publisher) { clockOrNot.insert(.clock) }
        let mayAnchor = rotationUses != nil && Self.anchors(clockOrNot)
        let namesATrigger = seen.contains(.trigger)
        guard namesATrigger || mayAnchor else { return (rotationUses == nil ? .skip : .later, false) }
        // The closer reading stops as soon as what it has read settles the decision, whatever follows
        // (its sets only grow, and a give-up further on parses it too): in a file that names a trigger
        // word, that word used in code where no determinate call can take it back; in one that names
        // none, an anchor's words where they count. (A file that names a trigger word reads on past an
        // anchor's words: whether it is parsed for a trigger or only as a possible anchor decides
        // whether the anchor cut may take it.)
        let settles: ((CodeWords) -> Bool)? = stopsEarly ? { [self] read in
            namesATrigger
                ? read.usesAnyInCode(triggerWordSet, orInComments: commentTriggerParts, notCounting: determinateNames)
                : Self.anchors(rotationUses!.kinds(in: read, seen: seen))
        } : nil
        guard let code = CodeWords(bytes: bytes, determinate: determinateWatch, noting: askedNames, stoppingWhen: settles) else { return (.parse, false) }
        if code.stoppedEarly { return (.parse, !namesATrigger) }
        if namesATrigger, usesATriggerWordInCode(code) { return (.parse, false) }
        guard let rotationUses else { return (.skip, false) }
        guard mayAnchor else { return (.later, false) }
        return Self.anchors(rotationUses.kinds(in: code, seen: seen)) ? (.parse, true) : (.later, false)
    }

    /// Whether words of these kinds may start a finding: a clock with a display or observable state,
    /// or a random pick (a display may show it, or a type's stored value may start as one, which
    /// makes an anchor with no display in the file: `RotationFacts.hasInitialPicks`).
    static func anchors(_ kinds: Set<WordKind>) -> Bool {
        (kinds.contains(.clock) && (kinds.contains(.display) || kinds.contains(.observableState)))
            || kinds.contains(.randomPick)
    }

    /// The closer reading of a file that names a trigger word: whether it uses one in code (or the
    /// suppression marker in a comment), not only in calls of determinate progress (unless a style in
    /// the file may make one spin). Yes when the reading gives up.
    func usesATriggerWordInCode(_ bytes: [UInt8]) -> Bool {
        usesATriggerWordInCode(CodeWords(bytes: bytes, determinate: determinateWatch, noting: askedNames))
    }

    private func usesATriggerWordInCode(_ words: CodeWords?) -> Bool {
        guard let words else { return true }
        return words.usesAnyInCode(triggerWordSet, orInComments: commentTriggerParts, notCounting: words.onlyInDeterminateCalls)
    }

    /// The names a file left for later must mention (as whole words, comments and strings included)
    /// to be parsed: those the parsed files' clocks in its workspace link by (`RotationLinks`). Built
    /// once per workspace, asked of each file left there.
    public struct FollowUp: Sendable {
        /// The names' word screen first, then their hashes (`NameSearch`).
        let search: NameSearch

        public init(_ names: Set<String>) { search = NameSearch(names, hashedAs: WordHash.ofWord) }

        public var isEmpty: Bool { search.isEmpty }
    }

    /// Whether a file left for later must be parsed: it mentions a name of `followUp`.
    public func wants(_ bytes: [UInt8], _ followUp: FollowUp) -> Bool { followUp.search.isMentioned(in: bytes) }

    /// Whether a file left for later, whose names `sketch` holds, may be wanted (`wants`): false only
    /// when it mentions none of the names, so that its bytes need not be read again.
    public func mayWant(_ sketch: NameSketch, _ followUp: FollowUp) -> Bool { followUp.search.mayBeMentioned(in: sketch) }

    /// Whether the bytes mention one of the names (`WordHash.ofName` hashes) as a whole word.
    public static func mentionsAny(of names: Set<UInt64>, in bytes: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        var found = false
        bytes.withUnsafeBufferPointer { buffer in
            forEachName(buffer) { hash in
                if names.contains(hash) { found = true }
                return !found
            }
        }
        return found
    }

    /// Where bytes stop being Swift text: the first NUL byte and the first byte that is no valid UTF-8.
    public static func textProblems(_ bytes: [UInt8]) -> (firstNUL: Int?, firstInvalidUTF8: Int?) {
        bytes.withUnsafeBufferPointer(SourceBytes.problems)
    }

    /// Calls `visit` with the hash (`WordHash.ofName`) of every name in the bytes (a run of name bytes;
    /// after leading digits, the rest), until it returns false.
    static func forEachName(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (UInt64) -> Bool) {
        let classes = ByteClass.table
        var index = 0
        let count = bytes.count
        while index < count {
            guard classes[Int(bytes[index])].contains(.name) else {
                index += 1
                continue
            }
            while index < count, classes[Int(bytes[index])].contains(.digit) { index += 1 }
            var hash = WordHash()
            while index < count, classes[Int(bytes[index])].contains(.name) {
                hash.add(bytes[index])
                index += 1
            }
            if !visit(hash.value) { return }
        }
    }
}
