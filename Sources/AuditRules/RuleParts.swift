import AuditModel
import Foundation
import SwiftGrammar

// The parts a rule is made of, as its rules file says them: where a size and a label come from, what
// counts as determinate progress, the spinning styles, the sizes table, value tables and number ranges.

/// Where a rule's `{size}` comes from: a numeric argument mapped to the nearest point size, the size
/// modifiers chained on the call, the place of the call, or a default.
public struct SizeSource: Sendable {
    /// The labels of the numeric size argument, in points (`size:`, `diameter:`): the first one the call has.
    public var arguments: [String]
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

    public init(arguments: [String] = [], controlSizeModifier: String? = nil, scaleModifier: String? = nil, scalePoints: Double? = nil,
                defaultSize: String, context: [SizeByContext] = []) {
        self.arguments = arguments
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
