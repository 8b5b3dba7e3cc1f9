// AuditRotation: the rotating-text analysis, the second analysis of the house (the first is the
// engine's matching of rules on one tree, in AuditRules). It owns what a rotating-text rule names
// (`RotationVocabulary`, read from the rules file by AuditRules), the reading of one file's tree into
// its facts (`RotationReader` -> `RotationFacts`: clocks, the changes they make, displays, members of
// types), the names the clocks' files link by (`RotationLinks`, for the select step), and the join of
// every file's facts by module, type and member into findings (`RotationResolver`).
// It must not: know rules files, other rule kinds, how files are selected, read or reported; it is
// handed trees, vocabularies and the project model, and returns facts and findings.

import AuditModel
import TreeSitter

/// What the resolver takes of a rotating-text rule: its id, severity and message (AuditRules' `Rule`).
public protocol RotatingTextRule {
    var id: String { get }
    var severity: Severity { get }
    var message: String { get }
}

/// The analysis's one door for the engine: made once from the rotating-text rules' vocabulary (one
/// engine serves every thread), it reads a file's tree into its facts and joins a project's facts in
/// a resolver. The reader behind it stays inside the module.
///
/// How to add an analysis like this one (a rule kind whose findings need more than one tree): a module
/// below AuditRules with a vocabulary (what the rules file names, compiled by `RuleSetLoader` into the
/// kind's `RuleMatcher` case), a per-file reading into plain `Codable` facts (carried by
/// `FileAnalysis`, so the result cache and `progress` keep them), and a resolver built from every
/// file's facts and the project model (held by `ProjectContext`), which returns `Finding`s; what the
/// select step must know is declared as names in `SelectionNeeds` (docs/architecture.md).
public struct RotationAnalysis: Sendable {
    /// The rotating-text rules' names, merged.
    public let vocabulary: RotationVocabulary
    /// The names the reader asks at every node, and the words of the code its walk goes into when it
    /// skips unmarked subtrees, made once.
    private let names: RotationReader.Names

    public init(_ vocabulary: RotationVocabulary) {
        self.vocabulary = vocabulary
        names = RotationReader.Names(vocabulary)
    }

    /// The rotation facts of one file's tree; with `skipsUnmarkedSubtrees`, only the subtrees that
    /// hold a clock's or a display's word are walked for clocks and displays (the same facts).
    public func read(_ tree: Tree, file: String, skipsUnmarkedSubtrees: Bool) -> RotationFacts {
        RotationReader.read(tree, file: file, vocabulary: vocabulary, names: names, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees)
    }

    /// Whether a tree of part of a file (`AnchorCut`'s pieces, parsed alone) may hold what makes the
    /// whole file an anchor (`RotationFacts.isAnchor`): never no where the whole file's facts say yes
    /// (checked by `AnchorCutTests` and `LOADAUDIT_CHECK_ANCHOR_CUT=1`).
    public func mayAnchor(_ tree: Tree, skipsUnmarkedSubtrees: Bool) -> Bool {
        RotationReader.mayAnchor(tree, vocabulary: vocabulary, names: names, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees)
    }
}
