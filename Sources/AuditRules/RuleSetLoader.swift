import AuditModel
import Foundation
import SwiftGrammar
import Yams

/// Turns the text of a rules file into a validated `RuleSet`, or a located error. See rules/README.md.
enum RuleSetLoader {
    static let topLevelKeys: Set<String> = ["version", "name", "title", "findings-name", "new-components", "keep", "sizes", "rules", "help-base-uri"]
    /// Every key a rule may have, of any kind (`keys(of:)`: which kind takes which).
    static let ruleKeys: Set<String> = RuleKind.allCases.reduce(into: []) { $0.formUnion(keys(of: $1)) }

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

    static func read(text: String, file: String, errors: inout [RulesFileError]) throws -> RuleSet {
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

    static func readSizes(_ node: Node, _ reader: YAMLReader) throws -> SpinnerSizes {
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
            !word.isEmpty && word.utf8.allSatisfy { !ByteClass.of($0).isDisjoint(with: [.lowercase, .digit]) }
        }
    }

    /// One Swift type name in ASCII: letters, digits and `_`, not starting with a digit.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !ByteClass.of(first).contains(.digit) else { return false }
        return name.utf8.allSatisfy { byte in
            !ByteClass.of(byte).isDisjoint(with: [.uppercase, .lowercase, .digit]) || byte == UInt8(ascii: "_")
        }
    }

    static func readRule(_ node: Node, _ reader: YAMLReader, sizes: SpinnerSizes?, protected: Set<String>) throws -> Rule? {
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
        try refuseOtherKindsKeys(kind, fields: fields, reader)
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
        // Read in the order the mistakes are looked for: a rule's first mistake is the one reported.
        let module = try readModule(fields, reader)
        let severity = try fields["severity"].map { try reader.enumValue($0, "severity", as: Severity.self) } ?? .warning
        let message = try reader.nonEmptyString(try required("message"), "message")
        let help = try fields["help"].map { try reader.string($0, "help") }
        let droppableArguments = Set(try fields["droppable-arguments"].map { try reader.stringList($0, "droppable-arguments") } ?? [])
        let absorbModifiers = try fields["absorb-modifiers"].map { try reader.stringList($0, "absorb-modifiers") } ?? []
        let helpURI = try fields["help-uri"].map { try reader.nonEmptyString($0, "help-uri") }
        let examples = try fields["examples"].map { try readExamples($0, reader) } ?? RuleExamples()
        let replacementModules = try readReplacementModules(fields, reader)
        if !replacementModules.isEmpty, replacement == nil {
            throw reader.error(fields["replacement-module"], "replacement-module names what the replacement needs, but the rule has no replacement")
        }
        let matcher = RuleMatcher.component(ComponentRule(
            name: component, replacement: replacement, replacementModules: replacementModules, size: size, label: label,
            droppableArguments: droppableArguments, absorbModifiers: absorbModifiers, determinate: determinate, style: style,
            relations: try readRelations(fields, reader)))
        return Rule(id: id, matcher: matcher, module: module, severity: severity, message: message, help: help, fix: fix,
                    origin: "\(reader.file):\(node.mark?.line ?? 0)", helpURI: helpURI, examples: examples)
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

    static func readBranch(_ what: String, _ node: Node, _ reader: YAMLReader) throws -> SwiftRelation.Branch {
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

    static func readRelationPattern(_ what: String, _ entry: Node, _ reader: YAMLReader) throws -> SwiftPattern {
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

    /// `examples: {match: [...], no-match: [...], fix: [{before: ..., after: ..., class: unsafe, imports: [X]}]}`; a fix
    /// example without `after` leaves the code as it is (`class: manual`: a person changes it).
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
                let pair = try reader.mapping(entry, "a fix example", allowed: ["before", "after", "class", "imports"])
                guard let before = pair["before"], let after = pair["after"] ?? pair["class"].flatMap({ _ in pair["before"] }) else {
                    throw reader.error(entry, "a fix example needs 'before' and 'after' (or, for code the fix leaves as it is, a 'class')")
                }
                let fixClass = try pair["class"].map { node in
                    guard let value = FixClass(rawValue: try reader.string(node, "class")) else {
                        throw reader.error(node, "a fix example's class is safe, unsafe or manual")
                    }
                    return value
                }
                let imports = try pair["imports"].map { try reader.stringList($0, "a fix example's imports") }
                examples.fixes.append((try reader.string(before, "before"), try reader.string(after, "after"), fixClass, imports))
            }
        }
        return examples
    }

    static func readReplacement(_ node: Node, _ reader: YAMLReader) throws -> ReplacementTemplate {
        do {
            return try ReplacementTemplate(try reader.nonEmptyString(node, "replacement"))
        } catch let error as ReplacementTemplate.SyntaxError {
            throw reader.error(node, "replacement: \(error.problem)")
        }
    }

    /// A replacement's `{size}` needs the rule's `size` section and the file's `sizes` table (with its
    /// default among them); `{label}` needs a `label` section.
    static func checkPlaceholders(
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
}
