import AuditModel
import AuditRotation
import Foundation
import SwiftGrammar

/// The name of a rule's kind (`kind:` in a rules file); `Rule.matcher`'s case carries the kind's settings.
public enum RuleKind: String, CaseIterable, Sendable {
    /// Uses of one deprecated component (the default).
    case component
    /// Text that changes over time: string arrays shown by index or at random, driven by a clock,
    /// matched across the members of types in all files.
    case rotatingText = "rotating-text"
    /// Labels passed to loading components that are not one static label of the allowed form.
    case labelStyle = "label-style"
    /// Code of a given shape, with metavariables (`$VIEW.foregroundColor($COLOR)`), and what
    /// replaces it (`$VIEW.foregroundStyle($COLOR)`).
    case pattern
}

/// Code a rule must get right, kept with the rule in its file and run by `loadaudit rules test` (and,
/// for the built-in rules, by the test suite).
public struct RuleExamples: Sendable {
    /// Code with a finding of the rule starting at each `↓` (the marker is taken out before the run).
    public var matching: [String] = []
    /// Code in which the rule finds nothing.
    public var notMatching: [String] = []
    /// Code before and after `fix --unsafe` (all of this rule's fixes applied, until nothing changes),
    /// and, when the example says it, the fix class of every finding of the rule in `before`. `after`
    /// is compared without the `import`s the fix adds (`replacement-module:`); `imports`, when the
    /// example says it, are exactly the modules the fix must add.
    public var fixes: [(before: String, after: String, fixClass: FixClass?, imports: [String]?)] = []

    public init() {}

    public var isEmpty: Bool { matching.isEmpty && notMatching.isEmpty && fixes.isEmpty }

    /// Where a finding must start.
    public static let marker = "↓"
}

/// A validated rule, ready for the engine: what every rule has (its id, wording, severity, fix class,
/// place in its file, examples) and what it matches, one case per kind with that kind's settings, so
/// no setting of one kind is reachable from a rule of another. `RuleSetLoader` compiles each rule of a
/// rules file into its case; `RuleEngine` dispatches on the case.
public struct Rule: Sendable {
    public let id: String
    /// What the rule matches, with the settings of its kind.
    public let matcher: RuleMatcher
    /// The module that declares the deprecated API (`module:`, e.g. SwiftUI, or a module of the
    /// project): a use counts only where that module is seen, and never in the module's own files.
    public let module: String?
    public internal(set) var severity: Severity
    public let message: String
    public let help: String?
    /// Always `manual` for `rotating-text` and `label-style` rules (the loader refuses another).
    public let fix: FixClass
    /// Where the rule was defined: `file:line`.
    public let origin: String
    /// The file it was defined in, and where its `id:` value is there (for a rule read from a file).
    public internal(set) var originFile: String? = nil
    public internal(set) var idPlace: RulePlace? = nil
    /// A page that explains the rule, for reports that link to help (SARIF `helpUri`).
    public var helpURI: String? = nil
    public let examples: RuleExamples

    /// The kind's name, as rules files and `rules explain` write it.
    public var kind: RuleKind { matcher.kind }

    /// How specific the rule is, for `RuleEngine`'s one finding per node: its conditions on the context
    /// (relations, nested ones included), then how much code its match names. Nil for the kinds whose
    /// findings say something else about the code (its label, its text over time): always kept.
    public var specificity: (conditions: Int, tokens: Int)? {
        switch matcher {
        case .component(let component): (component.relations.reduce(0) { $0 + $1.conditionCount }, 1)
        case .pattern(let pattern): (pattern.relations.reduce(0) { $0 + $1.conditionCount }, pattern.pattern.concreteTokenCount)
        case .rotatingText, .labelStyle: nil
        }
    }

    func with(severity: Severity) -> Rule {
        var copy = self
        copy.severity = severity
        return copy
    }
}

/// What a rule matches: one case per kind, each with exactly that kind's settings.
public enum RuleMatcher: Sendable {
    /// Uses of one deprecated component.
    case component(ComponentRule)
    /// Text chosen among fixed messages by time: the calls that show text, make code run over time,
    /// pick at random.
    case rotatingText(RotationVocabulary)
    /// Labels of loading components that are not one static label of the allowed form.
    case labelStyle(LabelStyle)
    /// Code of a given shape, and what replaces it.
    case pattern(PatternRule)

    public var kind: RuleKind {
        switch self {
        case .component: .component
        case .rotatingText: .rotatingText
        case .labelStyle: .labelStyle
        case .pattern: .pattern
        }
    }
}

/// The settings of a `component` rule: the deprecated type, how a use of it is read (size, label,
/// determinate forms, style, modifiers it takes in) and what replaces it.
public struct ComponentRule: Sendable {
    /// The deprecated type's name (`component:`).
    public let name: String
    public let replacement: ReplacementTemplate?
    /// The modules the replacement needs (`replacement-module:`): a fix adds `import` for each one
    /// the file does not see.
    public let replacementModules: [String]
    public let size: SizeSource?
    public let label: LabelSource?
    /// Argument labels the replacement may leave out.
    public let droppableArguments: Set<String>
    public let absorbModifiers: [String]
    public let determinate: DeterminateForms?
    public let style: StyleCheck?
    /// Where a use must sit, or what it must hold (`inside`, `not-inside`, `has`, `not-has`): all must hold.
    public let relations: [SwiftRelation]
}

/// The settings of a `pattern` rule: the code to find, and what replaces it (nil: no automatic rewrite).
public struct PatternRule: Sendable {
    public let pattern: SwiftPattern
    public let rewrite: SwiftPattern?
    /// For a metavariable, the code each value of it becomes in the replacement (`.all` -> nothing,
    /// `20` -> `.small`). A value not in its table makes the finding manual.
    public let values: [String: ValueTable]
    /// Metavariables of the match the replacement leaves out on purpose.
    public let droppableArguments: Set<String>
    /// The modules the replacement needs (`replacement-module:`).
    public let replacementModules: [String]
    /// Where a match must sit, or what it must hold (`inside`, `not-inside`, `has`, `not-has`): all must hold.
    public let relations: [SwiftRelation]
}

/// The settings of a `label-style` rule.
public struct LabelStyle: @unchecked Sendable {
    public let components: Set<String>
    public let labelArguments: [String]
    public let allowedLabels: Set<String>
    public let pattern: NSRegularExpression?
    /// The views whose one string is the label when a label closure holds one (`Text`).
    public let labelClosures: Set<String>
    /// What a label that fails says, after the label: `does not read "Loading [noun]..."`.
    public let mismatchReason: String?
    /// Calls that show real progress, which have no loading label to check.
    public let determinate: DeterminateForms?
}

/// A line and column (1-based; columns count Unicode scalars) in a rules file.
public struct RulePlace: Sendable, Equatable {
    public let line: Int
    public let column: Int
}

/// What one rules file calls its migration and its findings, for the words of reports.
public struct MigrationNames: Equatable, Sendable {
    /// `title:`, else `name:`: "Loading UI migration", "payments-ds-migration".
    public var title: String?
    /// `findings-name:`, what its findings are, in the plural: "deprecated loading indicators".
    public var findingsName: String?

    public init(title: String? = nil, findingsName: String? = nil) {
        self.title = title
        self.findingsName = findingsName
    }
}
