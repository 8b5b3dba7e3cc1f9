import AuditModel
import Foundation
import SwiftGrammar
import Yams

/// Where a rule's `{size}` comes from: a numeric argument mapped to the nearest point size, the size
/// modifiers chained on the call, the place of the call, or a default.
public struct SizeSource: Sendable {
    public var argument: String?
    /// The modifier whose one argument names a control size (`controlSize`): `sizes.control-size` maps it.
    public var controlSizeModifier: String?
    /// The modifier that scales the view by one factor (`scaleEffect`): the size nearest to
    /// `scalePoints` × the factor.
    public var scaleModifier: String?
    /// The diameter the factor multiplies: the original view's own (a ProgressView is 20 pt).
    public var scalePoints: Double?
    public var defaultSize: String
    /// Sizes the place of the call decides when nothing in the call does (the spec: small "inline with
    /// text, buttons"), first match wins.
    public var context: [SizeByContext] = []

    public init(argument: String? = nil, controlSizeModifier: String? = nil, scaleModifier: String? = nil, scalePoints: Double? = nil,
                defaultSize: String, context: [SizeByContext] = []) {
        self.argument = argument
        self.controlSizeModifier = controlSizeModifier
        self.scaleModifier = scaleModifier
        self.scalePoints = scalePoints
        self.defaultSize = defaultSize
        self.context = context
    }

    /// The size modifiers' roles, by the modifier's name.
    var modifierRoles: [String: SizeModifierRole] {
        var roles: [String: SizeModifierRole] = [:]
        if let controlSizeModifier { roles[controlSizeModifier] = .controlSize }
        if let scaleModifier { roles[scaleModifier] = .scale }
        return roles
    }
}

enum SizeModifierRole {
    case controlSize
    case scale
}

/// A size for a call in a given place: where its relations hold (`inside: {pattern: Button, stop-by:
/// end}`: a button's label). `why` goes into the message; the examples are run by `rules test`.
public struct SizeByContext: Sendable {
    public var relations: [SwiftRelation]
    public var size: String
    public var why: String
    public var examples = RuleExamples()
    /// Where the context was defined: `file:line`.
    public var origin: String = ""

    public init(relations: [SwiftRelation], size: String, why: String) {
        self.relations = relations
        self.size = size
        self.why = why
    }

    /// The context in words: `small (in a button's label): inside Button (any ancestor)`.
    public var description: String {
        "\(size)\(why.isEmpty ? "" : " (\(why))"): " + relations.map(\.description).joined(separator: "; ")
    }
}

/// Where a rule's `{label}` comes from: labelled arguments (`_` is the first unlabelled one), a label
/// closure holding one call of `closureViews` (`Text("...")`), or a default.
public struct LabelSource: Equatable, Sendable {
    public var arguments: [String]
    /// The views whose one unlabelled argument is the label, when one of them is all a label closure holds.
    public var closureViews: Set<String>
    public var defaultLabel: String?
    /// Calls that make text (`NSLocalizedString`, or `String` with a `localized:` argument): an
    /// unlabelled argument made by one is a label, not a `Progress`.
    public var textCalls: [TextCall] = []
    /// Beginnings of names that hold text (`L10n.`): likewise.
    public var textPrefixes: [String] = []

    public init(arguments: [String], closureViews: Set<String>, defaultLabel: String?, textCalls: [TextCall] = [], textPrefixes: [String] = []) {
        self.arguments = arguments
        self.closureViews = closureViews
        self.defaultLabel = defaultLabel
        self.textCalls = textCalls
        self.textPrefixes = textPrefixes
    }
}

/// A call that makes text: `NSLocalizedString`, or `String(localized:)` (a name, and a labelled
/// argument the call must have).
public struct TextCall: Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var argument: String?

    /// `Name` or `Name(label:)`; nil for other text.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let open = trimmed.firstIndex(of: "(") {
            guard trimmed.hasSuffix(":)") else { return nil }
            name = String(trimmed[..<open])
            argument = String(trimmed[trimmed.index(after: open)..<trimmed.index(trimmed.endIndex, offsetBy: -2)])
            guard let argument, RuleSetLoader.isTypeName(argument) else { return nil }
        } else {
            name = trimmed
            argument = nil
        }
        guard RuleSetLoader.isTypeName(name) else { return nil }
    }

    public var description: String { argument.map { "\(name)(\($0):)" } ?? name }
}

/// Call forms that show real progress rather than a spinner, and so are not the deprecated thing.
public struct DeterminateForms: Equatable, Sendable {
    public var arguments: Set<String>
    /// One unlabelled argument that reads like a `Progress` (`task.progress`, `Progress(...)`); nil:
    /// no such argument is taken for progress.
    public var progressLike: ProgressLike?

    public init(arguments: Set<String>, progressLike: ProgressLike? = nil) {
        self.arguments = arguments
        self.progressLike = progressLike
    }
}

/// What reads like a `Progress` value: a call of one of `calls` (`Progress(totalUnitCount: 5)`), or a
/// name (its last part) holding one of `namesContaining` (`task.progress`, `uploadProgress`), case
/// aside, unless it ends with one of `exceptEndings` (`progressLabel` is text).
public struct ProgressLike: Equatable, Sendable {
    public var calls: Set<String>
    public var namesContaining: [String]
    public var exceptEndings: [String]

    public init(calls: Set<String>, namesContaining: [String], exceptEndings: [String]) {
        self.calls = calls
        self.namesContaining = namesContaining.map { $0.lowercased() }
        self.exceptEndings = exceptEndings.map { $0.lowercased() }
    }

    public var key: String { "\(calls.sorted())/\(namesContaining)/\(exceptEndings)" }
}

/// A style modifier whose value decides whether the call still is a plain spinner.
public struct StyleCheck: @unchecked Sendable {
    public var modifier: String
    public var spinnerStyles: Set<String>
    /// Custom styles whose name matches this draw a spinner even over determinate progress
    /// (`ProgressView(value: x).progressViewStyle(ThemedSpinnerStyle())`): a custom indicator.
    public var spinningStyleName: NSRegularExpression?

    public func isSpinning(_ styleName: String) -> Bool {
        guard let pattern = spinningStyleName else { return false }
        return pattern.firstMatch(in: styleName, range: NSRange(styleName.startIndex..., in: styleName)) != nil
    }
}

/// The point sizes of the replacement spinner and how SwiftUI size modifiers map onto them.
public struct SpinnerSizes: Equatable, Sendable {
    /// Named sizes in ascending order of points.
    public var points: [(name: String, points: Double)]
    public var controlSize: [String: String]

    public var names: Set<String> { Set(points.map(\.name)) }

    /// The named size nearest to `value` points; a tie goes to the smaller size.
    public func nearest(to value: Double) -> String? {
        points.min { abs($0.points - value) < abs($1.points - value) }?.name
    }

    public static func == (lhs: SpinnerSizes, rhs: SpinnerSizes) -> Bool {
        lhs.points.map(\.name) == rhs.points.map(\.name) && lhs.points.map(\.points) == rhs.points.map(\.points)
            && lhs.controlSize == rhs.controlSize
    }
}

/// A pattern rule's table for one metavariable: the code each value becomes in the replacement.
/// Looked up in this order: `exact`, by the value's code (whitespace trimmed; `""` is an empty `$$$`
/// list, so it gives the code for an argument left out); `numbers`, a number literal equal to the key
/// (`20` is `20.0` and `2_0`); `ranges`, the first (in the file's order) that holds the number
/// (`..<0.8`, `0.8..<1.5`, `1.5...`); `nearest`, the code of the nearest number (a tie goes to the
/// smaller, as the spinner sizes do). Anything else is not covered: a person decides. A code may use
/// the match's other metavariables (`$TITLE`), which are written as their code.
public struct ValueTable: Equatable, Sendable {
    public var exact: [String: String] = [:]
    /// Ascending by number.
    public var numbers: [(number: Double, code: String)] = []
    public var ranges: [(range: NumberRange, code: String)] = []
    /// Ascending by number.
    public var nearest: [(number: Double, code: String)] = []

    public init(exact: [String: String] = [:], numbers: [(number: Double, code: String)] = [], ranges: [(range: NumberRange, code: String)] = [],
                nearest: [(number: Double, code: String)] = []) {
        self.exact = exact
        self.numbers = numbers.sorted { $0.number < $1.number }
        self.ranges = ranges
        self.nearest = nearest.sorted { $0.number < $1.number }
    }

    /// The new code for a value's code, or nil when the table does not cover it.
    public func code(for value: String) -> String? {
        if let code = exact[value] { return code }
        guard let number = Self.number(value) else { return nil }
        if let entry = numbers.first(where: { $0.number == number }) { return entry.code }
        if let entry = ranges.first(where: { $0.range.contains(number) }) { return entry.code }
        return nearest.min { abs($0.number - number) < abs($1.number - number) }?.code
    }

    /// Every code of the table, for checking the metavariables they use.
    var codes: [String] { Array(exact.values) + numbers.map(\.code) + ranges.map(\.code) + nearest.map(\.code) }

    /// A Swift integer or floating-point literal, with `_` separators and a leading minus.
    static func number(_ code: String) -> Double? {
        guard let first = code.first, first.isNumber || first == "-" || first == "." else { return nil }
        let digits = code.replacingOccurrences(of: "_", with: "")
        guard digits.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" }) else { return nil }
        return Double(digits)
    }

    /// `$NAME` and `$$$NAME` in a value's code, written as the bound code of that metavariable (`$0`,
    /// a closure's parameter, is Swift, not a metavariable). `bound` gives a name's code, nil for a
    /// name the match does not bind (kept as written).
    static func substitute(_ code: String, _ bound: (String) -> String?) -> String {
        guard code.contains("$") else { return code }
        var output = ""
        var index = code.startIndex
        while index < code.endIndex {
            guard code[index] == "$" else {
                output.append(code[index])
                index = code.index(after: index)
                continue
            }
            var nameStart = index
            var dollars = 0
            while nameStart < code.endIndex, code[nameStart] == "$", dollars < 3 {
                nameStart = code.index(after: nameStart)
                dollars += 1
            }
            var nameEnd = nameStart
            while nameEnd < code.endIndex, code[nameEnd].isASCII, code[nameEnd].isUppercase || code[nameEnd].isNumber || code[nameEnd] == "_" {
                nameEnd = code.index(after: nameEnd)
            }
            let name = String(code[nameStart..<nameEnd])
            if dollars != 2, let first = name.first, first.isUppercase, let text = bound(name) {
                output += text
            } else {
                output += code[index..<nameEnd]
            }
            index = nameEnd
        }
        return output
    }

    /// The metavariable names a value's code uses (`$TITLE`, `$$$ARGS`).
    static func metavariables(in code: String) -> [String] {
        var names: [String] = []
        _ = substitute(code) { name in
            if !names.contains(name) { names.append(name) }
            return nil
        }
        return names
    }

    public static func == (lhs: ValueTable, rhs: ValueTable) -> Bool {
        lhs.exact == rhs.exact && lhs.numbers.map(\.number) == rhs.numbers.map(\.number) && lhs.numbers.map(\.code) == rhs.numbers.map(\.code)
            && lhs.ranges.map(\.range) == rhs.ranges.map(\.range) && lhs.ranges.map(\.code) == rhs.ranges.map(\.code)
            && lhs.nearest.map(\.number) == rhs.nearest.map(\.number) && lhs.nearest.map(\.code) == rhs.nearest.map(\.code)
    }
}

/// A range of numbers as Swift writes one: `0.8..<1.5`, `0.5...1`, `1.5...`, `..<0.8`, `...2`.
public struct NumberRange: Equatable, Sendable, CustomStringConvertible {
    public var lower: Double?
    public var upper: Double?
    /// `...` (true) or `..<` (false).
    public var includesUpper: Bool

    /// A range from its text, or nil when the text is not one.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let closed = trimmed.range(of: "...")
        let open = trimmed.range(of: "..<")
        guard let operation = open ?? closed else { return nil }
        includesUpper = open == nil
        let lowerText = String(trimmed[..<operation.lowerBound]), upperText = String(trimmed[operation.upperBound...])
        guard !(lowerText.isEmpty && upperText.isEmpty), !(upperText.isEmpty && !includesUpper) else { return nil }
        if lowerText.isEmpty { lower = nil } else {
            guard let value = ValueTable.number(lowerText) else { return nil }
            lower = value
        }
        if upperText.isEmpty { upper = nil } else {
            guard let value = ValueTable.number(upperText) else { return nil }
            upper = value
        }
    }

    /// Whether no number is in it (`1.5..<0.8`, `1..<1`).
    public var isEmpty: Bool {
        guard let lower, let upper else { return false }
        return includesUpper ? lower > upper : lower >= upper
    }

    public func contains(_ number: Double) -> Bool {
        if let lower, number < lower { return false }
        if let upper { return includesUpper ? number <= upper : number < upper }
        return true
    }

    public var description: String {
        func text(_ value: Double?) -> String { value.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int($0)) : String($0) } ?? "" }
        return text(lower) + (includesUpper ? "..." : "..<") + text(upper)
    }
}

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
    /// Code before and after `fix --unsafe` (all of this rule's fixes applied, until nothing changes).
    public var fixes: [(before: String, after: String)] = []

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

/// The rules of one or more rules files, validated and merged.
public struct RuleSet: Sendable {
    public private(set) var rules: [Rule]
    public private(set) var newComponents: Set<String>
    /// Kept components and why they stay.
    public private(set) var kept: [String: String]
    public private(set) var sizes: SpinnerSizes?
    /// Every rule id the loaded files define, including rules not selected to run and rules a file
    /// disables (`enabled: false`): for suppressions and baseline entries, which may name them.
    public private(set) var knownRuleIds: Set<String>
    /// The severity of `unused-suppression` findings; nil switches them off.
    public var unusedSuppressionSeverity: Severity? = .warning
    /// The names of each rules file merged, in order.
    public private(set) var names: [MigrationNames] = []

    /// The migration the rules are for, for titles: the files' titles, joined; nil when none has one.
    public var title: String? {
        var titles: [String] = []
        for title in names.compactMap(\.title) where !titles.contains(title) { titles.append(title) }
        return titles.isEmpty ? nil : titles.joined(separator: " and ")
    }

    /// What the findings are, when every file merged says the same ("deprecated loading indicators");
    /// else nil, and reports say "findings".
    public var findingsName: String? {
        guard let first = names.first?.findingsName, names.allSatisfy({ $0.findingsName == first }) else { return nil }
        return first
    }

    public init(
        rules: [Rule] = [], newComponents: Set<String> = [], kept: [String: String] = [:], sizes: SpinnerSizes? = nil, disabledRuleIds: Set<String> = [],
        names: MigrationNames? = nil
    ) {
        self.names = names.map { [$0] } ?? []
        knownRuleIds = Set(rules.map(\.id)).union(disabledRuleIds).union([UnusedSuppressionRule.id])
        self.rules = rules
        self.newComponents = newComponents
        self.kept = kept
        self.sizes = sizes
    }

    /// The built-in loading migration rules (the same text as rules/loading-migration.yml).
    public static func builtIn() -> RuleSet { loadedBuiltIn }

    /// The built-in rules files, by the name `--rules` takes: the loading migration (the default),
    /// SwiftUI's own deprecations, and the skeleton-first loading philosophy.
    public static let builtInNames = ["loading-migration", "swiftui-deprecations", "skeleton-first"]

    /// A built-in rules file by name (see `builtInNames`), nil for another name.
    public static func builtIn(named name: String) throws -> RuleSet? {
        switch name {
        case "loading-migration": return builtIn()
        case "swiftui-deprecations": return try RuleSetLoader.load(text: BuiltInRules.swiftuiDeprecations, file: "rules/swiftui-deprecations.yml")
        case "skeleton-first": return try RuleSetLoader.load(text: BuiltInRules.skeletonFirst, file: "rules/skeleton-first.yml")
        default: return nil
        }
    }

    /// Loaded once per process; the first to ask waits for the others.
    private static let loadedBuiltIn: RuleSet = {
        do {
            return try RuleSetLoader.load(text: BuiltInRules.loadingMigration, file: "rules/loading-migration.yml")
        } catch {
            preconditionFailure("the built-in rules do not load: \(error)")
        }
    }()

    /// Starts loading the built-in rules on another thread: a command that will need them can parse
    /// its arguments meanwhile (each takes a few milliseconds of every run's start).
    public static func prepareBuiltIn() {
        DispatchQueue.global(qos: .userInitiated).async { _ = loadedBuiltIn }
    }

    /// The rules of one rules file's text (`file` names it in errors); every mistake of the file is
    /// thrown together.
    public static func load(text: String, file: String) throws -> RuleSet {
        try RuleSetLoader.load(text: text, file: file)
    }

    /// The rules of a file's text that read well, and its mistakes: for reporting every mistake of
    /// several files at once (a rule id the next file defines again is still found).
    public static func read(text: String, file: String) -> (RuleSet, [RulesFileError]) {
        RuleSetLoader.read(text: text, file: file)
    }

    /// Loads and merges rules files in order. A rule id defined twice is an error. Every file is read:
    /// the mistakes of all of them are thrown together.
    public static func load(files: [String]) throws -> RuleSet {
        let (merged, errors) = read(files: files)
        if let error = RulesFileError.combining(errors) { throw error }
        return merged
    }

    /// `load(files:)`, giving the rules read well and every mistake.
    public static func read(files: [String]) -> (RuleSet, [RulesFileError]) {
        var merged = RuleSet()
        var errors: [RulesFileError] = []
        for file in files {
            let text: String
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                guard let decoded = String(data: data, encoding: .utf8) else {
                    errors.append(RulesFileError(file: file, line: nil, problem: "the rules file is not UTF-8 text"))
                    continue
                }
                text = decoded
            } catch {
                errors.append(RulesFileError(file: file, line: nil, problem: "cannot read the rules file (\(Self.reason(error)))"))
                continue
            }
            let (ruleSet, mistakes) = read(text: text, file: file)
            errors += mistakes
            errors += merged.adding(ruleSet, from: file)
        }
        return (merged, errors)
    }

    /// Adds another file's rules; a rule id defined twice is an error (see `adding`).
    public mutating func merge(_ other: RuleSet, from file: String) throws {
        if let error = RulesFileError.combining(adding(other, from: file)) { throw error }
    }

    /// Adds another file's rules, and returns the mistakes: each rule id defined twice, at the second
    /// definition (in its own file; `file` names the other set when its rules do not say where they
    /// come from). The other rules are merged all the same.
    public mutating func adding(_ other: RuleSet, from file: String) -> [RulesFileError] {
        var errors: [RulesFileError] = []
        for rule in other.rules {
            if let existing = rules.first(where: { $0.id == rule.id }) {
                errors.append(RulesFileError(file: rule.originFile ?? file,
                                             line: rule.idPlace?.line ?? Int(rule.origin.split(separator: ":").last ?? ""),
                                             column: rule.idPlace?.column,
                                             problem: "rule id '\(rule.id)' is already defined at \(existing.origin)"))
                continue
            }
            rules.append(rule)
        }
        knownRuleIds.formUnion(other.knownRuleIds)
        names += other.names
        newComponents.formUnion(other.newComponents)
        kept.merge(other.kept) { first, _ in first }
        if let sizes = other.sizes { self.sizes = sizes }
        return errors
    }

    /// Whether a rule id is one the loaded files define but that does not run here: disabled in its
    /// file, switched off by the configuration, or not selected (`--rule`). Its baseline entries cannot
    /// be checked.
    public func isNotRunning(_ id: String) -> Bool {
        guard knownRuleIds.contains(id) else { return false }
        if id == UnusedSuppressionRule.id { return unusedSuppressionSeverity == nil }
        return !rules.contains { $0.id == id }
    }

    /// Only the named rules, or every rule when `ids` is empty.
    public func selecting(_ ids: [String]) throws -> RuleSet {
        guard !ids.isEmpty else { return self }
        let known = Set(rules.map(\.id)).union([UnusedSuppressionRule.id])
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw RulesFileError(file: "--rule", line: nil, problem: "unknown rule id '\(unknown)' (known: \(rules.map(\.id).joined(separator: ", ")))")
        }
        var copy = self
        copy.rules = rules.filter { ids.contains($0.id) }
        if !ids.contains(UnusedSuppressionRule.id) { copy.unusedSuppressionSeverity = nil }
        return copy
    }

    /// Per-rule switches from a configuration: nil switches a rule off, a severity re-levels it.
    /// `unused-suppression` can be re-levelled and switched off the same way.
    public mutating func apply(severities: [String: Severity?]) {
        for (id, severity) in severities {
            if id == UnusedSuppressionRule.id {
                unusedSuppressionSeverity = severity
                continue
            }
            guard let index = rules.firstIndex(where: { $0.id == id }) else { continue }
            if let severity { rules[index] = rules[index].with(severity: severity) } else { rules.remove(at: index) }
        }
    }

    private static func contextKey(_ context: [SizeByContext]) -> String {
        context.map { ($0.relations.map(\.key) + [$0.size, $0.why]).joined(separator: "/") }.joined(separator: ";")
    }

    private static func valuesKey(_ values: [String: ValueTable]) -> String {
        var parts: [String] = []
        for (name, table) in values.sorted(by: { $0.key < $1.key }) {
            let entries: [String] = table.exact.sorted(by: { $0.key < $1.key }).map { "\($0.key)>\($0.value)" }
            let numbers: [String] = table.numbers.map { "=\($0.number)>\($0.code)" }
            let ranges: [String] = table.ranges.map { "[\($0.range)]>\($0.code)" }
            let nearest: [String] = table.nearest.map { "~\($0.number)>\($0.code)" }
            parts.append(name + "=" + (entries + numbers + ranges + nearest).joined(separator: ","))
        }
        return parts.joined(separator: ";")
    }

    /// What a rule matches and how it rewrites, as text: not its severity, message or help. Two
    /// versions of a rule with the same key find the same code (the gate compares them).
    public func matchingKey(of rule: Rule) -> String {
        Self.key(of: rule, withWording: false)
    }

    private static func key(of rule: Rule, withWording: Bool) -> String {
        [
            rule.id, rule.kind.rawValue, rule.component, rule.module ?? "", withWording ? rule.severity.rawValue : "", withWording ? rule.message : "", rule.fix.rawValue,
            rule.replacement?.source ?? "",
            "\(rule.size.map { "\($0.argument ?? ""),\($0.controlSizeModifier ?? ""),\($0.scaleModifier ?? ""),\($0.scalePoints ?? 0),\($0.defaultSize),\(Self.contextKey($0.context))" } ?? "")",
            "\(rule.label.map { "\($0.arguments),\($0.closureViews.sorted()),\($0.defaultLabel ?? ""),\($0.textCalls.map(\.description)),\($0.textPrefixes)" } ?? "")",
            rule.droppableArguments.sorted().joined(separator: ","), rule.absorbModifiers.joined(separator: ","),
            rule.determinate.map { "\($0.arguments.sorted()),\($0.progressLike?.key ?? "")" } ?? "",
            rule.style.map { "\($0.modifier),\($0.spinnerStyles.sorted()),\($0.spinningStyleName?.pattern ?? "")" } ?? "",
            rule.rotation?.cacheKey ?? "",
            rule.labelStyle.map { "\($0.components.sorted()),\($0.labelArguments),\($0.allowedLabels.sorted()),\($0.pattern?.pattern ?? ""),\($0.labelClosures.sorted()),\($0.mismatchReason ?? "")" } ?? "",
            rule.pattern?.text ?? "", rule.rewrite?.text ?? "", rule.relations.map(\.key).joined(separator: ";"),
            Self.valuesKey(rule.values), rule.replacementModules.joined(separator: ","),
        ].joined(separator: "\u{1F}")
    }

    /// A text that changes whenever anything that affects a file's analysis changes: every rule's
    /// settings, the protected names, the sizes. Keys the result cache.
    public var cacheKey: String {
        var parts: [String] = []
        for rule in rules.sorted(by: { $0.id < $1.id }) {
            parts.append(Self.key(of: rule, withWording: true))
        }
        parts.append(protectedNames.sorted().joined(separator: ","))
        if let sizes {
            parts.append("\(sizes.points.map { "\($0.name)=\($0.points)" }),\(sizes.controlSize.sorted { $0.key < $1.key })")
        }
        parts.append(knownRuleIds.sorted().joined(separator: ","))
        parts.append(unusedSuppressionSeverity?.rawValue ?? "off")
        return parts.joined(separator: "\u{1E}")
    }

    /// Names that are never reported, nor anything inside their declarations.
    public var protectedNames: Set<String> { newComponents.union(kept.keys) }

    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoPermissionError { return "permission denied" }
        return nsError.localizedDescription
    }
}
