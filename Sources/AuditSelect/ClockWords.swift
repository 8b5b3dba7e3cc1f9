import AuditRules

/// The rotating-text rules' clock names (`RotationVocabulary`), as the select step asks about them:
/// in a file's name index (does it mention a clock?), in the word screen (which words keep a file),
/// and in the closer reading of clock code (`ClockBodyNames`: which calls' code runs on a clock).
public struct ClockWords: Sendable {
    /// Calls whose whole call (arguments and trailing closures) is code that runs on a clock: the
    /// closure clocks, the receivers and the time-driven views (`WordHash.ofName`).
    let wholeCallHashes: [UInt64]
    /// Calls that wait: the outermost block around one runs on a clock.
    let waitHashes: [UInt64]
    /// Calls a mention of which makes a file a clock file on its own (all but the receivers).
    let callWords: WordSet
    /// A receiver makes a clock file only with a publisher in the same file.
    let receiverWords: WordSet
    let publisherWords: WordSet
    /// For the word screen: groups of words that must all appear for a file to be kept.
    let screenGroups: [[String]]

    public init(_ vocabulary: RotationVocabulary) {
        let alone = Set(vocabulary.closureClocks.keys).union(vocabulary.waitClocks.keys).union(vocabulary.timeDrivenViews.keys).sorted()
        wholeCallHashes = Set(vocabulary.closureClocks.keys).union(vocabulary.receivers).union(vocabulary.timeDrivenViews.keys)
            .sorted().map(WordHash.ofName)
        waitHashes = vocabulary.waitClocks.keys.sorted().map(WordHash.ofName)
        callWords = WordSet(alone)
        receiverWords = WordSet(vocabulary.receivers.sorted())
        publisherWords = WordSet(vocabulary.publishers.keys.sorted())
        screenGroups = alone.map { [$0] } + vocabulary.receivers.sorted().flatMap { receiver in
            vocabulary.publishers.keys.sorted().map { [receiver, $0] }
        }
    }

    /// No clock at all (no rotating-text rule runs).
    public static let none = ClockWords(RotationVocabulary())

    /// Whether a file whose names are `names` may hold code that runs on a clock (see `RotationFacts`):
    /// a receiver counts only with a publisher in the same file.
    func mentioned(by names: WordFilter) -> Bool {
        names.mayContainAny(callWords) || (names.mayContainAny(receiverWords) && names.mayContainAny(publisherWords))
    }
}
