import Foundation

/// What to do with a file in the first pass, decided from its name index (and its bytes, for a
/// closer reading). Asked with no name index of a file whose only asked words are `enum` and `switch`
/// (`FileSelector.WordScreen.onlyTextEnumWords`): `.skip` or `.parseIrrelevant` defer its name index
/// (the scanner indexes such files at the end of the pass only if a round may ask about them),
/// `.index` indexes it and asks again, `.parse` indexes and parses it now.
public enum ParseDecision: Sendable {
    /// Parse and analyze it: it is relevant.
    case parse
    /// Parse it although it is not relevant (the prefilter is off).
    case parseIrrelevant
    /// Do not parse it: an empty analysis stands for it.
    case skip
    /// For a file asked about with no name index: index it now and ask again.
    case index
}

/// The first pass's decisions, asked from every worker, file by file, with what they learn on the way:
/// whether the rotating-text rounds will run, and whether every deferred text enum will need its index.
public final class FirstPass: @unchecked Sendable {
    private let selector: FileSelector
    /// False parses every file (`.parseIrrelevant` instead of `.skip`): the rounds then only decide
    /// relevance, and the report must be the same.
    private let prefilter: Bool
    private let roundsExpected = SharedFlag()
    /// Raised once a clock may assign any case: every deferred file will need its name index.
    private let indexEveryTextEnum = SharedFlag()

    public init(_ selector: FileSelector, prefilter: Bool) {
        self.selector = selector
        self.prefilter = prefilter
    }

    public func decide(_ nameIndex: FileNameIndex?, bytes: [UInt8]) -> ParseDecision {
        guard let nameIndex else {
            // Only `enum` and `switch`: a possible text enum, which may start the rounds; its name
            // index waits for the end of this pass.
            if !roundsExpected.isSet { roundsExpected.set() }
            if indexEveryTextEnum.isSet { return .index }
            return prefilter ? .skip : .parseIrrelevant
        }
        if !roundsExpected.isSet, selector.mayStartRounds(nameIndex) { roundsExpected.set() }
        if selector.isRelevantOnSight(nameIndex, bytes: bytes) { return .parse }
        // Once the rounds are sure to run, the second asks every clock file left unparsed what
        // its clocks may do: answered here, on every core, with the bytes in hand, rather than
        // read again then. (Before that, and in trees where no round runs, the reading waits.)
        if roundsExpected.isSet {
            nameIndex.takeClockBodyNames(from: bytes)
            if !indexEveryTextEnum.isSet, RotationFollower.TextEnumFilter.mayAssignAnyCase(nameIndex) { indexEveryTextEnum.set() }
        }
        return prefilter ? .skip : .parseIrrelevant
    }
}

/// A flag any worker may raise and every worker may read.
final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func set() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }
}
