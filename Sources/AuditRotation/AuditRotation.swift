// AuditRotation: the rotating-text analysis, the second analysis of the house (the first is the
// engine's matching of rules on one tree, in AuditRules). It owns what a rotating-text rule names
// (`RotationVocabulary`, read from the rules file by AuditRules), the reading of one file's tree into
// its facts (`RotationReader` -> `RotationFacts`: clocks, the changes they make, displays, members of
// types), the names the clocks' files link by (`RotationLinks`, for the select step), and the join of
// every file's facts by module, type and member into findings (`RotationResolver`).
// It must not: know rules files, other rule kinds, how files are selected, read or reported; it is
// handed trees, vocabularies and the project model, and returns facts and findings.

import AuditModel

/// What the resolver takes of a rotating-text rule: its id, severity and message (AuditRules' `Rule`).
public protocol RotatingTextRule {
    var id: String { get }
    var severity: Severity { get }
    var message: String { get }
}
