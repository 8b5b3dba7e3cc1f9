import AuditModel
import AuditRules
import Foundation
import SwiftGrammar
import TreeSitter

/// Runs the examples rules carry in their file (`loadaudit rules test`, and the test suite for the
/// built-in files). Each rule runs alone on each example, in memory:
/// - a `match` example must give a finding of the rule starting at each `↓`, and nowhere else; so must
///   the same code after a line of non-ASCII text (positions count bytes and characters apart); the same
///   code in comments, and in a string literal, must give none (SwiftLint checks its examples so);
/// - a `no-match` example must give none;
/// - a `fix` example's `before`, with every fix of the rule applied (any class, pass after pass as
///   `fix` does), must become `after` exactly, parse with no new error, and a second fix of `after`
///   must change nothing (OpenRewrite's recipe tests run twice so); with a `class`, the rule's findings
///   in `before` must all have that fix class. `after` is compared without the `import`s the fix adds
///   (`replacement-module:`; an `after` that writes them out passes too); with `imports`, the fix must
///   add exactly those modules' imports.
public enum RuleExampleChecks {
    /// One example a rule got wrong: which rule, which example (`match 2, in a comment`), and what
    /// happened, with the expected and actual code where that shows it best.
    public struct Failure: CustomStringConvertible, Equatable {
        public let ruleId: String
        public let origin: String
        public let example: String
        public let problem: String
        public let expected: String?
        public let actual: String?

        public var description: String { "\(origin): \(ruleId): \(example): \(problem)" }
    }

    public struct Outcome {
        /// How many checks ran (each variant of each example counts once).
        public var checks = 0
        public var rulesWithExamples = 0
        public var failures: [Failure] = []
        /// Rules that also match another rule's `match` example, where that rule reports (one finding
        /// per piece of code): not a failure, a fact a rules author wants to know.
        public var overlaps: [Overlap] = []
    }

    /// A `match` example of `ruleId` that `otherId` matches too, at the same place; `ruleId` reports it.
    public struct Overlap: CustomStringConvertible, Equatable {
        public let ruleId: String
        public let origin: String
        public let example: String
        public let otherId: String
        public let why: String

        public var description: String { "\(origin): \(ruleId): \(example): \(otherId) matches it too; \(ruleId) reports it (\(why))" }
    }

    public static func run(_ ruleSet: RuleSet) throws -> Outcome {
        var outcome = Outcome()
        let parser = try Parser()
        for rule in ruleSet.rules {
            // A component rule's size contexts carry examples of their own.
            let contexts: [SizeByContext]
            if case .component(let component) = rule.matcher { contexts = component.size?.context ?? [] } else { contexts = [] }
            guard !rule.examples.isEmpty || contexts.contains(where: { !$0.examples.isEmpty }) else { continue }
            outcome.rulesWithExamples += 1
            let engine = RuleEngine(ruleSet: try ruleSet.selecting([rule.id]))
            let check = Checker(rule: rule, engine: engine, parser: parser)
            // A size context's examples: where it decides the size of the rule's findings, and what
            // the fix then writes.
            for (place, context) in contexts.enumerated() where !context.examples.isEmpty {
                let name = "size context \(place + 1) (\(context.size)\(context.why.isEmpty ? "" : ", \(context.why)"))"
                // The markers say where it decides: none in a `no-match` example.
                for (kind, examples) in [("match", context.examples.matching), ("no-match", context.examples.notMatching)] {
                    for (index, example) in examples.enumerated() {
                        outcome.checks += 1
                        outcome.failures += check.decidedBy(place, example, name: "\(name): \(kind) \(index + 1)", origin: context.origin)
                    }
                }
                for (index, pair) in context.examples.fixes.enumerated() {
                    outcome.checks += 2
                    outcome.failures += check.fix(pair.before, expected: pair.after, fixClass: pair.fixClass, imports: pair.imports, name: "\(name): fix \(index + 1)")
                }
            }
            for (index, example) in rule.examples.matching.enumerated() {
                outcome.checks += 4
                outcome.failures += check.matching(example, name: "match \(index + 1)")
            }
            for (index, example) in rule.examples.notMatching.enumerated() {
                outcome.checks += 1
                outcome.failures += check.notMatching(example, name: "no-match \(index + 1)")
            }
            for (index, pair) in rule.examples.fixes.enumerated() {
                outcome.checks += 2
                outcome.failures += check.fix(pair.before, expected: pair.after, fixClass: pair.fixClass, imports: pair.imports, name: "fix \(index + 1)")
            }
        }
        try checkOverlaps(ruleSet, parser: parser, into: &outcome)
        return outcome
    }

    /// Every rule of the set on each `match` example at once, as a scan runs them: where another rule
    /// takes an example's finding (it is more specific, or first), the example's rule never reports
    /// there, which fails; where the example's rule keeps it over others, each other is an overlap.
    static func checkOverlaps(_ ruleSet: RuleSet, parser: Parser, into outcome: inout Outcome) throws {
        let engine = RuleEngine(ruleSet: ruleSet)
        for rule in ruleSet.rules where rule.kind == .component || rule.kind == .pattern {
            for (index, example) in rule.examples.matching.enumerated() {
                let (code, offsets) = Checker.unmarked(example)
                guard let tree = try? parser.parse(SourceText(bytes: Array(code.utf8))) else { continue }
                let analysis = engine.analyze(tree: tree, file: "Example.swift")
                let (_, shadowed) = engine.resolveShowingShadowed(analysis, in: ProjectContext([analysis]))
                let name = "match \(index + 1)"
                var seen = Set<String>()
                for item in shadowed.sorted(by: { $0.finding.ruleId < $1.finding.ruleId }) where offsets.contains(item.finding.start.byteOffset) {
                    if item.finding.ruleId == rule.id, item.by.ruleId != rule.id {
                        outcome.failures.append(Failure(
                            ruleId: rule.id, origin: rule.origin, example: name,
                            problem: "\(item.by.ruleId) reports this code instead (\(engine.precedenceReason(item.by.ruleId, over: rule.id))): this rule never does here",
                            expected: example, actual: nil))
                    } else if item.by.ruleId == rule.id, item.finding.ruleId != rule.id, seen.insert(item.finding.ruleId).inserted {
                        outcome.overlaps.append(Overlap(ruleId: rule.id, origin: rule.origin, example: name, otherId: item.finding.ruleId,
                                                        why: engine.precedenceReason(rule.id, over: item.finding.ruleId)))
                    }
                }
            }
        }
    }

    private struct Checker {
        let rule: Rule
        let engine: RuleEngine
        let parser: Parser

        func failure(_ example: String, _ problem: String, expected: String? = nil, actual: String? = nil) -> Failure {
            Failure(ruleId: rule.id, origin: rule.origin, example: example, problem: problem, expected: expected, actual: actual)
        }

        /// The rule's findings in `code`, and the file's syntax errors.
        func findings(_ code: String) -> (findings: [Finding], syntaxErrors: Int) {
            findings(Array(code.utf8))
        }

        /// Without `addingImports`, the fixes leave out the `import`s they would add (what an example's
        /// `after` is compared with).
        func findings(_ bytes: [UInt8], addingImports: Bool = true) -> (findings: [Finding], syntaxErrors: Int) {
            guard let tree = try? parser.parse(SourceText(bytes: bytes)) else { return ([], Int.max) }
            var analysis = engine.analyze(tree: tree, file: "Example.swift")
            if !addingImports { analysis.importInsertion = nil }
            let findings = engine.resolve(analysis, in: ProjectContext([analysis])).filter { $0.ruleId == rule.id }
            return (findings, analysis.syntaxErrors.count)
        }

        /// The code without its markers, and the byte offset of each marker in it.
        fileprivate static func unmarked(_ example: String) -> (code: String, offsets: [Int]) {
            var code = ""
            var offsets: [Int] = []
            var remaining = Substring(example)
            while let range = remaining.range(of: RuleExamples.marker) {
                code += remaining[..<range.lowerBound]
                offsets.append(code.utf8.count)
                remaining = remaining[range.upperBound...]
            }
            return (code + remaining, offsets)
        }

        /// Code with each finding's start marked, for showing what was found.
        static func marked(_ code: String, at offsets: [Int]) -> String {
            var bytes = Array(code.utf8)
            for offset in offsets.sorted(by: >) where offset <= bytes.count { bytes.insert(contentsOf: Array(RuleExamples.marker.utf8), at: offset) }
            return String(decoding: bytes, as: UTF8.self)
        }

        func matching(_ example: String, name: String) -> [Failure] {
            var failures: [Failure] = []
            let (code, expected) = Self.unmarked(example)
            let found = findings(code).findings.map(\.start.byteOffset).sorted()
            if found != expected {
                failures.append(failure(name, "the findings are not where the markers are", expected: example, actual: Self.marked(code, at: found)))
            }
            // After a line of characters of two to four bytes: the same findings, moved by that line.
            let line = "// Ünïcödé 日本語 ✓ 🚀\n"
            let shifted = findings(line + code).findings.map { $0.start.byteOffset - line.utf8.count }.sorted()
            if shifted != expected {
                failures.append(failure(name + ", after a line of non-ASCII text", "the findings moved or changed",
                                        expected: example, actual: Self.marked(code, at: shifted)))
            }
            let commented = code.split(separator: "\n", omittingEmptySubsequences: false).map { "// " + $0 }.joined(separator: "\n")
            if let first = findings(commented).findings.first {
                failures.append(failure(name + ", in comments", "a finding in a comment, at line \(first.start.line)", actual: commented))
            }
            let quoted = "let example = #\"\"\"\n" + code + "\n\"\"\"#\n"
            if let first = findings(quoted).findings.first {
                failures.append(failure(name + ", in a string literal", "a finding in a string, at line \(first.start.line)", actual: quoted))
            }
            return failures
        }

        /// The findings whose size the rule's size context `place` decides must start at the markers
        /// (none for an example without one).
        func decidedBy(_ place: Int, _ example: String, name: String, origin: String) -> [Failure] {
            let (code, expected) = Self.unmarked(example)
            guard let tree = try? parser.parse(SourceText(bytes: Array(code.utf8))) else { return [failure(name, "the example does not parse")] }
            let analysis = engine.analyze(tree: tree, file: "Example.swift")
            let reported = Set(engine.resolve(analysis, in: ProjectContext([analysis])).filter { $0.ruleId == rule.id }.map(\.start.byteOffset))
            let decided = analysis.candidates.filter { $0.finding.ruleId == rule.id && $0.sizeContext == place && reported.contains($0.finding.start.byteOffset) }
                .map(\.finding.start.byteOffset).sorted()
            guard decided != expected else { return [] }
            return [Failure(ruleId: rule.id, origin: origin.isEmpty ? rule.origin : origin, example: name,
                            problem: expected.isEmpty ? "the size context decides a finding's size here" : "the size context does not decide the sizes where the markers are",
                            expected: example, actual: Self.marked(code, at: decided))]
        }

        func notMatching(_ example: String, name: String) -> [Failure] {
            let found = findings(example).findings
            guard !found.isEmpty else { return [] }
            return [failure(name, "\(counted(found.count, "finding")) where none belongs", actual: Self.marked(example, at: found.map(\.start.byteOffset)))]
        }

        /// The modules a file imports.
        func imports(_ bytes: [UInt8]) -> Set<String> {
            guard let tree = try? parser.parse(SourceText(bytes: bytes)) else { return [] }
            return engine.analyze(tree: tree, file: "Example.swift").imports
        }

        func fix(_ before: String, expected after: String, fixClass: FixClass?, imports expectedImports: [String]?, name: String) -> [Failure] {
            if let fixClass {
                let classes = findings(before).findings.map(\.fix)
                if classes.isEmpty { return [failure(name, "no finding of the rule, of class \(fixClass.rawValue) or any other", actual: before)] }
                if classes.contains(where: { $0 != fixClass }) {
                    let found = Set(classes).map(\.rawValue).sorted().joined(separator: " and ")
                    return [failure(name, "the fix class is \(found), not \(fixClass.rawValue)", actual: before)]
                }
            }
            // The fix as `fix` makes it, imports and all: it must parse and settle, and add the imports
            // the example names; `after` is then compared with the same fix leaving the imports out.
            let original = Array(before.utf8)
            let (fixed, problem) = applyingFixes(original)
            if let problem { return [failure(name, problem, expected: after, actual: before)] }
            let added = imports(fixed).subtracting(imports(original)).sorted()
            if let expectedImports, added != expectedImports.sorted() {
                let shown = { (names: [String]) in names.isEmpty ? "none" : names.map { "import \($0)" }.joined(separator: ", ") }
                return [failure(name, "the fix adds \(shown(added)), not \(shown(expectedImports.sorted()))", expected: after, actual: String(decoding: fixed, as: UTF8.self))]
            }
            let (withoutImports, _) = applyingFixes(original, addingImports: false)
            let text = String(decoding: withoutImports, as: UTF8.self)
            guard text == after || String(decoding: fixed, as: UTF8.self) == after else {
                return [failure(name, "the fix gives other code", expected: after, actual: text)]
            }
            let (again, _) = applyingFixes(fixed)
            guard again == fixed else {
                return [failure(name + ", fixed again", "a second fix changes the fixed code", expected: after, actual: String(decoding: again, as: UTF8.self))]
            }
            return []
        }

        /// Every fix of the rule applied, pass after pass, as `fix --unsafe` does (the same loop); or why not.
        func applyingFixes(_ original: [UInt8], addingImports: Bool = true) -> ([UInt8], String?) {
            let (found, allowedErrors) = findings(original, addingImports: addingImports)
            let outcome = FixPlanner.rewrite(original, findings: found, allowedErrors: allowedErrors, maximumPasses: 8,
                                             isApplicable: { !$0.edits.isEmpty }) { findings($0, addingImports: addingImports) }
            switch outcome {
            case .settled(let bytes, _, _, _): return (bytes, nil)
            case .refused(.doesNotParse, _, let lastGood): return (lastGood, "the rewrite would not parse")
            case .refused(.doesNotSettle, _, let lastGood): return (lastGood, "the rewrite did not settle after 8 passes")
            }
        }
    }
}
