import AuditModel
import Foundation
import SwiftGrammar
import TreeSitter

/// What the engine found in one file, before facts from the other files are known.
public struct FileAnalysis: Sendable, Codable {
    public let file: String
    public let candidates: [Candidate]
    public let topLevelTypes: Set<String>
    public let imports: Set<String>
    public let exportedImports: Set<String>
    /// Syntax errors the file really has (not the grammar's known gaps).
    public let syntaxErrors: [TextPosition]
    public let suppressions: [Suppression]
    /// For `rotating-text` rules: what this file contributes to the project-wide picture.
    public let rotation: RotationFacts?

    /// Whether it can neither hold a finding nor tell anything about other files: no candidate, no
    /// suppression, no type declared, no module re-exported, no rotating-text fact (most files of a
    /// large tree, never parsed).
    /// Whether findings may be reported in it: a candidate, a suppression (it may be unused), a
    /// display of rotating text.
    public var mayHoldFindings: Bool {
        !candidates.isEmpty || !suppressions.isEmpty || !(rotation?.displays.isEmpty ?? true)
    }

    var contributesNothing: Bool {
        candidates.isEmpty && suppressions.isEmpty && topLevelTypes.isEmpty && exportedImports.isEmpty && (rotation?.isEmpty ?? true)
    }
}

/// A finding that may still be dropped or downgraded once every file is known: an unqualified use of
/// a name from another module (`ProgressView`) means something else if the project declares its own.
public struct Candidate: Sendable, Codable {
    public internal(set) var finding: Finding
    public let moduleCheck: ModuleCheck?
    /// The rule's message and the reasons that lowered the fix class, kept apart to add more later.
    let ruleMessage: String
    let reasons: [String]

    init(finding: Finding, moduleCheck: ModuleCheck?, ruleMessage: String, reasons: [String]) {
        self.finding = finding
        self.moduleCheck = moduleCheck
        self.ruleMessage = ruleMessage
        self.reasons = reasons
    }

    static func message(_ ruleMessage: String, reasons: [String]) -> String {
        reasons.isEmpty ? ruleMessage : "\(ruleMessage) (\(reasons.joined(separator: "; ")))"
    }

    func lowered(to fix: FixClass, because reason: String) -> Candidate {
        Candidate(finding: downgraded(to: fix, because: reason), moduleCheck: moduleCheck, ruleMessage: ruleMessage, reasons: reasons + [reason])
    }

    func downgraded(to fix: FixClass, because reason: String) -> Finding {
        let finding = self.finding
        return Finding(
            ruleId: finding.ruleId, severity: finding.severity, file: finding.file, start: finding.start, end: finding.end,
            symbol: finding.symbol, message: Candidate.message(ruleMessage, reasons: reasons + [reason]),
            replacement: finding.replacement, fix: max(finding.fix, fix), edits: finding.edits
        )
    }

    public struct ModuleCheck: Sendable, Codable {
        public let module: String
        public let fileImports: Set<String>
    }
}

/// Matches rules on syntax trees. Immutable: one engine serves every thread.
public struct RuleEngine: Sendable {
    public let ruleSet: RuleSet
    private let rulesByComponent: [String: [Rule]]

    /// Whether the grammar took the name out of a longer word: after a modifier, its error recovery
    /// reads `final classThemedSpinner` as `class ThemedSpinner` (the same for `struct`, `func`, `var`,
    /// `let`, `enum`, `extension`, `import` and more). No Swift compiler sees a name there, and nothing
    /// that looks for whole words (the prefilter, a search) does either: such a name is no use of a
    /// component. A digit before it is no part of the word (`0ProgressView` is a number and a name), as
    /// the prefilter's lexer and word screen read it; `RotationFacts.isWholeWord`, which drops rotation facts
    /// of cut names, is stricter there on purpose (it drops the name after digits too).
    static func isCutOutOfALongerWord(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        (range.lowerBound > 0 && WordSieve.startsAWord(bytes[range.lowerBound - 1]))
            || (range.upperBound < bytes.count && Lexer.isNameByte[Int(bytes[range.upperBound])])
    }

    /// `skipsUnmarkedSubtrees: false` walks whole trees, as a check that skipping changes nothing.
    public init(ruleSet: RuleSet, skipsUnmarkedSubtrees: Bool = true) {
        self.ruleSet = ruleSet
        self.skipsUnmarkedSubtrees = skipsUnmarkedSubtrees
        rulesByComponent = Dictionary(grouping: ruleSet.rules.filter { $0.kind == .component }, by: \.component)
        rotatingRules = ruleSet.rules.filter { $0.kind == .rotatingText }
        labelRules = ruleSet.rules.filter { $0.kind == .labelStyle }
        let triggerWords = Self.triggerWords(components: rulesByComponent.keys, labelRules: labelRules)
        triggerWordSet = WordSet(triggerWords)
        determinateWatch = Self.determinateWatch(rulesByComponent: rulesByComponent, labelRules: labelRules)
        displayCalls = rotatingRules.reduce(into: Set<String>()) { $0.formUnion($1.displayCalls) }
        displayCallWords = WordSet(displayCalls)
        let labelComponents = labelRules.flatMap { $0.labelStyle?.components ?? [] }
        walkWords = Set(rulesByComponent.keys).union(labelComponents).map { Array($0.utf8) }
        let rotating = !rotatingRules.isEmpty
        wordScreen = WordSieve(groups: triggerWords.map { [$0] } + (rotating ? RotationFollower.choosingWords(displayCalls: displayCalls) : []),
                           setAside: rotating ? [RotationFollower.textEnumNames] : [])
    }

    /// The names `analyze`'s walk reports: the components and the label components. A subtree
    /// without one of them holds nothing to report (nor needs a protected declaration's skip).
    private let walkWords: [[UInt8]]
    private let skipsUnmarkedSubtrees: Bool

    private let rotatingRules: [Rule]
    private let labelRules: [Rule]
    /// `triggerWords`, hashed once: asked of every file.
    private let triggerWordSet: WordSet

    /// The trigger names that a call of determinate progress leaves without a finding (`ProgressView`):
    /// every rule acting on the name has a `determinate` form, and the labels all of them accept make
    /// a call determinate. A style that spins determinate progress (`ThemedSpinnerStyle`) still makes
    /// one a finding, so the watch knows the rules' style modifiers too. Nil when no name qualifies.
    private let determinateWatch: DeterminateWatch?

    private static func determinateWatch(rulesByComponent: [String: [Rule]], labelRules: [Rule]) -> DeterminateWatch? {
        var labels: [UInt64: Set<UInt64>] = [:]
        var styles: [String: [StyleCheck]] = [:]
        let names = Set(rulesByComponent.keys).union(labelRules.flatMap { $0.labelStyle?.components ?? [] })
        for name in names where !name.isEmpty && name.utf8.allSatisfy({ Lexer.isNameByte[Int($0)] }) {
            let rules = (rulesByComponent[name] ?? []) + labelRules.filter { $0.labelStyle?.components.contains(name) == true }
            let forms = rules.compactMap(\.determinate)
            guard !rules.isEmpty, forms.count == rules.count else { continue }
            let accepted = forms.dropFirst().reduce(forms[0].arguments) { $0.intersection($1.arguments) }
            guard !accepted.isEmpty else { continue }
            labels[WordHash.ofName(name)] = Set(accepted.map(WordHash.ofName))
            for rule in rules { if let style = rule.style { styles[style.modifier, default: []].append(style) } }
        }
        guard !labels.isEmpty else { return nil }
        // As `UsageMatcher` decides: a style spins determinate progress when it is no spinner style of
        // the rule's list and its name matches the rule's spinning-style names.
        let spinning = Dictionary(uniqueKeysWithValues: styles.map { modifier, checks in
            (WordHash.ofName(modifier), { @Sendable (name: String) in checks.contains { !$0.spinnerStyles.contains(name) && $0.isSpinning(name) } })
        })
        return DeterminateWatch(labels: labels, spinningStyles: spinning)
    }

    /// Words one of which a file must mention to be parsed on sight: the components' names, the
    /// label components, suppression and re-export markers. Files with displays, clocks and text
    /// enums are picked later, by `RotationFollower`, only where the names line up (a display of
    /// `tips.randomElement()` too: only where `tips` may be a string array).
    public var triggerWords: [String] {
        Self.triggerWords(components: rulesByComponent.keys, labelRules: labelRules)
    }

    private static func triggerWords(components: some Sequence<String>, labelRules: [Rule]) -> [String] {
        var words = Set(components)
        for rule in labelRules { words.formUnion(rule.labelStyle?.components ?? []) }
        words.formUnion(["loadaudit:", "@_exported"])
        return words.sorted()
    }

    /// Whether a file must be parsed, from its name index and, when that shows a trigger word, a
    /// closer reading at where the word stands (see `ProjectScanner`). A word only in comments or
    /// strings (`// was ProgressView`) makes nothing to report, except the suppression marker, which
    /// lives in comments; nor does a name only ever called as determinate progress (see
    /// `determinateWatch`). For rotating text, a file must be parsed also when it may declare a string
    /// array whose name neither the lexer nor the closer reading (`DeclaredStringArrays`) could tell:
    /// the other rounds match every file against the possible arrays' names.
    public func isRelevantOnSight(_ nameIndex: FileNameIndex, bytes: [UInt8]) -> Bool {
        if !rotatingRules.isEmpty, nameIndex.mayDeclareStringArray, nameIndex.boundArrayNames.hashes == nil { return true }
        guard nameIndex.mentionsAny(triggerWordSet) else { return false }
        // A name used only in calls of determinate progress (`ProgressView(value: 0.4)`) has nothing
        // to report, unless a style in the file may make one spin.
        let watch = determinateWatch.flatMap { watch in watch.labels.keys.contains(where: nameIndex.mentions(hash:)) ? watch : nil }
        guard let words = CodeWords(bytes: bytes, determinate: watch) else { return true }
        return words.usesAnyInCode(triggerWordSet, orInComments: Self.commentTriggerParts, notCounting: words.onlyInDeterminateCalls)
    }

    /// The suppression marker's name: a trigger in comments too.
    private static let commentTriggerParts = Set(WordSet.parts(of: "loadaudit:"))

    /// Whether a file is sure to need no nameIndex: valid UTF-8 with no NUL byte (anything else is
    /// reported from its name index), none of the trigger words, and, with rotating-text rules, nothing
    /// `mayFollow` looks for (no display call, clock or `enum` with `switch`, no `[` that may start a
    /// string array), each as a whole word anywhere, comments and strings included. Such a file is
    /// neither relevant on sight nor followed, whatever its name index would say; the scanner then
    /// skips the lexer. False when the rules' words do not suit the look (see `WordSieve`).
    public func isIrrelevantByItsWords(_ bytes: [UInt8]) -> Bool { wordScreen(bytes) == .irrelevant }

    /// What the quick look at a file's bytes tells (see `wordScreen(_:)`).
    public enum WordScreen: Sendable {
        /// Nothing a rule or round asks about (`isIrrelevantByItsWords`).
        case irrelevant
        /// `enum` and `switch`, and nothing else a rule or round asks about: the file may hold a text
        /// enum, which matters only if it declares a case some clock may assign (then it needs its
        /// name index; `ProjectScanner` puts the lexer off until that is known).
        case onlyTextEnumWords
        /// Anything else: the file needs its name index.
        case worthALook
    }

    /// `isIrrelevantByItsWords`, telling apart the files whose only asked words are `enum` and `switch`
    /// (with the same other conditions: no `[` that may start a string array, UTF-8 without NUL).
    public func wordScreen(_ bytes: [UInt8]) -> WordScreen {
        guard let wordScreen else { return .worthALook }
        return bytes.withUnsafeBufferPointer { bytes in
            let sighting = wordScreen.sighting(in: bytes)
            guard sighting != .other, rotatingRules.isEmpty || !WordSieve.mayStartAStringArray(bytes), WordSieve.isTextWithoutNUL(bytes) else {
                return .worthALook
            }
            return sighting == .none ? .irrelevant : .onlyTextEnumWords
        }
    }

    private let wordScreen: WordSieve?

    /// Whether `RotationFollower` may ask about this file in a round (see there): only then must its
    /// name index be kept.
    public func mayFollow(_ nameIndex: FileNameIndex) -> Bool {
        !rotatingRules.isEmpty && RotationFollower.mayChoose(nameIndex, displayCalls: displayCallWords)
    }

    /// Whether this file may make the rotating-text rounds run (see `RotationFollower.mayStartRounds`).
    public func mayStartRounds(_ nameIndex: FileNameIndex) -> Bool {
        !rotatingRules.isEmpty && RotationFollower.mayStartRounds(nameIndex)
    }

    /// What follows rotating text across files, when the rules have any (see `ProjectScanner`).
    public func rotationFollower() -> RotationFollower? {
        rotatingRules.isEmpty ? nil : RotationFollower(displayCalls: displayCalls)
    }

    /// The rotating-text rules' display calls (`Text`), as names and hashed, for every file's walk.
    private let displayCalls: Set<String>
    private let displayCallWords: WordSet

    /// An analysis for a file no rule can find anything in, made without parsing it.
    public func emptyAnalysis(file: String) -> FileAnalysis {
        FileAnalysis(file: file, candidates: [], topLevelTypes: [], imports: [], exportedImports: [], syntaxErrors: [],
                     suppressions: [], rotation: rotatingRules.isEmpty ? nil : RotationFacts())
    }

    /// The file's candidates and facts. With its `nameIndex`, the walks skip what the file's words
    /// show it cannot hold (the result is the same, sooner).
    public func analyze(tree: Tree, file: String, nameIndex: FileNameIndex? = nil) -> FileAnalysis {
        let facts = SwiftFileFacts(tree: tree)
        var candidates: [Candidate] = []
        let protected = ruleSet.protectedNames
        let labelComponents = labelRules.reduce(into: Set<String>()) { $0.formUnion($1.labelStyle?.components ?? []) }
        let wordOffsets = skipsUnmarkedSubtrees ? WordOffsets(tree.source, words: walkWords) : .everywhere
        tree.rootNode.walk(withAncestors: { node, path in
            // Everything this walk reports holds one of the names it matches.
            guard wordOffsets.anyStart(in: node.byteRange) else { return false }
            switch node.type {
            case "call_expression" where !labelComponents.isEmpty:
                if let name = SwiftCall.calleeName(of: node), labelComponents.contains(name), let call = SwiftCall(node) {
                    for rule in labelRules where rule.labelStyle?.components.contains(name) == true {
                        if var candidate = LabelStyleCheck(rule: rule, file: file, source: tree.source).check(call) {
                            candidate.finding.scope = SwiftDeclarations.scopePath(ancestors: path.reversed())
                            candidate.finding.snippet = Self.snippet(tree.source, candidate.finding)
                            candidates.append(candidate)
                        }
                    }
                }
                return true
            case "class_declaration", "protocol_declaration":
                if let name = SwiftDeclarations.declaredName(of: node), protected.contains(name.text) { return false }
                return true
            case "simple_identifier", "type_identifier":
                guard let rules = rulesByComponent[node.text], !Self.isCutOutOfALongerWord(node.byteRange, in: tree.source.bytes) else { return false }
                // Inside a region the parser could not read, the tree is a guess: report what looks like a
                // use (a whole file can sit in one ERROR node), but never rewrite it without a human glance.
                let inBrokenRegion = !facts.syntaxErrors.isEmpty && path.contains { $0.isError }
                let ancestors = Array(path.reversed())
                for rule in rules {
                    guard var candidate = UsageMatcher(rule: rule, sizes: ruleSet.sizes, file: file, source: tree.source, facts: facts)
                        .match(node, ancestors: ancestors) else { continue }
                    candidate.finding.scope = SwiftDeclarations.scopePath(ancestors: ancestors)
                    candidate.finding.snippet = Self.snippet(tree.source, candidate.finding)
                    candidates.append(inBrokenRegion
                        ? candidate.lowered(to: .unsafe, because: "in a region with a syntax error: check the code around it")
                        : candidate)
                }
                return false
            default:
                return true
            }
        })
        return FileAnalysis(
            file: file,
            candidates: candidates,
            topLevelTypes: facts.topLevelTypes,
            imports: facts.imports,
            exportedImports: facts.exportedImports,
            syntaxErrors: facts.syntaxErrors.map(\.position),
            suppressions: Suppression.collect(in: tree, skipsUnmarkedSubtrees: skipsUnmarkedSubtrees),
            rotation: rotatingRules.isEmpty ? nil : rotationFacts(tree: tree, file: file, nameIndex: nameIndex)
        )
    }

    /// The rotating-text facts of a file, walking only the subtrees that hold a word of the kinds its
    /// name index leaves possible.
    private func rotationFacts(tree: Tree, file: String, nameIndex: FileNameIndex?) -> RotationFacts {
        let hints = nameIndex.map { RotationFacts.Hints($0, displayCalls: displayCallWords) } ?? .everything
        return RotationFacts(tree: tree, file: file, displayCalls: displayCalls,
                             walkWords: skipsUnmarkedSubtrees ? RotationFacts.walkWords(displayCalls: displayCalls, hints: hints) : nil, hints: hints)
    }

    /// The span's code with every run of blanks and line breaks folded to one space, at most 120 characters.
    static func snippet(_ source: SourceText, _ finding: Finding) -> String {
        let text = source.text(finding.start.byteOffset..<finding.end.byteOffset)
        let folded = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
        return folded.count > 120 ? String(folded.prefix(120)) : folded
    }

    /// Settles the candidates of all files against each other and returns the findings in report order.
    public func resolve(_ analyses: [FileAnalysis]) -> [Finding] {
        // Only the files that can matter: going through every empty analysis of a large tree took
        // milliseconds on the thread the report waits for.
        let contributing = analyses.filter { !$0.contributesNothing }
        let context = ProjectContext(contributing)
        return contributing.flatMap { resolve($0, in: context) }.sorted(by: Finding.reportOrder)
    }

    /// The findings of one file after its suppression comments, plus one `unused-suppression` finding
    /// for each suppression (or rule id in it) that silenced nothing.
    public func resolve(_ analysis: FileAnalysis, in context: ProjectContext) -> [Finding] {
        var findings = Self.resolve(analysis, in: context)
        if let rotation = analysis.rotation {
            for rule in rotatingRules { findings += context.rotation.findings(for: rotation, rule: rule, file: analysis.file) }
            findings.sort(by: Finding.reportOrder)
        }
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
    /// When the project declares its own type named like a module's component, an unqualified use is
    /// judged by imports. An own type built on the module itself (its file imports nothing else, e.g.
    /// `struct ProgressView: View`) shadows the module's everywhere: dropped. An own type built on
    /// another framework (`class ProgressView: UIView`, its file imports UIKit): a file without the
    /// module uses the app's (dropped); a file with the module but not that framework uses the
    /// module's (kept); a file with both is ambiguous (kept, fix at most `unsafe`, and the message
    /// says why).
    public static func resolve(_ analysis: FileAnalysis, in context: ProjectContext) -> [Finding] {
        var findings: [Finding] = []
        for candidate in analysis.candidates {
            guard let check = candidate.moduleCheck, let owners = context.declarations[candidate.finding.symbol] else {
                findings.append(candidate.finding)
                continue
            }
            let imports = check.fileImports.union(context.exportedImports)
            guard imports.contains(check.module) else { continue }
            let baseModules: Set<String> = [check.module, "Foundation", "Swift"]
            let ownerFrameworks = owners.reduce(into: Set<String>()) { $0.formUnion($1.imports) }.subtracting(baseModules)
            // An own type built on the module itself (`struct ProgressView: View`) shadows the module's
            // everywhere in the app: unqualified uses are the app's.
            if ownerFrameworks.isEmpty { continue }
            guard !imports.isDisjoint(with: ownerFrameworks) else {
                findings.append(candidate.finding)
                continue
            }
            let owner = owners.map(\.file).sorted()[0]
            findings.append(candidate.downgraded(
                to: .unsafe,
                because: "the project declares its own \(candidate.finding.symbol) in \(owner): check that this is \(check.module)'s"
            ))
        }
        return findings.sorted(by: Finding.reportOrder)
    }
}

/// What every file needs to know about the others: who declares which top-level types, with which
/// imports, and which modules are re-exported to all files.
public struct ProjectContext: Sendable {
    public struct Declaration: Sendable {
        public let file: String
        public let imports: Set<String>
    }

    public let declarations: [String: [Declaration]]
    public let exportedImports: Set<String>
    public let rotation: RotationIndex

    public init(_ analyses: [FileAnalysis]) {
        var declarations: [String: [Declaration]] = [:]
        var exported: Set<String> = []
        for analysis in analyses {
            for name in analysis.topLevelTypes {
                declarations[name, default: []].append(Declaration(file: analysis.file, imports: analysis.imports))
            }
            exported.formUnion(analysis.exportedImports)
        }
        self.declarations = declarations
        exportedImports = exported
        rotation = RotationIndex(analyses.compactMap(\.rotation))
    }
}
