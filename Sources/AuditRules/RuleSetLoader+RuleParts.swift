import AuditModel
import AuditRotation
import Foundation
import SwiftGrammar
import Yams

/// The parts of a rule a rules file spells out: determinate forms, styles, patterns and their value
/// tables, the rotating-text vocabulary, the label-style rules, sizes and labels.
extension RuleSetLoader {
    /// `determinate: {arguments: [value], progress-like-argument: {calls: [Progress], names-containing:
    /// [progress], except-endings: [label]}}`.
    static func readDeterminate(_ node: Node, _ reader: YAMLReader) throws -> DeterminateForms {
        let parts = try reader.mapping(node, "determinate", allowed: ["arguments", "progress-like-argument"])
        var progressLike: ProgressLike?
        if let likeNode = parts["progress-like-argument"] {
            if likeNode.scalar != nil {
                guard try !reader.bool(likeNode, "progress-like-argument") else {
                    throw reader.error(likeNode, "progress-like-argument: true is no longer read: say what reads like a Progress, e.g. {calls: [Progress], names-containing: [progress], except-endings: [label, title, text]}")
                }
            } else {
                let like = try reader.mapping(likeNode, "progress-like-argument", allowed: ["calls", "names-containing", "except-endings"])
                progressLike = ProgressLike(
                    calls: Set(try like["calls"].map { try reader.stringList($0, "progress-like-argument calls") } ?? []),
                    namesContaining: try like["names-containing"].map { try reader.stringList($0, "progress-like-argument names-containing") } ?? [],
                    exceptEndings: try like["except-endings"].map { try reader.stringList($0, "progress-like-argument except-endings") } ?? [])
                guard !(progressLike!.calls.isEmpty && progressLike!.namesContaining.isEmpty) else {
                    throw reader.error(likeNode, "progress-like-argument needs 'calls' or 'names-containing': what reads like a Progress")
                }
            }
        }
        return DeterminateForms(arguments: Set(try parts["arguments"].map { try reader.stringList($0, "determinate arguments") } ?? []), progressLike: progressLike)
    }

    static func readStyle(_ node: Node, _ reader: YAMLReader) throws -> StyleCheck {
        let parts = try reader.mapping(node, "style", allowed: ["modifier", "spinner-styles", "spinning-style-names"])
        guard let modifierNode = parts["modifier"] else { throw reader.error(node, "style needs 'modifier'") }
        var spinning: NSRegularExpression?
        if let patternNode = parts["spinning-style-names"] {
            let pattern = try reader.nonEmptyString(patternNode, "spinning-style-names")
            do {
                spinning = try NSRegularExpression(pattern: pattern)
            } catch {
                throw reader.error(patternNode, "spinning-style-names is not a valid regular expression: \(pattern)")
            }
        }
        return StyleCheck(
            modifier: try reader.nonEmptyString(modifierNode, "style modifier"),
            spinnerStyles: Set(try parts["spinner-styles"].map { try reader.stringList($0, "spinner-styles") } ?? []),
            spinningStyleName: spinning
        )
    }

    /// A `pattern` rule's `match` (one Swift expression with metavariables) and `replace` (one that
    /// uses only the match's metavariables; without it, the fix is manual).
    static func readPattern(id: String, fix: FixClass, fields: [String: Node], node: Node, _ reader: YAMLReader) throws -> PatternRule {
        guard let matchNode = fields["match"] else { throw reader.error(node, "a pattern rule needs 'match'") }
        // The match and the replacement are both read before either's mistake is thrown.
        var problems: [RulesFileError] = []
        var pattern: SwiftPattern?
        do { pattern = try SwiftPattern(try reader.nonEmptyString(matchNode, "match")) } catch let problem as SwiftPattern.Problem {
            problems.append(patternError(problem, "match", matchNode, reader))
        } catch let error as RulesFileError { problems.append(error) }
        var rewrite: SwiftPattern?
        if let replaceNode = fields["replace"] {
            do { rewrite = try SwiftPattern(try reader.nonEmptyString(replaceNode, "replace")) } catch let problem as SwiftPattern.Problem {
                problems.append(patternError(problem, "replace", replaceNode, reader))
            } catch let error as RulesFileError { problems.append(error) }
        }
        if let error = RulesFileError.combining(problems) { throw error }
        // A match that does not parse is one of the problems just thrown.
        guard let pattern else { preconditionFailure("rule '\(id)': a match read without a pattern or a mistake") }
        guard !pattern.names.isEmpty else { throw reader.error(matchNode, "match must name something concrete, not only metavariables") }
        if let rewrite, let replaceNode = fields["replace"] {
            let unbound = pattern.unbound(in: rewrite)
            if !unbound.isEmpty { throw reader.error(replaceNode, "replace \(SwiftPattern.Problem.unknownMetavariables(unbound))") }
        }
        if fix != .manual, rewrite == nil {
            throw reader.error(fields["fix"], "rule '\(id)' has fix '\(fix.rawValue)' but no 'replace'; give one or use fix: manual")
        }
        let values = try fields["values"].map { try readValueTables($0, pattern: pattern, rewrite: rewrite, reader) } ?? [:]
        // `droppable-arguments`: metavariables of the match the replacement leaves out on purpose.
        var droppableArguments = Set<String>()
        if let droppableNode = fields["droppable-arguments"] {
            let dropped = Set(pattern.metavariables).subtracting(rewrite?.metavariables ?? [])
            for item in try reader.list(droppableNode, "droppable-arguments") {
                let name = String(try reader.nonEmptyString(item, "droppable-arguments").drop { $0 == "$" })
                guard dropped.contains(name) else {
                    throw reader.error(item, "droppable-arguments: '$\(name)' is not a metavariable of the match that the replacement leaves out")
                }
                droppableArguments.insert(name)
            }
        }
        let replacementModules = try readReplacementModules(fields, reader)
        if !replacementModules.isEmpty, rewrite == nil {
            throw reader.error(fields["replacement-module"], "replacement-module names what the replacement needs, but the rule has no 'replace'")
        }
        return PatternRule(pattern: pattern, rewrite: rewrite, values: values, droppableArguments: droppableArguments,
                           replacementModules: replacementModules, relations: try readRelations(fields, reader))
    }

    /// A pattern's mistake at its place in the file: where the code stops parsing, when the value is
    /// written as is on one line of the file (else at the value).
    static func patternError(_ problem: SwiftPattern.Problem, _ key: String, _ node: Node, _ reader: YAMLReader) -> RulesFileError {
        guard case .doesNotParse(let near, let offset, _) = problem, let mark = node.mark, let value = node.scalar?.string else {
            return reader.error(node, "\(key) \(problem)")
        }
        let bytes = Array(value.utf8)
        let at = min(max(0, offset), bytes.count)
        let lineStart = bytes[..<at].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let lineEnd = bytes[at...].firstIndex(of: 0x0A) ?? bytes.count
        let lineText = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        let before = String(decoding: bytes[lineStart..<at], as: UTF8.self)
        var line = mark.line, column = mark.column
        if let place = reader.place(of: lineText.trimmingCharacters(in: .whitespaces).isEmpty ? before : lineText, from: mark.line, column: mark.column) {
            (line, column) = (place.line, place.column + before.unicodeScalars.count)
        }
        return RulesFileError(file: reader.file, line: line, column: column, problem: "\(key) \(problem.withoutNear)", near: near)
    }

    /// `values: {EDGES: {".all": "", ".top": "edges: .top"}}`: per metavariable of the match (used in
    /// the replacement), the code each value becomes. A key that is a number (`20`) matches any literal
    /// of that number; a range (`..<0.8`, `0.8..<1.5`, `1.5...`) any number in it; `nearest: {16: .small,
    /// 24: .medium}` maps any number literal to the nearest number's code. A code may use the match's
    /// metavariables (`$TITLE`). A key given twice is an error.
    static func readValueTables(_ node: Node, pattern: SwiftPattern, rewrite: SwiftPattern?, _ reader: YAMLReader) throws -> [String: ValueTable] {
        guard let mapping = node.mapping else { throw reader.error(node, "values must map metavariables to tables of values") }
        var tables: [String: ValueTable] = [:]
        let known = pattern.metavariables
        func code(_ node: Node, of name: Substring) throws -> String {
            let text = try reader.string(node, "a value's new code")
            if let unknown = ValueTable.metavariables(in: text).first(where: { !known.contains($0) }) {
                throw reader.error(node, "values: the code '\(text)' in the table of '$\(name)' uses $\(unknown), which the match does not bind")
            }
            return text
        }
        for (key, tableNode) in mapping {
            let name = try reader.nonEmptyString(key, "a values key").drop { $0 == "$" }
            guard pattern.metavariables.contains(String(name)) else {
                throw reader.error(key, "values: '$\(name)' is not a metavariable of the match")
            }
            guard rewrite?.metavariables.contains(String(name)) == true else {
                throw reader.error(key, "values: the replacement does not use '$\(name)'")
            }
            guard let entries = tableNode.mapping else { throw reader.error(tableNode, "values: '$\(name)' must map values to their new code") }
            var exact: [String: String] = [:]
            var numbers: [(number: Double, code: String)] = []
            var ranges: [(range: NumberRange, code: String)] = []
            var nearest: [(number: Double, code: String)] = []
            for (valueNode, codeNode) in entries {
                let value = try reader.string(valueNode, "a value").trimmingCharacters(in: .whitespaces)
                if value == "nearest", let table = codeNode.mapping {
                    guard nearest.isEmpty else { throw reader.error(valueNode, "values: '$\(name)' has two 'nearest' tables") }
                    for (numberNode, numberCode) in table {
                        let text = try reader.string(numberNode, "a number")
                        guard let number = ValueTable.number(text.trimmingCharacters(in: .whitespaces)) else {
                            throw reader.error(numberNode, "values: '\(text)' in the 'nearest' table of '$\(name)' is not a number")
                        }
                        guard !nearest.contains(where: { $0.number == number }) else {
                            throw reader.error(numberNode, "values: \(text) appears twice in the 'nearest' table of '$\(name)'")
                        }
                        nearest.append((number, try code(numberCode, of: name)))
                    }
                    guard !nearest.isEmpty else { throw reader.error(codeNode, "values: the 'nearest' table of '$\(name)' is empty") }
                    continue
                }
                if let number = ValueTable.number(value) {
                    guard !numbers.contains(where: { $0.number == number }) else {
                        throw reader.error(valueNode, "values: the number \(value) appears twice in the table of '$\(name)'")
                    }
                    numbers.append((number, try code(codeNode, of: name)))
                    continue
                }
                // A range of numbers (`..<0.8`, `1.5...`); `0..<count` is code, matched as written.
                if value.contains("...") || value.contains("..<"), value.allSatisfy({ $0.isNumber || "._-<eE ".contains($0) }) {
                    guard let range = NumberRange(value) else {
                        throw reader.error(valueNode, "values: '\(value)' in the table of '$\(name)' is not a range of numbers (write 0.5..<1, 1...2, 2..., ..<0.5)")
                    }
                    guard !range.isEmpty else { throw reader.error(valueNode, "values: the range \(value) in the table of '$\(name)' holds no number") }
                    ranges.append((range, try code(codeNode, of: name)))
                    continue
                }
                guard exact[value] == nil else { throw reader.error(valueNode, "values: '\(value)' appears twice in the table of '$\(name)'") }
                exact[value] = try code(codeNode, of: name)
            }
            tables[String(name)] = ValueTable(exact: exact, numbers: numbers, ranges: ranges, nearest: nearest)
        }
        return tables
    }

    static let clockKeys: Set<String> = ["closures", "targets", "waits", "publishers", "receivers", "time-driven-views", "sequences"]

    /// A rotating-text rule's names: `display-calls`, `clocks` (each part a list of names, or a mapping
    /// of names to how a message calls them) and `random-picks`. Every name is a plain Swift name
    /// (a publisher: `Type.name`); the rule must name its display calls and at least one clock.
    static func readRotationVocabulary(_ fields: [String: Node], node: Node, _ reader: YAMLReader) throws -> RotationVocabulary {
        var vocabulary = RotationVocabulary()
        guard let displayNode = fields["display-calls"] else {
            throw reader.error(node, "a rotating-text rule needs 'display-calls': the calls that show text (Text, Label)")
        }
        vocabulary.displayCalls = Set(try names(displayNode, "display-calls", reader).keys)
        vocabulary.displayProperties = Set(try fields["display-properties"].map { try names($0, "display-properties", reader).keys } ?? [:].keys)
        vocabulary.displaySetters = Set(try fields["display-setters"].map { try names($0, "display-setters", reader).keys } ?? [:].keys)
        vocabulary.observableState = Set(try fields["observable-state"].map { try names($0, "observable-state", reader).keys } ?? [:].keys)
        guard let clocksNode = fields["clocks"] else {
            throw reader.error(node, "a rotating-text rule needs 'clocks': the calls that make code run over time (see rules/README.md)")
        }
        let clocks = try reader.mapping(clocksNode, "clocks", allowed: clockKeys)
        vocabulary.closureClocks = try clocks["closures"].map { try names($0, "clocks.closures", reader) } ?? [:]
        vocabulary.targetClocks = try clocks["targets"].map { try names($0, "clocks.targets", reader) } ?? [:]
        vocabulary.waitClocks = try clocks["waits"].map { try names($0, "clocks.waits", reader) } ?? [:]
        vocabulary.publishers = try clocks["publishers"].map { try names($0, "clocks.publishers", reader, dotted: true) } ?? [:]
        vocabulary.receivers = Set(try clocks["receivers"].map { try names($0, "clocks.receivers", reader).keys } ?? [:].keys)
        vocabulary.timeDrivenViews = try clocks["time-driven-views"].map { try names($0, "clocks.time-driven-views", reader) } ?? [:]
        vocabulary.sequences = try clocks["sequences"].map { try names($0, "clocks.sequences", reader) } ?? [:]
        guard !vocabulary.clockCalls.isEmpty else { throw reader.error(clocksNode, "clocks names no call (closures, targets, waits, receivers, time-driven-views or sequences)") }
        if vocabulary.receivers.isEmpty != vocabulary.publishers.isEmpty {
            throw reader.error(clocksNode, "clocks: 'receivers' and 'publishers' go together (a receiver runs its closures at each tick of a publisher)")
        }
        vocabulary.randomPicks = Set(try fields["random-picks"].map { try names($0, "random-picks", reader).keys } ?? [:].keys)
        return vocabulary
    }

    /// A list of names, or a mapping of names to how messages call them (a list: each its own name).
    static func names(_ node: Node, _ what: String, _ reader: YAMLReader, dotted: Bool = false) throws -> [String: String] {
        var table: [String: String] = [:]
        var entries: [(Node, String?)] = []
        if let mapping = node.mapping {
            for (key, value) in mapping { entries.append((key, try reader.nonEmptyString(value, "how a message names \(key.scalar?.string ?? "it")"))) }
        } else {
            for item in try reader.list(node, what) { entries.append((item, nil)) }
        }
        for (nameNode, description) in entries {
            let name = try reader.nonEmptyString(nameNode, "a name in \(what)")
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= (dotted ? 2 : 1), parts.allSatisfy({ SwiftWords.isAllNameBytes($0.utf8) }) else {
                throw reader.error(nameNode, "\(what): '\(name)' is not a Swift name\(dotted ? " (or Type.name)" : "")")
            }
            guard table[name] == nil else { throw reader.error(nameNode, "\(what): '\(name)' appears twice") }
            table[name] = description ?? name
        }
        guard !table.isEmpty else { throw reader.error(node, "\(what) is empty") }
        return table
    }

    /// The keys a rule of `kind` takes.
    static func keys(of kind: RuleKind) -> Set<String> {
        let common: Set<String> = ["id", "kind", "severity", "message", "help", "help-uri", "fix", "enabled", "examples", "module"]
        let relations = Set(SwiftRelation.Kind.allCases.map(\.rawValue))
        switch kind {
        case .component:
            return common.union(["component", "replacement", "replacement-module", "size", "label", "droppable-arguments", "absorb-modifiers", "determinate", "style"]).union(relations)
        case .rotatingText: return common.union(["display-calls", "display-properties", "display-setters", "observable-state", "clocks", "random-picks"])
        case .labelStyle: return common.union(["components", "label-arguments", "allowed-labels", "label-pattern", "determinate", "label-closures", "mismatch-reason"])
        case .pattern: return common.union(["match", "replace", "values", "droppable-arguments", "replacement-module"]).union(relations)
        }
    }

    /// A key of another kind is a mistake, not something to pass over: `match:` on a rule without
    /// `kind: pattern` would otherwise be a component rule that never asks for it.
    static func refuseOtherKindsKeys(_ kind: RuleKind, fields: [String: Node], _ reader: YAMLReader) throws {
        let allowed = keys(of: kind)
        guard let extra = fields.keys.sorted().first(where: { !allowed.contains($0) }) else { return }
        let owners = RuleKind.allCases.filter { $0 != kind && keys(of: $0).contains(extra) }.map { "kind: \($0.rawValue)" }
        let hint = kind == .component && !owners.isEmpty && fields["kind"] == nil ? "; it is a key of \(owners.joined(separator: " or ")) rules" : ""
        throw reader.error(fields[extra], "'\(extra)' does not apply to a \(kind.rawValue) rule\(hint) (keys: \(allowed.sorted().joined(separator: ", ")))")
    }

    /// `pattern`, `rotating-text` and `label-style` rules, each compiled into its case of `RuleMatcher`
    /// (`readRule` has refused other kinds' keys); a rotating-text or label-style rule has no rewrite
    /// (fix is always manual).
    static func readSemanticRule(_ kind: RuleKind, id: String, fields: [String: Node], node: Node, _ reader: YAMLReader) throws -> Rule {
        guard let messageNode = fields["message"] else { throw reader.error(node, "a rule needs 'message'") }
        let fix = try fields["fix"].map { try reader.enumValue($0, "fix", as: FixClass.self) } ?? .manual
        if kind != .pattern, fix != .manual, let fixNode = fields["fix"] {
            throw reader.error(fixNode, "a \(kind.rawValue) rule has no automatic rewrite: its fix is manual")
        }
        let module = try readModule(fields, reader)
        let severity = try fields["severity"].map { try reader.enumValue($0, "severity", as: Severity.self) } ?? .warning
        let message = try reader.nonEmptyString(messageNode, "message")
        let help = try fields["help"].map { try reader.string($0, "help") }
        let helpURI = try fields["help-uri"].map { try reader.nonEmptyString($0, "help-uri") }
        let examples = try fields["examples"].map { try readExamples($0, reader) } ?? RuleExamples()
        let matcher: RuleMatcher
        switch kind {
        case .pattern:
            matcher = .pattern(try readPattern(id: id, fix: fix, fields: fields, node: node, reader))
        case .rotatingText:
            matcher = .rotatingText(try readRotationVocabulary(fields, node: node, reader))
        case .labelStyle:
            matcher = .labelStyle(try readLabelStyle(fields, node: node, reader))
        case .component:
            preconditionFailure("a component rule is read by readRule")
        }
        return Rule(id: id, matcher: matcher, module: module, severity: severity, message: message, help: help, fix: fix,
                    origin: "\(reader.file):\(node.mark?.line ?? 0)", helpURI: helpURI, examples: examples)
    }

    /// A `label-style` rule's components, where their label is, what it may read, and the calls that
    /// show real progress (no label to check).
    static func readLabelStyle(_ fields: [String: Node], node: Node, _ reader: YAMLReader) throws -> LabelStyle {
        guard let componentsNode = fields["components"] else { throw reader.error(node, "a label-style rule needs 'components'") }
        var pattern: NSRegularExpression?
        if let patternNode = fields["label-pattern"] {
            let text = try reader.nonEmptyString(patternNode, "label-pattern")
            do { pattern = try NSRegularExpression(pattern: text) } catch {
                throw reader.error(patternNode, "label-pattern is not a valid regular expression: \(text)")
            }
        }
        // Read in the order the mistakes are looked for: a rule's first mistake is the one reported.
        let components = Set(try reader.stringList(componentsNode, "components"))
        let labelArguments = try fields["label-arguments"].map { try reader.stringList($0, "label-arguments") } ?? ["label", "_"]
        let allowedLabels = Set(try fields["allowed-labels"].map { try reader.stringList($0, "allowed-labels") } ?? [])
        let determinate = try fields["determinate"].map { try readDeterminate($0, reader) }
        return LabelStyle(
            components: components, labelArguments: labelArguments, allowedLabels: allowedLabels, pattern: pattern,
            labelClosures: Set(try fields["label-closures"].map { try reader.stringList($0, "label-closures") } ?? []),
            mismatchReason: try fields["mismatch-reason"].map { try reader.nonEmptyString($0, "mismatch-reason") },
            determinate: determinate)
    }

    static let contextKeys: Set<String> = Set(["size", "why", "examples", "label-of", "beside", "within"] + SwiftRelation.Kind.allCases.map(\.rawValue))

    static func readSize(_ node: Node, _ reader: YAMLReader) throws -> SizeSource {
        if let key = node.mapping?.keys.first(where: { $0.scalar?.string == "modifiers" }) {
            throw reader.error(key, "size: 'modifiers' is no longer read: name the size modifiers, e.g. 'control-size-modifier: controlSize' and 'scale-modifier: scaleEffect' with 'scale-points: 20'")
        }
        let parts = try reader.mapping(node, "size", allowed: ["argument", "default", "context", "control-size-modifier", "scale-modifier", "scale-points"])
        guard let defaultNode = parts["default"] else { throw reader.error(node, "size needs a 'default' size name") }
        var context: [SizeByContext] = []
        if let contextNode = parts["context"] {
            for entry in try reader.list(contextNode, "size context") {
                context.append(try readSizeContext(entry, reader))
            }
        }
        var source = SizeSource(
            arguments: try parts["argument"].map { node in
                try reader.stringList(node, "size argument").map { name in
                    guard !name.isEmpty else { throw reader.error(node, "size argument: a label may not be empty") }
                    return name
                }
            } ?? [],
            controlSizeModifier: try parts["control-size-modifier"].map { try reader.nonEmptyString($0, "control-size-modifier") },
            scaleModifier: try parts["scale-modifier"].map { try reader.nonEmptyString($0, "scale-modifier") },
            scalePoints: try parts["scale-points"].map { try reader.number($0, "scale-points") },
            defaultSize: try reader.nonEmptyString(defaultNode, "size default")
        )
        if source.scaleModifier != nil, source.scalePoints == nil {
            throw reader.error(parts["scale-modifier"], "scale-modifier needs 'scale-points': the diameter the factor multiplies (a ProgressView is 20 pt)")
        }
        if let points = source.scalePoints, points <= 0 { throw reader.error(parts["scale-points"], "scale-points must be more than 0") }
        source.context = context
        return source
    }

    /// One place that decides a size: `{size: small, why: ..., inside: ..., examples: ...}`. The older
    /// spelling `{label-of: [Button]}` is `inside: {pattern: [Button], stop-by: end}`, and `{beside: [Text],
    /// within: [HStack]}` is `inside: {pattern: [HStack], has: [Text]}`.
    static func readSizeContext(_ entry: Node, _ reader: YAMLReader) throws -> SizeByContext {
        let fields = try reader.mapping(entry, "a size context", allowed: contextKeys)
        guard let sizeNode = fields["size"] else { throw reader.error(entry, "a size context needs 'size'") }
        var relations = try readRelations(fields, reader)
        let labelOf = try fields["label-of"].map { try reader.stringList($0, "label-of") } ?? []
        let beside = try fields["beside"].map { try reader.stringList($0, "beside") } ?? []
        let within = try fields["within"].map { try reader.stringList($0, "within") } ?? []
        func names(_ list: [String], _ what: String) throws -> [SwiftPattern] {
            try list.map { name in
                guard isTypeName(name), let pattern = try? SwiftPattern(name) else { throw reader.error(fields[what], "\(what): '\(name)' is not a Swift name") }
                return pattern
            }
        }
        if !labelOf.isEmpty {
            relations.append(SwiftRelation(kind: .inside, targets: try names(labelOf, "label-of"), reach: .end))
        }
        if beside.isEmpty != within.isEmpty {
            throw reader.error(entry, "'beside' needs 'within' (the stack the two calls share), and the other way round")
        }
        if !within.isEmpty {
            relations.append(SwiftRelation(kind: .inside, targets: try names(within, "within"), reach: .closure,
                                           nested: [SwiftRelation(kind: .has, targets: try names(beside, "beside"))]))
        }
        guard !relations.isEmpty else {
            throw reader.error(entry, "a size context says where it applies: inside, not-inside, has or not-has (e.g. inside: {pattern: Button, stop-by: end})")
        }
        var place = SizeByContext(relations: relations, size: try reader.nonEmptyString(sizeNode, "size"),
                                  why: try fields["why"].map { try reader.nonEmptyString($0, "why") } ?? "")
        place.origin = "\(reader.file):\(entry.mark?.line ?? 0)"
        if let examplesNode = fields["examples"] { place.examples = try readExamples(examplesNode, reader) }
        return place
    }

    /// `label: {arguments: [_, label], closures: [Text], default: '"Loading"', text-calls: [...], text-prefixes: [...]}`.
    static func readLabel(_ node: Node, _ reader: YAMLReader) throws -> LabelSource {
        let parts = try reader.mapping(node, "label", allowed: ["arguments", "closures", "default", "text-calls", "text-prefixes"])
        if let closures = parts["closures"], closures.scalar != nil, (try? reader.bool(closures, "label closures")) == true {
            throw reader.error(closures, "label closures: true is no longer read: name the views whose string is the label, e.g. closures: [Text]")
        }
        var textCalls: [TextCall] = []
        if let callsNode = parts["text-calls"] {
            for item in try reader.list(callsNode, "text-calls") {
                let text = try reader.nonEmptyString(item, "a text call")
                guard let call = TextCall(text) else { throw reader.error(item, "text-calls: '\(text)' is not a call's name (NSLocalizedString) or a name and a label (String(localized:))") }
                textCalls.append(call)
            }
        }
        return LabelSource(
            arguments: try parts["arguments"].map { try reader.stringList($0, "label arguments") } ?? [],
            closureViews: Set(try parts["closures"].map { try reader.stringList($0, "label closures") } ?? []),
            defaultLabel: try parts["default"].map { try reader.nonEmptyString($0, "label default") },
            textCalls: textCalls,
            textPrefixes: try parts["text-prefixes"].map { try reader.stringList($0, "text-prefixes") } ?? []
        )
    }
}
