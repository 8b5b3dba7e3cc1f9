import AuditFix
import AuditModel
import AuditRules
import Foundation
import TreeSitter

/// Applies replacements to source trees: plans edits per file, re-parses every rewrite, repeats until
/// nothing changes, and writes atomically (or only reports, for a dry run).
public struct Fixer {
    public struct Options {
        /// The fix classes to apply: `[.safe]`, or `[.safe, .unsafe]` with `--unsafe`.
        public var classes: Set<FixClass>
        public var dryRun: Bool
        /// Nested usages need one pass per level; a rewrite that never settles is refused.
        public var maximumPasses: Int

        public init(classes: Set<FixClass> = [.safe], dryRun: Bool = false, maximumPasses: Int = 8) {
            self.classes = classes
            self.dryRun = dryRun
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
            /// The rewrite was fine but could not be written.
            case notWritten(WriteRefusal)
        }

        public let file: String
        public let absolutePath: String
        public let original: [UInt8]
        public let fixed: [UInt8]
        public let editsByRule: [String: Int]
        public var outcome: Outcome
    }

    public struct Run {
        /// The scan before any change.
        public let scan: ScanResult
        public let files: [FileResult]
        /// The findings left once the fixes are applied (in the rewritten text where a file changed).
        public let remaining: [Finding]
    }

    public let scanner: ProjectScanner
    public let options: Options

    public init(scanner: ProjectScanner, options: Options) {
        self.scanner = scanner
        self.options = options
    }

    /// Fixes the files under `paths`, judged with the facts of the project folder `root` around them
    /// (see `ProjectScanner.scanFiles`).
    public func run(_ paths: [String], within root: String? = nil) throws -> Run {
        let (scan, scanned) = try scanner.scanFiles(paths, within: root, keepSources: true)
        let context = ProjectContext(scanned.map(\.analysis))
        var toFix: [(file: ProjectScanner.ScannedFile, source: SourceText, findings: [Finding])] = []
        var remaining: [Finding] = []
        // Every file read gives the context its facts; only those asked for are fixed.
        for file in scanned where file.inScope {
            guard let source = file.source else { continue }
            let findings = scanner.engine.resolve(file.analysis, in: context)
            guard findings.contains(where: isApplicable) else {
                remaining += findings
                continue
            }
            toFix.append((file, source, findings))
        }
        // Each file is rewritten and parsed again on its own: on every core, one parser each, the
        // results in the files' order whatever the workers.
        let parsers = try (0..<min(scanner.jobs, max(1, toFix.count))).map { _ in UncheckedParser(try Parser()) }
        let fixed = UnsafeMutableBufferPointer<(FileResult, [Finding])?>.allocate(capacity: toFix.count)
        fixed.initialize(repeating: nil)
        defer {
            fixed.deinitialize()
            fixed.deallocate()
        }
        let indices = IndexDispenser(count: toFix.count)
        DispatchQueue.concurrentPerform(iterations: parsers.count) { worker in
            while let index = indices.take() {
                let (file, source, findings) = toFix[index]
                fixed[index] = fix(file, source: source, findings: findings, context: context, parser: parsers[worker].parser)
            }
        }
        var results: [FileResult] = []
        for case let (result, left)? in fixed {
            results.append(result)
            remaining += left
        }
        if !options.dryRun {
            let roots = writableRoots(paths)
            for index in results.indices where results[index].outcome == .fixed {
                do {
                    try AtomicWriter.replace(results[index].absolutePath, with: results[index].fixed, original: results[index].original, roots: roots)
                } catch let refusal as WriteRefusal {
                    results[index].outcome = .notWritten(refusal)
                }
            }
        }
        return Run(scan: scan, files: results, remaining: remaining.sorted(by: Finding.reportOrder))
    }

    /// A parser handed to one worker only.
    private struct UncheckedParser: @unchecked Sendable {
        let parser: Parser
        init(_ parser: Parser) { self.parser = parser }
    }

    private func isApplicable(_ finding: Finding) -> Bool {
        options.classes.contains(finding.fix) && !finding.edits.isEmpty
    }

    /// Rewrites one file in memory, pass after pass, checking each pass re-parses with no new error.
    private func fix(
        _ file: ProjectScanner.ScannedFile, source: SourceText, findings: [Finding], context: ProjectContext, parser: Parser
    ) -> (FileResult, [Finding]) {
        let original = source.bytes
        let allowedErrors = file.analysis.syntaxErrors.count
        var current = original
        var currentFindings = findings
        var editsByRule: [String: Int] = [:]
        func refuse(_ reason: String, _ finding: Finding) -> (FileResult, [Finding]) {
            let outcome = FileResult.Outcome.refused(reason: reason, ruleId: finding.ruleId, line: finding.start.line, column: finding.start.column)
            return (FileResult(file: file.reference.displayPath, absolutePath: file.reference.absolutePath, original: original,
                               fixed: original, editsByRule: [:], outcome: outcome), findings)
        }
        for _ in 0..<options.maximumPasses {
            let selected = EditPlan.select(currentFindings.filter(isApplicable))
            guard let first = selected.first else {
                return (FileResult(file: file.reference.displayPath, absolutePath: file.reference.absolutePath, original: original,
                                   fixed: current, editsByRule: editsByRule, outcome: .fixed), currentFindings)
            }
            let next = EditPlan.apply(selected.flatMap(\.edits), to: current)
            let analysis: FileAnalysis
            do {
                analysis = scanner.engine.analyze(tree: try parser.parse(SourceText(bytes: next)), file: file.reference.displayPath)
            } catch {
                return refuse("rewrite would not parse", first)
            }
            if analysis.syntaxErrors.count > allowedErrors {
                return refuse("rewrite would not parse", first)
            }
            for finding in selected { editsByRule[finding.ruleId, default: 0] += 1 }
            current = next
            currentFindings = scanner.engine.resolve(analysis, in: context)
        }
        return refuse("rewrite did not settle after \(options.maximumPasses) passes", currentFindings.first(where: isApplicable) ?? findings[0])
    }

    /// The real paths a fix may write into: the folders given, and the folders of the files given.
    private func writableRoots(_ paths: [String]) -> [String] {
        let discovery = scanner.discovery
        return (paths.isEmpty ? ["."] : paths).map { path in
            let absolute = discovery.absolutePath(path)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
            let folder = isDirectory.boolValue ? absolute : (absolute as NSString).deletingLastPathComponent
            guard let resolved = realpath(folder, nil) else { return folder }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }
}
