import AuditModel
import Foundation
import SwiftGrammar
import Yams

/// Turns the text of a rules file into a validated `RuleSet`, or a located error. See rules/README.md.
enum RuleSetLoader {
    static let topLevelKeys: Set<String> = ["version", "name", "title", "findings-name", "new-components", "keep", "sizes", "rules", "help-base-uri"]
    static let ruleKeys: Set<String> = [
        "id", "component", "module", "severity", "message", "help", "replacement", "fix", "size", "label",
        "droppable-arguments", "absorb-modifiers", "determinate", "style", "enabled", "help-uri",
        "kind", "display-calls", "display-properties", "display-setters", "observable-state", "clocks", "random-picks", "components", "label-arguments", "allowed-labels", "label-pattern",
        "label-closures", "mismatch-reason",
        "match", "replace", "examples", "values", "replacement-module",
        "inside", "not-inside", "has", "not-has",
    ]

    /// The keys of a relation (`inside: {pattern: HStack, stop-by: closure, has: Text}`).
    static let relationKeys: Set<String> = Set(["pattern", "kind", "stop-by"] + SwiftRelation.Kind.allCases.map(\.rawValue))

    /// The rules of a file, or all its mistakes together (see `read`).
    static func load(text: String, file: String) throws -> RuleSet {
        let (ruleSet, errors) = read(text: text, file: file)
        if let error = RulesFileError.combining(errors) { throw error }
        return ruleSet
    }

    /// The rules read well and the mistakes, in the order of the file. Reads on after a mistake: every
    /// top-level part and every rule is read (a rule's first mistake is its only one, but a pattern
    /// rule's match and replace are each read), so that one run reports them all. A YAML syntax
    /// error stops the reading (libyaml cannot go on).
    static func read(text: String, file: String) -> (RuleSet, [RulesFileError]) {
        do {
            var errors: [RulesFileError] = []
            let ruleSet = try read(text: text, file: file, errors: &errors)
            let sorted = errors.enumerated().sorted {
                ($0.element.line ?? 0, $0.element.column ?? 0, $0.offset) < ($1.element.line ?? 0, $1.element.column ?? 0, $1.offset)
            }
            return (ruleSet, sorted.map(\.element))
        } catch let error as RulesFileError {
            return (RuleSet(), [error])
        } catch {
            return (RuleSet(), [RulesFileError(file: file, line: nil, problem: "\(error)")])
        }
    }

    private static func read(text: String, file: String, errors: inout [RulesFileError]) throws -> RuleSet {
        let reader = YAMLReader(file: file, text: text)
        let root = try reader.compose(text)
        var noted: [RulesFileError] = []
        defer { errors += noted }
        /// The value `read` gives, or nil with its mistake noted.
        func attempt<T>(_ read: () throws -> T) throws -> T? {
            do { return try read() } catch let error as RulesFileError {
                noted.append(error)
                return nil
            }
        }
        guard root.mapping != nil else { throw reader.error(root, "the rules file must be a mapping (key: value lines)") }
        let top = try reader.knownKeys(root, "the rules file", allowed: topLevelKeys, errors: &noted)
        if let versionNode = top["version"] {
            try attempt {
                let version = try reader.string(versionNode, "version")
                guard version == "1" else { throw reader.error(versionNode, "unsupported rules format version '\(version)' (this loadaudit reads version 1)") }
            }
        }
        let newComponents = try attempt { try top["new-components"].map { try reader.stringList($0, "new-components") } ?? [] } ?? []
        var kept: [String: String] = [:]
        if let keepNode = top["keep"], let entries = try attempt({ try reader.list(keepNode, "keep") }) {
            for entry in entries {
                try attempt {
                    if entry.scalar != nil {
                        kept[try reader.nonEmptyString(entry, "a keep entry")] = ""
                    } else {
                        let fields = try reader.mapping(entry, "a keep entry", allowed: ["name", "reason"])
                        guard let nameNode = fields["name"] else { throw reader.error(entry, "a keep entry needs a name") }
                        kept[try reader.nonEmptyString(nameNode, "keep name")] = try fields["reason"].map { try reader.string($0, "keep reason") } ?? ""
                    }
                }
            }
        }
        let sizes = try attempt { try top["sizes"].map { try readSizes($0, reader) } } ?? nil
        let helpBase = try attempt { try top["help-base-uri"].map { try reader.nonEmptyString($0, "help-base-uri") } } ?? nil
        // For the words of reports: the title, else the name; what the findings are.
        let names = MigrationNames(
            title: try attempt { try (top["title"] ?? top["name"]).map { try reader.nonEmptyString($0, top["title"] == nil ? "name" : "title") } } ?? nil,
            findingsName: try attempt { try top["findings-name"].map { try reader.nonEmptyString($0, "findings-name") } } ?? nil)
        var rules: [Rule] = []
        var disabled: Set<String> = []
        let protected = Set(newComponents).union(kept.keys)
        if let rulesNode = top["rules"] {
            for ruleNode in try attempt({ try reader.list(rulesNode, "rules") }) ?? [] {
                guard let read = try attempt({ try readRule(ruleNode, reader, sizes: sizes, protected: protected) }) else { continue }
                guard var rule = read else {
                    // `enabled: false`: not run, but still a rule of the file (suppressions, baselines).
                    if let idNode = ruleNode.mapping?["id"], let id = idNode.string { disabled.insert(id) }
                    continue
                }
                if rule.helpURI == nil, let helpBase { rule.helpURI = helpBase + rule.id }
                let idNode = ruleNode.mapping?["id"]
                rule.originFile = file
                rule.idPlace = idNode?.mark.map { RulePlace(line: $0.line, column: $0.column) }
                if let other = rules.first(where: { $0.id == rule.id }) {
                    noted.append(reader.error(idNode ?? ruleNode, "rule id '\(rule.id)' is already defined at \(other.origin)"))
                    continue
                }
                rules.append(rule)
            }
        } else if !top.isEmpty || noted.isEmpty {
            noted.append(reader.error(root, "the rules file has no 'rules' list"))
        }
        return RuleSet(rules: rules, newComponents: Set(newComponents), kept: kept, sizes: sizes, disabledRuleIds: disabled, names: names)
    }

    private static func readSizes(_ node: Node, _ reader: YAMLReader) throws -> SpinnerSizes {
        for old in ["scale-below-one", "scale-otherwise"] {
            if let key = node.mapping?.keys.first(where: { $0.scalar?.string == old }) {
                throw reader.error(key, "sizes: '\(old)' is no longer read: a rule's size says 'scale-modifier: scaleEffect' and 'scale-points: 20', and .scaleEffect(k) gives the size nearest to 20 pt × k")
            }
        }
        let fields = try reader.mapping(node, "sizes", allowed: ["points", "control-size"])
        guard let pointsNode = fields["points"], let pointsMapping = pointsNode.mapping, !pointsMapping.isEmpty else {
            throw reader.error(node, "sizes needs 'points', a mapping of size names to points, e.g. {small: 16, medium: 24}")
        }
        var points: [(String, Double)] = []
        for (key, value) in pointsMapping {
            points.append((try reader.nonEmptyString(key, "a size name"), try reader.number(value, "the points of size '\(key.scalar?.string ?? "")'")))
        }
        points.sort { $0.1 < $1.1 }
        let names = Set(points.map(\.0))
        func sizeName(_ node: Node, _ what: String) throws -> String {
            let name = try reader.string(node, what)
            guard names.contains(name) else { throw reader.error(node, "\(what) is '\(name)', not one of the sizes: \(points.map(\.0).joined(separator: ", "))") }
            return name
        }
        var controlSize: [String: String] = [:]
        if let controlNode = fields["control-size"] {
            guard let mapping = controlNode.mapping else { throw reader.error(controlNode, "control-size must map SwiftUI control sizes to size names") }
            for (key, value) in mapping {
                controlSize[try reader.string(key, "a control size")] = try sizeName(value, "control-size '\(key.scalar?.string ?? "")'")
            }
        }
        return SpinnerSizes(points: points.map { (name: $0.0, points: $0.1) }, controlSize: controlSize)
    }

    // Checked byte by byte: a regular expression here cost each run ICU's set-up and two compilations
    // per rule, about 1.5 ms of a start-up that every scan waits for.

    /// Lower-case ASCII letters and digits in words joined by single `-`: `raw-progress-view`.
    static func isRuleId(_ id: String) -> Bool {
        id.split(separator: "-", omittingEmptySubsequences: false).allSatisfy { word in
            !word.isEmpty && word.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
        }
    }

    /// One Swift type name in ASCII: letters, digits and `_`, not starting with a digit.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            let lower = byte | 0x20
            return (0x61...0x7A).contains(lower) || (0x30...0x39).contains(byte) || byte == 0x5F
        }
    }

    private static func readRule(_ node: Node, _ reader: YAMLReader, sizes: SpinnerSizes?, protected: Set<String>) throws -> Rule? {
        let fields = try reader.mapping(node, "a rule", allowed: ruleKeys)
        func required(_ key: String) throws -> Node {
            guard let value = fields[key] else { throw reader.error(node, "a rule needs '\(key)'") }
            return value
        }
        let idNode = try required("id")
        let id = try reader.nonEmptyString(idNode, "id")
        guard isRuleId(id) else {
            throw reader.error(idNode, "rule id '\(id)' must be lower-case words joined by '-', e.g. raw-progress-view")
        }
        if let enabledNode = fields["enabled"], try !reader.bool(enabledNode, "enabled") { return nil }
        let kind = try fields["kind"].map { try reader.enumValue($0, "kind", as: RuleKind.self) } ?? .component
        if kind != .component {
            return try readSemanticRule(kind, id: id, fields: fields, node: node, reader)
        }
        let componentNode = try required("component")
        let component = try reader.nonEmptyString(componentNode, "component")
        guard isTypeName(component) else {
            throw reader.error(componentNode, "component '\(component)' must be one Swift type name")
        }
        guard !protected.contains(component) else {
            throw reader.error(componentNode, "component '\(component)' is a new or kept component, which is never reported")
        }
        let fix = try fields["fix"].map { try reader.enumValue($0, "fix", as: FixClass.self) } ?? .manual
        let replacement = try fields["replacement"].map { try readReplacement($0, reader) }
        if fix != .manual, replacement == nil {
            throw reader.error(fields["fix"] ?? node, "rule '\(id)' has fix '\(fix.rawValue)' but no replacement; give one or use fix: manual")
        }
        let size = try fields["size"].map { try readSize($0, reader) }
        let label = try fields["label"].map { try readLabel($0, reader) }
        if let replacement { try checkPlaceholders(replacement, size: size, label: label, sizes: sizes, fields: fields, reader) }
        let determinate = try fields["determinate"].map { try readDeterminate($0, reader) }
        let style = try fields["style"].map { try readStyle($0, reader) }
        var rule = Rule(
            id: id,
            component: component,
            module: try readModule(fields, reader),
            severity: try fields["severity"].map { try reader.enumValue($0, "severity", as: Severity.self) } ?? .warning,
            message: try reader.nonEmptyString(try required("message"), "message"),
            help: try fields["help"].map { try reader.string($0, "help") },
            replacement: replacement,
            fix: fix,
            size: size,
            label: label,
            droppableArguments: Set(try fields["droppable-arguments"].map { try reader.stringList($0, "droppable-arguments") } ?? []),
            absorbModifiers: try fields["absorb-modifiers"].map { try reader.stringList($0, "absorb-modifiers") } ?? [],
            determinate: determinate,
            style: style,
            origin: "\(reader.file):\(node.mark?.line ?? 0)",
            helpURI: try fields["help-uri"].map { try reader.nonEmptyString($0, "help-uri") }
        ).withExamples(try fields["examples"].map { try readExamples($0, reader) })
        rule.replacementModules = try readReplacementModules(fields, reader)
        if !rule.replacementModules.isEmpty, replacement == nil {
            throw reader.error(fields["replacement-module"], "replacement-module names what the replacement needs, but the rule has no replacement")
        }
        rule.relations = try readRelations(fields, reader)
        return rule
    }

    /// A rule's (or a relation's) `inside`, `not-inside`, `has` and `not-has`, in that order: all must hold.
    static func readRelations(_ fields: [String: Node], _ reader: YAMLReader) throws -> [SwiftRelation] {
        try SwiftRelation.Kind.allCases.compactMap { kind in
            try fields[kind.rawValue].map { try readRelation(kind, $0, reader) }
        }
    }

    /// One relation: a pattern, a mapping with `pattern` and/or `kind`, `stop-by` (`closure`, the
    /// default, or `end`) and relations of the related node; or a list of these, any of which will do
    /// (the patterns written alone in a list are one branch).
    static func readRelation(_ kind: SwiftRelation.Kind, _ node: Node, _ reader: YAMLReader) throws -> SwiftRelation {
        let what = kind.rawValue
        var branches: [SwiftRelation.Branch] = []
        var lone: [SwiftRelation.Target] = []
        let entries: [Node] = node.sequence.map(Array.init) ?? [node]
        guard !entries.isEmpty else { throw reader.error(node, "\(what) names no pattern") }
        for entry in entries {
            if entry.mapping != nil {
                branches.append(try readBranch(what, entry, reader))
            } else if let items = entry.sequence, node.sequence != nil {
                // A list in the list: more patterns of the plain branch.
                lone += try items.map { SwiftRelation.Target(try readRelationPattern(what, $0, reader)) }
            } else {
                lone.append(SwiftRelation.Target(try readRelationPattern(what, entry, reader)))
            }
        }
        if !lone.isEmpty { branches.insert(SwiftRelation.Branch(targets: lone), at: 0) }
        return SwiftRelation(kind: kind, branches: branches)
    }

    private static func readBranch(_ what: String, _ node: Node, _ reader: YAMLReader) throws -> SwiftRelation.Branch {
        let parts = try reader.mapping(node, what, allowed: relationKeys)
        guard parts["pattern"] != nil || parts["kind"] != nil else {
            throw reader.error(node, "\(what) needs 'pattern' (the code, or a list of code, any of, it looks for) or 'kind' (node kinds, as `loadaudit syntax` prints them)")
        }
        var targets: [SwiftRelation.Target] = []
        if let patterns = parts["pattern"] {
            let entries: [Node] = patterns.scalar != nil ? [patterns] : try reader.list(patterns, "\(what) pattern")
            guard !entries.isEmpty else { throw reader.error(patterns, "\(what) names no pattern") }
            targets += try entries.map { SwiftRelation.Target(try readRelationPattern(what, $0, reader)) }
        }
        if let kinds = parts["kind"] {
            for name in try reader.stringList(kinds, "\(what) kind") {
                guard SwiftScopes.isNodeKind(name) else {
                    throw reader.error(kinds, "\(what) kind: '\(name)' is not a node kind of the Swift grammar (`loadaudit syntax FILE` prints them)")
                }
                targets.append(SwiftRelation.Target(kind: name))
            }
        }
        let reach = try parts["stop-by"].map { try reader.enumValue($0, "\(what) stop-by", as: SwiftRelation.Reach.self) } ?? .closure
        return SwiftRelation.Branch(targets: targets, reach: reach, nested: try readRelations(parts, reader))
    }

    private static func readRelationPattern(_ what: String, _ entry: Node, _ reader: YAMLReader) throws -> SwiftPattern {
        let text = try reader.nonEmptyString(entry, "a pattern of \(what)")
        let pattern: SwiftPattern
        do { pattern = try SwiftPattern(text) } catch let problem as SwiftPattern.Problem {
            throw reader.error(entry, "\(what): the pattern '\(text)' \(problem)")
        }
        guard !pattern.names.isEmpty else {
            throw reader.error(entry, "\(what): the pattern '\(text)' must name something concrete, not only metavariables")
        }
        return pattern
    }

    /// `module:` one Swift module name.
    static func readModule(_ fields: [String: Node], _ reader: YAMLReader) throws -> String? {
        guard let node = fields["module"] else { return nil }
        let module = try reader.nonEmptyString(node, "module")
        guard isTypeName(module) else { throw reader.error(node, "module '\(module)' must be one Swift module name") }
        return module
    }

    /// `replacement-module:` a module name or a list of them.
    static func readReplacementModules(_ fields: [String: Node], _ reader: YAMLReader) throws -> [String] {
        guard let node = fields["replacement-module"] else { return [] }
        let names = node.scalar != nil ? [try reader.nonEmptyString(node, "replacement-module")] : try reader.stringList(node, "replacement-module")
        for name in names where !isTypeName(name) {
            throw reader.error(node, "replacement-module '\(name)' must be a Swift module name")
        }
        guard !names.isEmpty else { throw reader.error(node, "replacement-module is empty") }
        return names
    }

    /// `examples: {match: [...], no-match: [...], fix: [{before: ..., after: ...}]}`.
    static func readExamples(_ node: Node, _ reader: YAMLReader) throws -> RuleExamples {
        let parts = try reader.mapping(node, "examples", allowed: ["match", "no-match", "fix"])
        var examples = RuleExamples()
        if let matchNode = parts["match"] {
            for entry in try reader.list(matchNode, "examples match") {
                let code = try reader.nonEmptyString(entry, "a match example")
                guard code.contains(RuleExamples.marker) else {
                    throw reader.error(entry, "a match example needs a \(RuleExamples.marker) where each finding starts")
                }
                examples.matching.append(code)
            }
        }
        examples.notMatching = try parts["no-match"].map { try reader.stringList($0, "examples no-match") } ?? []
        if let fixNode = parts["fix"] {
            for entry in try reader.list(fixNode, "examples fix") {
                let pair = try reader.mapping(entry, "a fix example", allowed: ["before", "after"])
                guard let before = pair["before"], let after = pair["after"] else { throw reader.error(entry, "a fix example needs 'before' and 'after'") }
                examples.fixes.append((try reader.string(before, "before"), try reader.string(after, "after")))
            }
        }
        return examples
    }

    private static func readReplacement(_ node: Node, _ reader: YAMLReader) throws -> ReplacementTemplate {
        do {
            return try ReplacementTemplate(try reader.nonEmptyString(node, "replacement"))
        } catch let error as ReplacementTemplate.SyntaxError {
            throw reader.error(node, "replacement: \(error.problem)")
        }
    }

    /// A replacement's `{size}` needs the rule's `size` section and the file's `sizes` table (with its
    /// default among them); `{label}` needs a `label` section.
    private static func checkPlaceholders(
        _ replacement: ReplacementTemplate, size: SizeSource?, label: LabelSource?, sizes: SpinnerSizes?, fields: [String: Node], _ reader: YAMLReader
    ) throws {
        if replacement.placeholders.contains(.size) {
            guard size != nil else { throw reader.error(fields["replacement"], "replacement uses {size} but the rule has no 'size' section") }
            guard let sizes else { throw reader.error(fields["replacement"], "replacement uses {size} but the file has no 'sizes' table") }
            if let defaultSize = size?.defaultSize, !sizes.names.contains(defaultSize) {
                throw reader.error(fields["size"], "size default '\(defaultSize)' is not one of the sizes: \(sizes.points.map(\.name).joined(separator: ", "))")
            }
            for place in size?.context ?? [] where !sizes.names.contains(place.size) {
                let line = Int(place.origin.split(separator: ":").last ?? "")
                throw RulesFileError(file: reader.file, line: line, problem: "size context: size '\(place.size)' is not one of the sizes: \(sizes.points.map(\.name).joined(separator: ", "))")
            }
        }
        if replacement.placeholders.contains(.label), label == nil {
            throw reader.error(fields["replacement"], "replacement uses {label} but the rule has no 'label' section")
        }
    }

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

    private static func readStyle(_ node: Node, _ reader: YAMLReader) throws -> StyleCheck {
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
    private static func readPattern(_ rule: inout Rule, fields: [String: Node], node: Node, _ reader: YAMLReader) throws {
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
        guard let pattern else { return }
        guard !pattern.names.isEmpty else { throw reader.error(matchNode, "match must name something concrete, not only metavariables") }
        rule.pattern = pattern
        if let rewrite, let replaceNode = fields["replace"] {
            let unbound = pattern.unbound(in: rewrite)
            if !unbound.isEmpty { throw reader.error(replaceNode, "replace \(SwiftPattern.Problem.unknownMetavariables(unbound))") }
            rule.rewrite = rewrite
        }
        if rule.fix != .manual, rule.rewrite == nil {
            throw reader.error(fields["fix"], "rule '\(rule.id)' has fix '\(rule.fix.rawValue)' but no 'replace'; give one or use fix: manual")
        }
        if let valuesNode = fields["values"] { rule.values = try readValueTables(valuesNode, rule: rule, reader) }
        // `droppable-arguments`: metavariables of the match the replacement leaves out on purpose.
        if let droppableNode = fields["droppable-arguments"] {
            let dropped = Set(pattern.metavariables).subtracting(rule.rewrite?.metavariables ?? [])
            for item in try reader.list(droppableNode, "droppable-arguments") {
                let name = String(try reader.nonEmptyString(item, "droppable-arguments").drop { $0 == "$" })
                guard dropped.contains(name) else {
                    throw reader.error(item, "droppable-arguments: '$\(name)' is not a metavariable of the match that the replacement leaves out")
                }
                rule.droppableArguments.insert(name)
            }
        }
        rule.replacementModules = try readReplacementModules(fields, reader)
        if !rule.replacementModules.isEmpty, rule.rewrite == nil {
            throw reader.error(fields["replacement-module"], "replacement-module names what the replacement needs, but the rule has no 'replace'")
        }
    }

    /// A pattern's mistake at its place in the file: where the code stops parsing, when the value is
    /// written as is on one line of the file (else at the value).
    private static func patternError(_ problem: SwiftPattern.Problem, _ key: String, _ node: Node, _ reader: YAMLReader) -> RulesFileError {
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
    private static func readValueTables(_ node: Node, rule: Rule, _ reader: YAMLReader) throws -> [String: ValueTable] {
        guard let mapping = node.mapping else { throw reader.error(node, "values must map metavariables to tables of values") }
        var tables: [String: ValueTable] = [:]
        let known = rule.pattern?.metavariables ?? []
        func code(_ node: Node, of name: Substring) throws -> String {
            let text = try reader.string(node, "a value's new code")
            if let unknown = ValueTable.metavariables(in: text).first(where: { !known.contains($0) }) {
                throw reader.error(node, "values: the code '\(text)' in the table of '$\(name)' uses $\(unknown), which the match does not bind")
            }
            return text
        }
        for (key, tableNode) in mapping {
            let name = try reader.nonEmptyString(key, "a values key").drop { $0 == "$" }
            guard rule.pattern?.metavariables.contains(String(name)) == true else {
                throw reader.error(key, "values: '$\(name)' is not a metavariable of the match")
            }
            guard rule.rewrite?.metavariables.contains(String(name)) == true else {
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

    static let clockKeys: Set<String> = ["closures", "targets", "waits", "publishers", "receivers", "time-driven-views"]

    /// A rotating-text rule's names: `display-calls`, `clocks` (each part a list of names, or a mapping
    /// of names to how a message calls them) and `random-picks`. Every name is a plain Swift name
    /// (a publisher: `Type.name`); the rule must name its display calls and at least one clock.
    private static func readRotationVocabulary(_ fields: [String: Node], node: Node, _ reader: YAMLReader) throws -> RotationVocabulary {
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
        guard !vocabulary.clockCalls.isEmpty else { throw reader.error(clocksNode, "clocks names no call (closures, targets, waits, receivers or time-driven-views)") }
        if vocabulary.receivers.isEmpty != vocabulary.publishers.isEmpty {
            throw reader.error(clocksNode, "clocks: 'receivers' and 'publishers' go together (a receiver runs its closures at each tick of a publisher)")
        }
        vocabulary.randomPicks = Set(try fields["random-picks"].map { try names($0, "random-picks", reader).keys } ?? [:].keys)
        return vocabulary
    }

    /// A list of names, or a mapping of names to how messages call them (a list: each its own name).
    private static func names(_ node: Node, _ what: String, _ reader: YAMLReader, dotted: Bool = false) throws -> [String: String] {
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
            guard parts.count <= (dotted ? 2 : 1), parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { SwiftWords.isNameByte[Int($0)] } }) else {
                throw reader.error(nameNode, "\(what): '\(name)' is not a Swift name\(dotted ? " (or Type.name)" : "")")
            }
            guard table[name] == nil else { throw reader.error(nameNode, "\(what): '\(name)' appears twice") }
            table[name] = description ?? name
        }
        guard !table.isEmpty else { throw reader.error(node, "\(what) is empty") }
        return table
    }

    /// `rotating-text` and `label-style` rules: no component, no replacement (fix is always manual).
    private static func readSemanticRule(_ kind: RuleKind, id: String, fields: [String: Node], node: Node, _ reader: YAMLReader) throws -> Rule {
        let common: Set<String> = ["id", "kind", "severity", "message", "help", "help-uri", "fix", "enabled", "examples", "module"]
        let allowed: Set<String>
        switch kind {
        case .rotatingText: allowed = common.union(["display-calls", "display-properties", "display-setters", "observable-state", "clocks", "random-picks"])
        case .labelStyle: allowed = common.union(["components", "label-arguments", "allowed-labels", "label-pattern", "determinate", "label-closures", "mismatch-reason"])
        case .pattern: allowed = common.union(["match", "replace", "values", "droppable-arguments", "replacement-module"]).union(SwiftRelation.Kind.allCases.map(\.rawValue))
        case .component: allowed = ruleKeys
        }
        if let extra = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw reader.error(fields[extra], "'\(extra)' does not apply to a \(kind.rawValue) rule (keys: \(allowed.sorted().joined(separator: ", ")))")
        }
        guard let messageNode = fields["message"] else { throw reader.error(node, "a rule needs 'message'") }
        let fix = try fields["fix"].map { try reader.enumValue($0, "fix", as: FixClass.self) } ?? .manual
        if kind != .pattern, fix != .manual, let fixNode = fields["fix"] {
            throw reader.error(fixNode, "a \(kind.rawValue) rule has no automatic rewrite: its fix is manual")
        }
        var rule = Rule(
            id: id, kind: kind, component: "", module: try readModule(fields, reader),
            severity: try fields["severity"].map { try reader.enumValue($0, "severity", as: Severity.self) } ?? .warning,
            message: try reader.nonEmptyString(messageNode, "message"),
            help: try fields["help"].map { try reader.string($0, "help") },
            replacement: nil, fix: fix, size: nil, label: nil, droppableArguments: [], absorbModifiers: [],
            determinate: nil, style: nil, origin: "\(reader.file):\(node.mark?.line ?? 0)",
            helpURI: try fields["help-uri"].map { try reader.nonEmptyString($0, "help-uri") }
        ).withExamples(try fields["examples"].map { try readExamples($0, reader) })
        switch kind {
        case .pattern:
            try readPattern(&rule, fields: fields, node: node, reader)
            rule.relations = try readRelations(fields, reader)
        case .rotatingText:
            rule.rotation = try readRotationVocabulary(fields, node: node, reader)
        case .labelStyle:
            guard let componentsNode = fields["components"] else { throw reader.error(node, "a label-style rule needs 'components'") }
            var pattern: NSRegularExpression?
            if let patternNode = fields["label-pattern"] {
                let text = try reader.nonEmptyString(patternNode, "label-pattern")
                do { pattern = try NSRegularExpression(pattern: text) } catch {
                    throw reader.error(patternNode, "label-pattern is not a valid regular expression: \(text)")
                }
            }
            rule.labelStyle = LabelStyle(
                components: Set(try reader.stringList(componentsNode, "components")),
                labelArguments: try fields["label-arguments"].map { try reader.stringList($0, "label-arguments") } ?? ["label", "_"],
                allowedLabels: Set(try fields["allowed-labels"].map { try reader.stringList($0, "allowed-labels") } ?? []),
                pattern: pattern
            )
            if let determinateNode = fields["determinate"] { rule.determinate = try readDeterminate(determinateNode, reader) }
            rule.labelStyle?.labelClosures = Set(try fields["label-closures"].map { try reader.stringList($0, "label-closures") } ?? [])
            rule.labelStyle?.mismatchReason = try fields["mismatch-reason"].map { try reader.nonEmptyString($0, "mismatch-reason") }
        case .component:
            break
        }
        return rule
    }

    static let contextKeys: Set<String> = Set(["size", "why", "examples", "label-of", "beside", "within"] + SwiftRelation.Kind.allCases.map(\.rawValue))

    private static func readSize(_ node: Node, _ reader: YAMLReader) throws -> SizeSource {
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
            argument: try parts["argument"].map { try reader.nonEmptyString($0, "size argument") },
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
    private static func readSizeContext(_ entry: Node, _ reader: YAMLReader) throws -> SizeByContext {
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
    private static func readLabel(_ node: Node, _ reader: YAMLReader) throws -> LabelSource {
        let parts = try reader.mapping(node, "label", allowed: ["arguments", "closures", "default", "text-calls", "text-prefixes"])
        if let closures = parts["closures"], closures.scalar != nil, ["true", "yes", "on"].contains(closures.scalar?.string ?? "") {
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
