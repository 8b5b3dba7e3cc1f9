import AuditModel
import Foundation
import SwiftGrammar

/// What a rule looks at.
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
    /// and, when the example says it, the fix class of every finding of the rule in `before`.
    public var fixes: [(before: String, after: String, fixClass: FixClass?)] = []

    public init() {}

    public var isEmpty: Bool { matching.isEmpty && notMatching.isEmpty && fixes.isEmpty }

    /// Where a finding must start.
    public static let marker = "↓"
}

/// The settings of a `label-style` rule.
public struct LabelStyle: @unchecked Sendable {
    public var components: Set<String>
    public var labelArguments: [String]
    public var allowedLabels: Set<String>
    public var pattern: NSRegularExpression?
    /// The views whose one string is the label when a label closure holds one (`Text`).
    public var labelClosures: Set<String> = []
    /// What a label that fails says, after the label: `does not read "Loading [noun]..."`.
    public var mismatchReason: String? = nil
}

/// A validated rule, ready for the engine.
/// A line and column (1-based; columns count Unicode scalars) in a rules file.
public struct RulePlace: Sendable, Equatable {
    public let line: Int
    public let column: Int
}

public struct Rule: Sendable {
    public let id: String
    public var kind: RuleKind = .component
    /// The deprecated type name (for `component` rules).
    public let component: String
    /// The module that declares the deprecated API (`module:`, e.g. SwiftUI, or a module of the
    /// project): a use counts only where that module is seen, and never in the module's own files.
    public let module: String?
    /// The modules the replacement needs (`replacement-module:`): a fix adds `import` for each one
    /// the file does not see.
    public var replacementModules: [String] = []
    public internal(set) var severity: Severity
    public let message: String
    public let help: String?
    public let replacement: ReplacementTemplate?
    public let fix: FixClass
    public let size: SizeSource?
    public let label: LabelSource?
    public var droppableArguments: Set<String>
    public let absorbModifiers: [String]
    public internal(set) var determinate: DeterminateForms?
    public let style: StyleCheck?
    /// Where the rule was defined: `file:line`.
    public let origin: String
    /// The file it was defined in, and where its `id:` value is there (for a rule read from a file).
    public internal(set) var originFile: String? = nil
    public internal(set) var idPlace: RulePlace? = nil
    /// A page that explains the rule, for reports that link to help (SARIF `helpUri`).
    public var helpURI: String? = nil

    /// For `rotating-text` rules: the calls that show text, make code run over time, pick at random.
    public var rotation: RotationVocabulary? = nil
    /// For `pattern` rules: the code to find, and what replaces it (nil: no automatic rewrite).
    public var pattern: SwiftPattern? = nil
    public var rewrite: SwiftPattern? = nil
    /// A pattern rule's value tables: for a metavariable, the code each value of it becomes in the
    /// replacement (`.all` -> nothing, `20` -> `.small`). A value not in its table makes the finding manual.
    public var values: [String: ValueTable] = [:]
    public var examples = RuleExamples()
    public var labelStyle: LabelStyle? = nil
    /// Where a finding of the rule must sit, or what it must hold (`inside`, `not-inside`, `has`,
    /// `not-has`): all must hold (`pattern` and `component` rules).
    public var relations: [SwiftRelation] = []

    /// How specific the rule is, for `RuleEngine`'s one finding per node: its conditions on the context
    /// (relations, nested ones included), then how much code its match names.
    public var specificity: (conditions: Int, tokens: Int) {
        (relations.reduce(0) { $0 + $1.conditionCount }, pattern?.concreteTokenCount ?? 1)
    }

    func withExamples(_ examples: RuleExamples?) -> Rule {
        var copy = self
        copy.examples = examples ?? RuleExamples()
        return copy
    }

    func with(severity: Severity) -> Rule {
        var copy = self
        copy.severity = severity
        return copy
    }
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
