// AuditRules: rules as data and the engine that matches them. It owns the rules file (YAML ->
// validated RuleSet, the built-in table), matching on one file's tree (components, labels, the
// facts of rotating text), suppressions, and resolving candidates across files (ProjectContext).
// It declares what a file must show to be worth parsing (`SelectionNeeds`) and must not know how
// files are selected, read or reported.

import AuditModel
import AuditProject
import AuditRotation
import Foundation
import SwiftGrammar
import TreeSitter

/// Matches rules on syntax trees. Immutable: one engine serves every thread.
public struct RuleEngine: Sendable {
    public let ruleSet: RuleSet
    /// The `component` rules, by the deprecated type's name.
    private let rulesByComponent: [String: [(rule: Rule, component: ComponentRule)]]

    /// `skipsUnmarkedSubtrees: false` walks whole trees, as a check that skipping changes nothing.
    public init(ruleSet: RuleSet, skipsUnmarkedSubtrees: Bool = true) {
        self.ruleSet = ruleSet
        self.skipsUnmarkedSubtrees = skipsUnmarkedSubtrees
        var rulesByComponent: [String: [(rule: Rule, component: ComponentRule)]] = [:]
        var rotatingRules: [Rule] = []
        var labelRules: [(rule: Rule, style: LabelStyle)] = []
        var patternRules: [(rule: Rule, pattern: PatternRule)] = []
        var precedence: [String: Precedence] = [:]
        for (order, rule) in ruleSet.rules.enumerated() {
            switch rule.matcher {
            case .component(let component): rulesByComponent[component.name, default: []].append((rule, component))
            case .rotatingText: rotatingRules.append(rule)
            case .labelStyle(let style): labelRules.append((rule, style))
            case .pattern(let pattern): patternRules.append((rule, pattern))
            }
            if let specificity = rule.specificity {
                precedence[rule.id] = Precedence(conditions: specificity.conditions, tokens: specificity.tokens, order: order)
            }
        }
        self.rulesByComponent = rulesByComponent
        usageRuleIds = Set(ruleSet.rules.filter { $0.kind == .component || $0.kind == .pattern }.map(\.id))
        self.rotatingRules = rotatingRules
        self.labelRules = labelRules
        self.precedence = precedence
        selectionNeeds = ruleSet.selectionNeeds
        // The rotating-text rules' vocabularies, merged once (for the select step too).
        rotation = RotationAnalysis(selectionNeeds.rotation ?? RotationVocabulary())
        labelComponents = labelRules.reduce(into: Set<String>()) { $0.formUnion($1.style.components) }
        patternRulesByRootType = patternRules.reduce(into: [:]) { byType, entry in
            for type in entry.pattern.pattern.rootTypes { byType[type, default: []].append(entry) }
        }
        let patternNames = patternRules.flatMap { $0.pattern.pattern.names }
        walkWords = WordSet(Set(rulesByComponent.keys).union(labelComponents).union(patternNames).map { Array($0.utf8) })
    }

    /// Which of two rules reports code both find: more conditions on the context, then more code
    /// named, then the first in the rules files' order.
    struct Precedence {
        let conditions: Int
        let tokens: Int
        let order: Int

        func beats(_ other: Precedence) -> Bool {
            if conditions != other.conditions { return conditions > other.conditions }
            if tokens != other.tokens { return tokens > other.tokens }
            return order < other.order
        }
    }

    /// The component and pattern rules' precedence, by id.
    private let precedence: [String: Precedence]

    /// Why the first rule reports code both rules find, in words.
    public func precedenceReason(_ winner: String, over loser: String) -> String {
        guard let first = precedence[winner], let second = precedence[loser] else { return "it is not a pattern or component rule" }
        if first.conditions != second.conditions { return "more conditions on the context: \(first.conditions) against \(second.conditions)" }
        if first.tokens != second.tokens { return "its match names more code: \(first.tokens) tokens against \(second.tokens)" }
        return "as specific, and first in the rules' order"
    }

    /// A finding left out because another rule reports the same code.
    public struct Shadowed: Sendable {
        public let finding: Finding
        public let by: Finding
    }

    /// One finding per piece of code: when findings of several component or pattern rules start at the
    /// same place, only the most specific rule's is kept (see `Precedence`). Label-style and
    /// rotating-text findings say something else about the code (its label, its text over time) and
    /// are always kept.
    public func oneFindingPerNode(_ findings: [Finding]) -> (findings: [Finding], shadowed: [Shadowed]) {
        var winner: [Int: Int] = [:]
        var dropped = Set<Int>()
        var shadowed: [(loser: Int, winner: Int)] = []
        for (index, finding) in findings.enumerated() {
            guard let mine = precedence[finding.ruleId] else { continue }
            let start = finding.start.byteOffset
            guard let other = winner[start] else {
                winner[start] = index
                continue
            }
            if mine.beats(precedence[findings[other].ruleId]!) {
                dropped.insert(other)
                winner[start] = index
                shadowed = shadowed.map { $0.winner == other ? ($0.loser, index) : $0 } + [(other, index)]
            } else {
                dropped.insert(index)
                shadowed.append((index, other))
            }
        }
        guard !dropped.isEmpty else { return (findings, []) }
        let kept = findings.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        return (kept, shadowed.map { Shadowed(finding: findings[$0.loser], by: findings[$0.winner]) })
    }

    /// What a file must show to be worth parsing, for the select step (AuditSelect).
    public let selectionNeeds: SelectionNeeds

    /// The names `analyze`'s walk reports: the components and the label components. A subtree
    /// without one of them holds nothing to report (nor needs a protected declaration's skip).
    private let walkWords: WordSet
    private let skipsUnmarkedSubtrees: Bool

    private let rotatingRules: [Rule]
    private let labelRules: [(rule: Rule, style: LabelStyle)]
    /// The components the label-style rules look at.
    private let labelComponents: Set<String>
    /// The `pattern` rules, by the node kinds their matches start at.
    private let patternRulesByRootType: [String: [(rule: Rule, pattern: PatternRule)]]

    /// The rotating-text analysis (AuditRotation), made from its rules' names (display calls, clocks,
    /// random picks) for every file's walk.
    private let rotation: RotationAnalysis

    /// An analysis for a file no rule can find anything in, made without parsing it.
    public func emptyAnalysis(file: String) -> FileAnalysis {
        FileAnalysis(file: file, candidates: [], topLevelTypes: [], imports: [], exportedImports: [], syntaxErrors: [],
                     suppressions: [], rotation: rotatingRules.isEmpty ? nil : RotationFacts())
    }

    /// Whether a tree of part of a possible anchor (the select step's anchor cut) may make its file an
    /// anchor of rotating text; true without rotating-text rules' need (never asked then).
    public func mayAnchor(tree: Tree) -> Bool {
        rotatingRules.isEmpty || rotation.mayAnchor(tree, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees)
    }

    /// The file's candidates and facts.
    public func analyze(tree: Tree, file: String) -> FileAnalysis {
        let facts = SwiftFileFacts(tree: tree)
        var candidates: [Candidate] = []
        let protected = ruleSet.protectedNames
        let wordOffsets = skipsUnmarkedSubtrees ? WordOffsets(tree.source, words: walkWords) : .everywhere
        tree.rootNode.walk(withAncestors: { node, path in
            // Everything this walk reports holds one of the names it matches.
            guard wordOffsets.anyStart(in: node.byteRange) else { return false }
            // Nothing inside a new or kept component's declaration is reported.
            if SwiftKinds.typeDeclaration.contains(node),
               let name = SwiftDeclarations.declaredName(of: node), protected.contains(name.text) { return false }
            // Every pattern rule that matches: when several report the same code, `resolve` keeps the
            // most specific (`oneFindingPerNode`).
            if let rules = patternRulesByRootType[node.type] {
                for (rule, pattern) in rules {
                    if let candidate = patternCandidate(rule, pattern, at: node, path: path, file: file, facts: facts) { candidates.append(candidate) }
                }
            }
            switch node.type {
            case SwiftNodeType.callExpression where !labelComponents.isEmpty:
                if let name = SwiftCall.calleeName(of: node), labelComponents.contains(name), let call = SwiftCall(node) {
                    for (rule, style) in labelRules where style.components.contains(name) {
                        if var candidate = LabelStyleCheck(rule: rule, style: style, file: file, source: tree.source).check(call) {
                            candidate.finding.scope = SwiftDeclarations.scopePath(ancestors: path.reversed())
                            candidate.finding.snippet = Self.snippet(tree.source, candidate.finding)
                            candidates.append(candidate)
                        }
                    }
                }
                return true
            case SwiftNodeType.simpleIdentifier, SwiftNodeType.typeIdentifier:
                guard let rules = rulesByComponent[node.text], SwiftWords.isWholeWord(node.byteRange, in: tree.source.bytes) else { return false }
                let inBrokenRegion = Self.isInBrokenRegion(path, facts)
                let ancestors = Array(path.reversed())
                for (rule, component) in rules {
                    guard var candidate = UsageMatcher(rule: rule, component: component, sizes: ruleSet.sizes, file: file, source: tree.source, facts: facts)
                        .match(node, ancestors: ancestors) else { continue }
                    candidate.finding.scope = SwiftDeclarations.scopePath(ancestors: ancestors)
                    candidate.finding.snippet = Self.snippet(tree.source, candidate.finding)
                    candidates.append(inBrokenRegion ? Self.loweredForBrokenRegion(candidate) : candidate)
                }
                return false
            default:
                return true
            }
        })
        var analysis = FileAnalysis(
            file: file,
            candidates: candidates,
            topLevelTypes: facts.topLevelTypes,
            imports: facts.imports,
            exportedImports: facts.exportedImports,
            syntaxErrors: facts.syntaxErrors.map(\.position),
            suppressions: Suppression.collect(in: tree, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees),
            rotation: rotatingRules.isEmpty ? nil : rotation.read(tree, file: file, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees)
        )
        analysis.extendedTypes = facts.extendedTypes
        analysis.declaredMembers = facts.declaredMembers
        analysis.viewTypes = facts.viewTypes
        analysis.unsureTypes = facts.unsureTypes
        analysis.importInsertion = facts.importInsertion
        if SwiftPackageManifest.isManifest(path: file) { analysis.manifest = SwiftPackageManifest.read(tree) }
        return analysis
    }

    /// A `pattern` rule's finding at `node`, when the node has the pattern's shape: its edits change
    /// only the tokens the replacement changes (see `SwiftPattern.edits`). A lone name matches a whole
    /// word that is not a declaration's own name.
    private func patternCandidate(_ rule: Rule, _ settings: PatternRule, at node: Node, path: [Node], file: String, facts: SwiftFileFacts) -> Candidate? {
        let pattern = settings.pattern
        guard let match = pattern.match(node, module: rule.module) else { return nil }
        if !settings.relations.isEmpty {
            let ancestors = Array(path.reversed())
            guard settings.relations.allSatisfy({ $0.holds(at: node, ancestors: ancestors) }) else { return nil }
        }
        let source = node.tree.source
        var qualified = match.isQualified
        var written: String?
        if node.childCount == 0 {
            guard SwiftWords.isWholeWord(node.byteRange, in: source.bytes) else { return nil }
            if SwiftScopes.isDeclaredName(node, parent: path.last) { return nil }
            // `import struct Kit.NavigationView` names the type: its uses are what is reported.
            if path.contains(where: { $0.type == SwiftNodeType.importDeclaration }) { return nil }
            // A lone name written after a qualifier: the module's (`LegacyDesignSystem.HUD`), or another
            // module's or type's, which is not this rule's.
            written = SwiftExpressions.qualifier(of: node, ancestors: path)
            if let module = rule.module, let qualifier = written {
                guard qualifier == module else { return nil }
                qualified = true
            }
        }
        let range = pattern.reportedRange(match, replacement: settings.rewrite)
        let start = source.position(ofByte: range.lowerBound), end = source.position(ofByte: range.upperBound)
        // A value its table does not cover is for a person: never guessed.
        var values: [String: String] = [:]
        var usedByValues = Set<String>()
        var uncovered: String?
        for (name, table) in settings.values.sorted(by: { $0.key < $1.key }) {
            guard let bound = match.bindings[name] else { continue }
            let code = source.text(bound).trimmingCharacters(in: .whitespacesAndNewlines)
            if let value = table.code(for: code) {
                // The value's code may name the match's other metavariables: written as their code.
                values[name] = ValueTable.substitute(value) { other in
                    guard let range = match.bindings[other] else { return nil }
                    usedByValues.insert(other)
                    return source.text(range)
                }
            } else if uncovered == nil {
                uncovered = "$\(name) is \(code), which the rule's table does not cover: a person decides"
            }
        }
        let rewrite = uncovered == nil ? settings.rewrite : nil
        var reasons = uncovered.map { [$0] } ?? []
        var fix = rule.fix
        // Code the replacement leaves out, unless the rule says it may: a person checks the rewrite.
        if let rewrite, fix == .safe {
            let dropped = pattern.metavariables.filter {
                !rewrite.metavariables.contains($0) && !settings.droppableArguments.contains($0) && !usedByValues.contains($0)
            }
                .compactMap { name in match.bindings[name].map { (name, source.text($0).trimmingCharacters(in: .whitespacesAndNewlines)) } }
                .filter { !$0.1.isEmpty }
            if !dropped.isEmpty {
                fix = .unsafe
                reasons.append("the rewrite drops " + dropped.map { "$\($0.0) (\($0.1))" }.joined(separator: ", "))
            }
        }
        let replacement = rewrite.map { pattern.shownReplacement(match, replacement: $0, source: source, values: values) }
        var finding = Finding(
            ruleId: rule.id, severity: rule.severity, file: file,
            start: SourcePoint(line: start.line, column: start.column, byteOffset: range.lowerBound),
            end: SourcePoint(line: end.line, column: end.column, byteOffset: range.upperBound),
            symbol: pattern.names.first ?? "", message: Candidate.message(rule.message, reasons: reasons),
            replacement: replacement, fix: replacement == nil ? .manual : fix,
            edits: rewrite.map { pattern.edits(match, to: $0, in: source, values: values) }
        )
        finding.scope = SwiftDeclarations.scopePath(ancestors: path.reversed())
        finding.snippet = Self.snippet(source, finding)
        var candidate = Candidate(finding: finding, moduleCheck: rule.module.flatMap { qualified ? nil : Candidate.ModuleCheck(module: $0, fileImports: facts.imports) },
                                  ruleMessage: rule.message, reasons: reasons)
        candidate.ruleModule = rule.module
        // Whose the name is, by Swift's lookup as for a component rule (RuleEngine+Lookup): `Kit.NavigationView` is Kit's.
        if rule.module == nil { (candidate.looksUpHome, candidate.qualifier) = (true, written) }
        candidate.replacementModules = settings.replacementModules
        return Self.isInBrokenRegion(path, facts) ? Self.loweredForBrokenRegion(candidate) : candidate
    }

    /// Inside a region the parser could not read, the tree is a guess: what looks like a use is
    /// reported (a whole file can sit in one ERROR node), but never rewritten without a human glance.
    private static func isInBrokenRegion(_ path: [Node], _ facts: SwiftFileFacts) -> Bool {
        !facts.syntaxErrors.isEmpty && path.contains { $0.isError }
    }

    private static func loweredForBrokenRegion(_ candidate: Candidate) -> Candidate {
        candidate.lowered(to: .unsafe, because: "in a region with a syntax error: check the code around it")
    }

    /// The span's code with every run of blanks and line breaks folded to one space, at most 120 characters.
    static func snippet(_ source: SourceText, _ finding: Finding) -> String {
        let text = source.text(finding.start.byteOffset..<finding.end.byteOffset)
        let folded = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
        return folded.count > 120 ? String(folded.prefix(120)) : folded
    }

    /// Settles the candidates of all files against each other and returns the findings in report order.
    public func resolve(_ analyses: [FileAnalysis], model: ProjectModel? = nil) -> [Finding] {
        resolveWithContext(analyses, model: model).findings
    }

    /// `resolve`, with the project context it built: a fix judges its rewrites against it.
    public func resolveWithContext(_ analyses: [FileAnalysis], model: ProjectModel? = nil) -> (findings: [Finding], context: ProjectContext) {
        // Only the files that can matter: going through every empty analysis of a large tree took
        // milliseconds on the thread the report waits for.
        let contributing = analyses.filter { !$0.contributesNothing }
        let context = ProjectContext(contributing, model: model)
        return (contributing.flatMap { resolve($0, in: context) }.sorted(by: Finding.reportOrder), context)
    }

    /// The findings of one file after its suppression comments, plus one `unused-suppression` finding
    /// for each suppression (or rule id in it) that silenced nothing.
    public func resolve(_ analysis: FileAnalysis, in context: ProjectContext) -> [Finding] {
        resolveShowingShadowed(analysis, in: context).findings
    }

    /// The rules whose findings are uses of an old API (component and pattern rules): a safe fix
    /// around one it leaves would wrap old code in new. Made once (every file's resolve asks).
    let usageRuleIds: Set<String>

    /// `resolve`, with the findings left out because another rule reports the same code (before
    /// suppressions: the code is reported once, and a suppression of that finding silences it).
    public func resolveShowingShadowed(_ analysis: FileAnalysis, in context: ProjectContext) -> (findings: [Finding], shadowed: [Shadowed]) {
        var (findings, shadowed) = oneFindingPerNode(Self.resolve(analysis, in: context, usageRules: usageRuleIds))
        if let rotation = analysis.rotation {
            for rule in rotatingRules { findings += context.rotation.findings(for: rotation, rule: rule, file: analysis.file) }
            findings.sort(by: Finding.reportOrder)
        }
        return (suppressing(findings, analysis), shadowed)
    }

    private func suppressing(_ findings: [Finding], _ analysis: FileAnalysis) -> [Finding] {
        var findings = findings
        guard !analysis.suppressions.isEmpty else { return findings }
        var used = Set<String>()
        findings.removeAll { finding in
            for suppression in analysis.suppressions {
                guard let id = suppression.silencingId(for: finding) else { continue }
                used.insert("\(suppression.line):\(suppression.column):\(id)")
                return true
            }
            return false
        }
        guard let severity = ruleSet.unusedSuppressionSeverity else { return findings }
        let running = Set(ruleSet.rules.map(\.id))
        for suppression in analysis.suppressions {
            var problems: [(id: String, problem: String)] = []
            if suppression.ruleIds.isEmpty {
                problems.append(("", "it names no rule: write the rule ids it is for, or all"))
            } else if suppression.kind == .enable {
                if !suppression.endsARegion {
                    problems.append((suppression.ruleIds.joined(separator: ", "), "no loadaudit:disable before it disables \(suppression.ruleIds.joined(separator: ", "))"))
                }
            } else {
                for id in suppression.ruleIds where !used.contains("\(suppression.line):\(suppression.column):\(id)") {
                    if id == "all" {
                        problems.append((id, "no finding \(suppression.placeDescription)"))
                    } else if !ruleSet.knownRuleIds.contains(id) {
                        problems.append((id, "it names '\(id)', which is not a rule (known: \(ruleSet.knownRuleIds.sorted().joined(separator: ", ")))"))
                    } else if running.contains(id) {
                        problems.append((id, "no \(id) finding \(suppression.placeDescription)"))
                    }
                    // Otherwise the rule did not run (--rule, or switched off): nothing can be said.
                }
            }
            for (id, problem) in problems {
                let start = SourcePoint(line: suppression.line, column: suppression.column, byteOffset: suppression.byteRange.lowerBound)
                let end = SourcePoint(line: suppression.end.line, column: suppression.end.column, byteOffset: suppression.byteRange.upperBound)
                var finding = Finding(
                    ruleId: UnusedSuppressionRule.id, severity: severity, file: analysis.file, start: start, end: end,
                    symbol: suppression.directive, message: "\(UnusedSuppressionRule.message) (\(problem))", replacement: nil, fix: .manual
                )
                finding.snippet = id
                findings.append(finding)
            }
        }
        return findings.sorted(by: Finding.reportOrder)
    }

    /// The findings of one file, judged with facts from the whole project, before suppressions.
    ///
    /// A rule with `module:` is about that module's name: a use in the module's own files is its
    /// code, not a use (not reported). An unqualified use elsewhere is judged by what the file sees
    /// (`ProjectModel.visibility`): when no module it sees declares the name too, it is the rule's;
    /// when another module it sees does, the use is that module's unless the rule's module is seen
    /// too (then it is ambiguous: kept, at most `unsafe`, the message says why). The file's own
    /// module wins (Swift's own rule) where the module is exact (a package target); an Xcode
    /// project's folder may hold several targets, so there the declaring file's frameworks decide:
    /// an own type built on the rule's module alone (`struct ProgressView: View`) shadows it; one
    /// built on another framework (`class ProgressView: UIView`) is the file's where the file sees
    /// that framework and not the rule's module, the rule's where it sees only the rule's module,
    /// and ambiguous where it sees both. A fix whose replacement needs a module the file does not
    /// see (`replacement-module:`) adds its `import`.
    ///
    /// A safe fix whose span holds a finding of `usageRules` (a use of an old API, of a component or
    /// pattern rule: not a label's wording) that a pass of safe fixes leaves is lowered to `unsafe`.
    public static func resolve(_ analysis: FileAnalysis, in context: ProjectContext, usageRules: Set<String>) -> [Finding] {
        let model = context.model
        let fileModule = model.module(of: analysis.file)
        let visibility = fileModule.map { model.visibility(of: $0, imports: analysis.imports) }
        var settled: [(candidate: Candidate, lowering: (fix: FixClass, reason: String)?, edits: [TextEdit], note: String?)] = []
        for candidate in analysis.candidates {
            let lowering: (fix: FixClass, reason: String)?
            switch judge(candidate, fileModule: fileModule, visibility: visibility, model: model) {
            case .notAUse: continue
            case .use: lowering = nil
            case .ambiguous(let reason): lowering = (.unsafe, reason)
            }
            var edits: [TextEdit] = []
            var note: String?
            if !candidate.replacementModules.isEmpty, max(candidate.finding.fix, lowering?.fix ?? .safe) != .manual, !candidate.finding.edits.isEmpty,
               let insertion = analysis.importInsertion {
                let missing = candidate.replacementModules.filter { name in
                    !(visibility?.sees(name, in: model) ?? analysis.imports.contains(name)) && fileModule.map { model.modules[$0].name } != name
                }
                if !missing.isEmpty {
                    edits = [TextEdit(range: insertion.offset..<insertion.offset, text: insertion.text(importing: missing))]
                    note = "the fix adds " + missing.map { "import \($0)" }.joined(separator: ", ")
                }
            }
            settled.append((candidate, lowering, edits, note))
        }
        let findings = settled.map { $0.candidate.settled(lowering: $0.lowering, adding: $0.edits, because: $0.note) }
        // A safe fix that rewrites code holding another finding its pass leaves (manual, or unsafe)
        // would wrap old code in new (`show(AKToast(...))` where `show` takes the new type): unsafe.
        let staying = StayingFindings(findings.filter { usageRules.contains($0.ruleId) })
        return zip(settled, findings).map { entry, finding in
            guard finding.fix == .safe, let inner = staying.first(inside: entry.candidate.finding) else { return finding }
            let reason = "it rewrites code holding \(inner.ruleId)'s \(inner.symbol) at \(inner.start.line):\(inner.start.column), a finding its fix leaves (\(inner.fix.rawValue)): check the result"
            return entry.candidate.settled(lowering: (.unsafe, reason), adding: entry.edits, because: entry.note)
        }.sorted(by: Finding.reportOrder)
    }

    /// What a candidate is, once the file's place in the project is known.
    enum Verdict {
        /// Someone else's name (another module's, the file's own), or the rule's module's own code.
        case notAUse
        case use
        /// A use of the rule's name, or of another module's of the same name: a person checks which.
        case ambiguous(String)
    }

    private static func judge(_ candidate: Candidate, fileModule: Int?, visibility: ProjectModel.Visibility?, model: ProjectModel) -> Verdict {
        guard let ruleModule = candidate.ruleModule ?? candidate.moduleCheck?.module else {
            return candidate.looksUpHome ? judgeByHome(candidate, fileModule: fileModule, visibility: visibility, model: model) : .use
        }
        // The deprecated module's own code: its declarations, extensions and previews go with it.
        if let fileModule, model.modules[fileModule].name == ruleModule { return .notAUse }
        guard let check = candidate.moduleCheck, let visibility, let fileModule else { return .use }
        let symbol = candidate.finding.symbol
        let owners = (model.declarations[symbol] ?? []).filter { visibility.modules.contains($0.module) && model.modules[$0.module].name != ruleModule }
        guard !owners.isEmpty else { return .use }
        let seesRuleModule = visibility.sees(ruleModule, in: model)
        let own = owners.filter { $0.module == fileModule }
        let others = owners.filter { $0.module != fileModule }
        let bothImported = { (other: Int) in
            Verdict.ambiguous("\(symbol) is declared by \(ruleModule) and by \(model.modules[other].name), both imported here: check which this is")
        }
        guard seesRuleModule else { return .notAUse }
        guard !own.isEmpty else { return bothImported(others[0].module) }
        let ownTypes = own.filter(\.isType)
        let module = model.modules[fileModule]
        // A member of the same name (an extension's `cardStyle`): which one a call takes is for a person.
        if ownTypes.isEmpty { return .ambiguous("\(module.name) declares its own \(symbol) in \(own.map(\.file).sorted()[0]): check that this is \(ruleModule)'s") }
        // A type of the file's own module shadows an imported one (Swift's rule), where the module is exact.
        if !module.kind.isApproximate { return .notAUse }
        let baseModules: Set<String> = [ruleModule, "Foundation", "Swift"]
        let ownerFrameworks = ownTypes.reduce(into: Set<String>()) { $0.formUnion($1.imports) }.subtracting(baseModules)
        // An own type built on the rule's module itself (`struct ProgressView: View`) shadows it everywhere in the module.
        if ownerFrameworks.isEmpty { return .notAUse }
        let seen = check.fileImports.union(visibility.external).union(visibility.modules.map { model.modules[$0].name })
        guard !seen.isDisjoint(with: ownerFrameworks) else { return others.first.map { bothImported($0.module) } ?? .use }
        return .ambiguous("the project declares its own \(symbol) in \(ownTypes.map(\.file).sorted()[0]): check that this is \(ruleModule)'s")
    }
}
