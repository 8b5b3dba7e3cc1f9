import AuditFix
import AuditModel
import AuditProject
import AuditRules
import AuditScan
import Foundation
import TreeSitter

/// The fix's steps after the scan: per file, plan the edits of the findings to apply (`EditPlan`,
/// pure byte work), parse the rewrite again to verify it adds no syntax error, and repeat until
/// nothing changes. Writes nothing: the command line writes the plan (`FixPlan`).
public struct FixPlanner {
    public struct Options {
        /// The fix classes to apply: `[.safe]`, or `[.safe, .unsafe]` with `--unsafe`.
        public var classes: Set<FixClass>
        /// Nested usages need one pass per level; a rewrite that never settles is refused.
        public var maximumPasses: Int
        /// Only the findings it accepts are applied (one finding's quick fix in an editor); nil: all
        /// of the classes.
        public var selects: (@Sendable (Finding) -> Bool)?

        public init(classes: Set<FixClass> = [.safe], maximumPasses: Int = 8) {
            self.classes = classes
            self.maximumPasses = maximumPasses
        }
    }

    /// What happened to one file with something to fix.
    public struct FileResult {
        public enum Outcome: Equatable {
            /// Rewritten (or, in a dry run, would be).
            case fixed
            /// Left untouched: the rewrite would not parse, or did not settle.
            case refused(reason: String, ruleId: String, line: Int, column: Int)
            /// The rewrite was fine but could not be written (set by the writer).
            case notWritten(reason: String)
        }

        public let file: String
        public let absolutePath: String
        public let original: [UInt8]
        public let fixed: [UInt8]
        public let editsByRule: [String: Int]
        /// The edits applied, pass by pass: where the rewrite's lines and findings were before it, and
        /// its diff.
        public let applied: AppliedEdits
        public var outcome: Outcome

        /// The unified diff of the rewrite (nil when it changes nothing), made from the applied edits
        /// (`UnifiedDiff`: the lines they left alone are kept without comparing the texts); with
        /// `colour`, coloured as git colours a diff. What `fix --dry-run` prints.
        public func diff(colour: Bool) -> String? {
            UnifiedDiff.make(path: file, old: original, new: fixed, applied: applied, colour: colour)
        }
    }

    /// A finding a fix leaves, and where it starts in its file as the fix found it.
    public struct Left {
        /// In the rewritten text where the file changed.
        public let finding: Finding
        /// Before the fix (what `scan` says, and the file as a dry run leaves it): the finding's own
        /// start where the rewrite kept its code; where the rewrite starts, for a finding only the
        /// rewritten code holds (see `AppliedEdits.originalOffset`).
        public let startAsFound: SourcePoint
    }

    /// What a fix would do: the scan, each file's rewrite, and what is left for people.
    public struct Plan {
        /// The scan before any change.
        public let scan: ScanResult
        public var files: [FileResult]
        /// The findings left once the fixes are applied, in report order (of the rewritten text).
        public let left: [Left]
        /// The findings left, in the rewritten text where a file changed.
        public var remaining: [Finding] { left.map(\.finding) }
        /// The project model the scan judged the files in (their modules, for `fix --split-by module`).
        public var model: ProjectModel?
    }

    public let scanner: ProjectScanner
    public let options: Options

    public init(scanner: ProjectScanner, options: Options) {
        self.scanner = scanner
        self.options = options
    }

    /// Plans the fix of the files under `paths`, judged with the facts of the project folder `root`
    /// around them (see `ProjectScanner.scanFiles`).
    public func plan(_ paths: [String], within root: String? = nil) throws -> Plan {
        let (scan, scanned, context) = try scanner.scanFiles(paths, within: root, keepSources: true)
        let findingsByFile = Dictionary(grouping: scan.findings, by: \.file)
        var toFix: [(file: ProjectScanner.ScannedFile, source: SourceText, findings: [Finding])] = []
        var remaining: [Finding] = []
        // Every file read gave the context its facts; only those asked for are fixed, starting from
        // the scan's findings (resolved in that context).
        for file in scanned where file.inScope {
            guard let source = file.source else { continue }
            let findings = findingsByFile[file.reference.displayPath] ?? []
            guard findings.contains(where: isApplicable) else {
                remaining += findings
                continue
            }
            toFix.append((file, source, findings))
        }
        // Each file is rewritten and parsed again on its own: on every core, one parser each, the
        // results in the files' order whatever the workers.
        let parsers = try (0..<min(scanner.jobs, max(1, toFix.count))).map { _ in try Parser() }
        let fixed = ParallelMap.map(count: toFix.count, contexts: parsers) { parser, index in
            fix(toFix[index].file, source: toFix[index].source, findings: toFix[index].findings, context: context, parser: parser)
        }
        var results: [FileResult] = []
        var left = remaining.map { Left(finding: $0, startAsFound: $0.start) }
        for case let (result, leftInFile)? in fixed {
            results.append(result)
            left += leftInFile
        }
        return Plan(scan: scan, files: results, left: left.sorted { Finding.reportOrder($0.finding, $1.finding) }, model: context.model)
    }

    private func isApplicable(_ finding: Finding) -> Bool {
        options.classes.contains(finding.fix) && !finding.edits.isEmpty && (options.selects?(finding) ?? true)
    }

    /// Rewrites one file in memory, pass after pass, checking each pass re-parses with no new error.
    private func fix(
        _ file: ProjectScanner.ScannedFile, source: SourceText, findings: [Finding], context: ProjectContext, parser: Parser
    ) -> (FileResult, [Left]) {
        let original = source.bytes
        let reread = { (bytes: [UInt8]) -> (findings: [Finding], syntaxErrors: Int)? in
            guard let tree = try? parser.parse(SourceText(bytes: bytes)) else { return nil }
            let analysis = scanner.engine.analyze(tree: tree, file: file.reference.displayPath)
            return (scanner.engine.resolve(analysis, in: context), analysis.syntaxErrors.count)
        }
        let outcome = Self.rewrite(original, findings: findings, allowedErrors: file.analysis.syntaxErrors.count,
                                   maximumPasses: options.maximumPasses, isApplicable: isApplicable, reread: reread)
        switch outcome {
        case .settled(var fixed, let editsByRule, var left, var passes):
            // The imports of the rules' modules the rewrite left unused go too, when it still parses.
            let removals = importRemovals(fixed, file: file.reference.displayPath, fixedRules: Set(editsByRule.keys), context: context, parser: parser)
            if !removals.isEmpty {
                let next = EditPlan.apply(removals, to: fixed)
                if let again = reread(next), again.syntaxErrors <= file.analysis.syntaxErrors.count {
                    fixed = next
                    left = again.findings
                    passes.append(removals)
                }
            }
            let applied = AppliedEdits(passes)
            // Where each finding left was before the fix: the scan's own finding of the same rule and
            // message nearest to where the rewrite maps it (a label inside a rewritten call keeps the
            // label's place, not the rewrite's start); else that mapped place.
            var unplaced = findings
            let placed = left.map { finding in
                let offset = applied.originalOffset(of: finding.start.byteOffset)
                let same = unplaced.indices.filter { unplaced[$0].ruleId == finding.ruleId && unplaced[$0].message == finding.message }
                if let nearest = same.min(by: { abs(unplaced[$0].start.byteOffset - offset) < abs(unplaced[$1].start.byteOffset - offset) }) {
                    return Left(finding: finding, startAsFound: unplaced.remove(at: nearest).start)
                }
                let position = source.position(ofByte: offset)
                return Left(finding: finding, startAsFound: SourcePoint(line: position.line, column: position.column, byteOffset: offset))
            }
            return (FileResult(file: file.reference.displayPath, absolutePath: file.reference.absolutePath, original: original,
                               fixed: fixed, editsByRule: editsByRule, applied: applied, outcome: .fixed), placed)
        case .refused(let reason, let finding, _):
            let text = reason == .doesNotParse ? "rewrite would not parse" : "rewrite did not settle after \(options.maximumPasses) passes"
            let refused = FileResult.Outcome.refused(reason: text, ruleId: finding.ruleId, line: finding.start.line, column: finding.start.column)
            return (FileResult(file: file.reference.displayPath, absolutePath: file.reference.absolutePath, original: original,
                               fixed: original, editsByRule: [:], applied: AppliedEdits([]), outcome: refused), findings.map { Left(finding: $0, startAsFound: $0.start) })
        }
    }

    /// How a rewrite ends: the rewritten bytes with the edits applied per rule, the findings left in
    /// them and each pass's edits (in the text before that pass); or refused, with the finding it
    /// stopped at and the bytes of the last pass that was fine.
    enum Rewrite {
        enum Refusal { case doesNotParse, doesNotSettle }
        case settled([UInt8], editsByRule: [String: Int], findings: [Finding], passes: [[TextEdit]])
        case refused(Refusal, Finding, lastGood: [UInt8])
    }

    /// The one pass loop of a fix (`fix`, and `rules test`'s fix examples): each pass applies the
    /// applicable findings whose edits go together (`EditPlan`), and `reread` gives the rewrite's
    /// findings and syntax errors (nil: it does not parse). A pass with more errors than
    /// `allowedErrors` is refused; so is a rewrite that still changes after `maximumPasses`.
    static func rewrite(
        _ original: [UInt8], findings: [Finding], allowedErrors: Int, maximumPasses: Int, isApplicable: (Finding) -> Bool,
        reread: ([UInt8]) -> (findings: [Finding], syntaxErrors: Int)?
    ) -> Rewrite {
        var current = original
        var currentFindings = findings
        var editsByRule: [String: Int] = [:]
        var passes: [[TextEdit]] = []
        for _ in 0..<maximumPasses {
            let selected = EditPlan.select(currentFindings.filter(isApplicable))
            guard let first = selected.first else { return .settled(current, editsByRule: editsByRule, findings: currentFindings, passes: passes) }
            let edits = selected.flatMap(\.edits)
            let next = EditPlan.apply(edits, to: current)
            guard let reread = reread(next), reread.syntaxErrors <= allowedErrors else { return .refused(.doesNotParse, first, lastGood: current) }
            for finding in selected { editsByRule[finding.ruleId, default: 0] += 1 }
            passes.append(edits)
            current = next
            currentFindings = reread.findings
        }
        return .refused(.doesNotSettle, currentFindings.first(where: isApplicable) ?? findings[0], lastGood: current)
    }
}

extension Audit {
    /// The fix's plan for the files under `paths`: the scan (with the whole project's facts), then
    /// the planner's passes. Nothing is written.
    public func fix(_ paths: [String], classes: Set<FixClass>) throws -> FixPlanner.Plan {
        let plan: FixPlanner.Plan
        do {
            plan = try FixPlanner(scanner: scanner, options: FixPlanner.Options(classes: classes)).plan(paths, within: projectRoot(for: paths))
        } catch let error as InputPathError {
            throw AuditError(error.description)
        }
        if let error = emptyScanError(plan.scan, paths: paths) { throw error }
        return plan
    }
}
