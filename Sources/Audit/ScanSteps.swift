import AuditBaseline
import AuditGit
import AuditConfig
import AuditModel
import AuditRules
import AuditScan
import Foundation

/// The lowest severity that makes a scan fail, or `never`.
public enum FailOn: String, CaseIterable, Sendable {
    case note, warning, error, never

    public var threshold: Severity? { Severity(rawValue: rawValue) }
}

/// A file scanned under another name: the text of standard input, in `file` (a temporary file the
/// command line wrote), reported as `name` (its path in the project, for the reports, the baseline
/// and the configuration).
public struct StandIn {
    public let file: String
    public let name: String

    public init(file: String, name: String) {
        self.file = file
        self.name = name
    }
}

/// What `scan` is asked: the paths, and how findings are judged new or existing and when the run fails.
public struct ScanRequest {
    public var paths: [String]
    public var standIn: StandIn?
    /// `--baseline` (relative to the current directory); nil takes the configuration's.
    public var baseline: String?
    public var strictBaseline = false
    public var diffBase: String?
    public var allowGateChanges = false
    /// `--fail-on`; nil takes the configuration's, else `warning`.
    public var failOn: FailOn?
    /// Told how many files are done of how many found so far (from the workers).
    public var progress: ((Int, Int) -> Void)?

    public init(paths: [String]) { self.paths = paths }
}

/// What a scan found and decided: everything the reports show, the warnings to show first, and
/// whether the run fails.
public struct AuditResult {
    public var scan: ScanResult
    /// One line each: files skipped, nothing found to scan, a configured baseline missing.
    public var warnings: [String]
    /// The baseline the findings were compared with (absolute), if any.
    public var baselinePath: String?
    public var diffBase: String?
    /// The rules the reports describe: those that ran, `unused-suppression`, and `gate-weakened` when
    /// a gate change was found.
    public var rules: [RuleDescription]
    /// A new finding at or above the failing severity, a weakened gate, or (strict) stale baseline entries.
    public var fails: Bool
}

extension Audit {
    /// The scan's first steps: discover the files, select those to parse, parse, match and resolve
    /// (all in `ProjectScanner`), then name a stand-in's findings by its project path and fingerprint
    /// every finding. With the warnings to show (one line each).
    public func scanFindings(_ paths: [String], standIn: StandIn? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> (ScanResult, [String]) {
        var result: ScanResult
        do {
            if let standIn, FileManager.default.fileExists(atPath: setup.absolute(standIn.name)) {
                // Judged in its place in the project, its text read from the stand-in.
                var scanner = self.scanner
                scanner.readsInstead[URL(fileURLWithPath: setup.absolute(standIn.name)).standardizedFileURL.path] = standIn.file
                result = try scanner.scan([standIn.name], within: projectRoot(for: [standIn.name]), progress: progress)
            } else {
                result = try scanner.scan(standIn.map { [$0.file] } ?? paths, within: standIn == nil ? projectRoot(for: paths) : nil, progress: progress)
            }
        } catch let error as InputPathError {
            throw AuditError(error.description)
        }
        if let standIn { rename(&result, standIn) }
        Fingerprint.assign(&result.findings)
        var warnings = result.problems.map(\.summary)
        if standIn == nil, let error = unmatchedPatternsError(paths) { throw AuditError(error.message, warnings: warnings) }
        if let error = emptyScanError(result, paths: paths) { throw AuditError(error.message, warnings: warnings) }
        if result.filesScanned == 0 && result.problems.isEmpty {
            warnings.append("no .swift files found under \(paths.isEmpty ? "." : paths.joined(separator: ", "))")
        }
        return (result, warnings)
    }

    /// The stand-in's findings and problems under its project path.
    private func rename(_ result: inout ScanResult, _ standIn: StandIn) {
        let inPlace = URL(fileURLWithPath: setup.absolute(standIn.name)).standardizedFileURL.path
        let shown = result.absolutePaths.first { $0.value == standIn.file || $0.value == inPlace }?.key ?? standIn.file
        result.findings = result.findings.map { $0.renamingFile(shown, to: standIn.name) }
        result.problems = result.problems.map { problem in
            problem.file == shown ? FileProblem(file: standIn.name, kind: problem.kind, line: problem.line, column: problem.column, detail: problem.detail) : problem
        }
        result.absolutePaths[shown] = nil
        result.absolutePaths[standIn.name] = URL(fileURLWithPath: setup.absolute(standIn.name)).standardizedFileURL.path
    }

    /// The whole scan: `scanFindings`, then the gate's steps: compare with the baseline, classify by
    /// the lines changed since the diff base, add the gate's own weakenings, decide whether the run fails.
    public func scan(_ request: ScanRequest) throws -> AuditResult {
        let paths = request.standIn.map { [$0.name] } ?? request.paths
        var (result, warnings) = try scanFindings(paths, standIn: request.standIn, progress: request.progress)
        do {
            let baselinePath = try compareWithBaseline(&result, request, paths: paths, warnings: &warnings)
            var rules = ruleSet.rules.map(\.description) + [UnusedSuppressionRule.description(severity: ruleSet.unusedSuppressionSeverity)]
            if let diffBase = request.diffBase {
                try classifyByDiffBase(&result, diffBase, request, paths: paths, baselinePath: baselinePath)
                if result.ruleIds.contains(GateChanges.ruleId) { rules.append(GateChanges.description) }
            }
            return AuditResult(scan: result, warnings: warnings, baselinePath: baselinePath, diffBase: request.diffBase, rules: rules,
                               fails: fails(result, request))
        } catch let error as AuditError {
            throw AuditError(error.message, warnings: warnings)
        }
    }

    /// The baseline step: the baseline asked for (else the configuration's, when it exists) marks the
    /// findings it holds as existing and lists its entries no finding matched. Its path, when read.
    private func compareWithBaseline(_ result: inout ScanResult, _ request: ScanRequest, paths: [String], warnings: inout [String]) throws -> String? {
        var baselinePath = request.baseline.map(setup.absolute) ?? config?.baseline
        if request.baseline == nil, let configured = baselinePath, !FileManager.default.fileExists(atPath: configured) {
            warnings.append("the configuration names the baseline \(configured), which does not exist yet: every finding is new (create it with `loadaudit baseline`)")
            baselinePath = nil
        }
        if request.strictBaseline, baselinePath == nil {
            throw AuditError("--strict-baseline needs a baseline (--baseline FILE, or `baseline:` in .loadaudit.yml)")
        }
        guard let baselinePath else { return nil }
        do {
            let file = try BaselineFile.read(baselinePath)
            let folder = (baselinePath as NSString).deletingLastPathComponent
            let checked = { (id: String) in !ruleSet.isNotRunning(id) }
            result.staleEntries = file.compare(&result.findings, absolutePaths: result.absolutePaths, folder: folder,
                                               inScope: { covers($0, scanning: paths) }, checked: checked)
            result.baselineEntriesNotChecked = file.notChecked(folder: folder, inScope: { covers($0, scanning: paths) }, checked: checked)
        } catch let error as BaselineError {
            throw AuditError(error.description)
        }
        return baselinePath
    }

    /// The diff-base step: findings on lines unchanged since the merge base with `diffBase` are
    /// existing; unless allowed, the change's weakenings of the gate become findings.
    private func classifyByDiffBase(_ result: inout ScanResult, _ diffBase: String, _ request: ScanRequest, paths: [String], baselinePath: String?) throws {
        do {
            let folder = SourceDiscovery(currentDirectory: setup.currentDirectory).absolutePath(paths.first ?? ".")
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory)
            let changes = try GitChanges.since(diffBase, in: isDirectory.boolValue ? folder : (folder as NSString).deletingLastPathComponent)
            changes.classify(&result.findings, absolutePaths: result.absolutePaths)
            guard !request.allowGateChanges else { return }
            var texts: [String: String] = [:]
            let gate = try gateChanges(changes, failOnGiven: request.failOn != nil, baselinePath: baselinePath, paths: paths, result: result, texts: &texts)
            let (findings, absolutePaths) = GateChanges.findings(gate, base: setup.currentDirectory, texts: texts)
            result.findings = (result.findings + findings).sorted(by: Finding.reportOrder)
            result.absolutePaths.merge(absolutePaths) { current, _ in current }
            if !findings.isEmpty, !result.ruleIds.contains(GateChanges.ruleId) { result.ruleIds.append(GateChanges.ruleId) }
        } catch let error as GitError {
            throw AuditError(error.description)
        }
    }

    /// What the change under review does to the gate: `.loadaudit.yml`, the rules files it and the
    /// command line name, and the baseline, against their versions at the merge base. A rule whose
    /// match changed is run in its old version too: what it finds that the new one does not is a
    /// weakening (`paths`, `result`: this scan's, to compare with).
    private func gateChanges(_ changes: GitChanges, failOnGiven: Bool, baselinePath: String?, paths: [String], result: ScanResult,
                             texts: inout [String: String]) throws -> [GateChanges.Change] {
        var found: [GateChanges.Change] = []
        var configText = ""
        if let config {
            configText = (try? String(contentsOfFile: config.path, encoding: .utf8)) ?? ""
            texts[config.path] = configText
        }
        // The merge base's configuration and rules files, read as if they were here; a version that no
        // longer reads (or names rules that are gone) is compared as no configuration, or as the
        // rules read from the files on disk.
        let old = config.flatMap { config in changes.textAtMergeBase(of: config.path).flatMap { try? ProjectConfig.parse($0, path: config.path) } }
        let atMergeBase = RulesFileVersion.other { changes.textAtMergeBase(of: $0) }
        let oldRules = try (try? Self.rules(setup, config: old, version: atMergeBase)) ?? (try? Self.rules(setup, config: nil, version: atMergeBase))
            ?? Self.rules(setup, config: old)
        for path in rulesFilePaths() { texts[path] = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        found += GateChanges.ruleChanges(old: oldRules, new: ruleSet, configPath: config?.path, texts: texts)
        if let config {
            found += GateChanges.configChanges(old: old, new: config, failOnGiven: failOnGiven, path: config.path, text: configText)
        }
        // Rules whose match changed: what their old version finds here that the new one does not.
        let changed = Set(oldRules.rules.filter { rule in
            ruleSet.rules.first { $0.id == rule.id }.map { oldRules.matchingKey(of: rule) != ruleSet.matchingKey(of: $0) } ?? false
        }.map(\.id))
        if !changed.isEmpty {
            var oldScanner = ProjectScanner(engine: RuleEngine(ruleSet: oldRules), discovery: scanner.discovery, jobs: scanner.jobs)
            oldScanner.trace = scanner.trace
            let before = try oldScanner.scan(paths, within: projectRoot(for: paths))
            let now = Set(result.findings.map { "\($0.ruleId)|\($0.file)|\($0.start.line)|\($0.start.column)" })
            let lost = before.findings.filter { changed.contains($0.ruleId) && !now.contains("\($0.ruleId)|\($0.file)|\($0.start.line)|\($0.start.column)") }
            found += GateChanges.narrowedRules(lost, new: ruleSet, texts: texts)
        }
        if let baselinePath, let new = try? BaselineFile.read(baselinePath) {
            let text = (try? String(contentsOfFile: baselinePath, encoding: .utf8)) ?? ""
            texts[baselinePath] = text
            let old = changes.textAtMergeBase(of: baselinePath).flatMap { try? JSONDecoder().decode(BaselineFile.self, from: Data($0.utf8)) }
            found += GateChanges.baselineChanges(old: old, new: new, path: baselinePath, text: text)
        }
        return found
    }

    /// The verdict: a new finding at or above the failing severity (`--fail-on`, else the
    /// configuration's, else warning), a weakened gate whatever the severity, or, with
    /// `--strict-baseline`, baseline entries no longer found.
    private func fails(_ result: ScanResult, _ request: ScanRequest) -> Bool {
        let failOn = request.failOn ?? config?.failOn.map { $0.map { FailOn(rawValue: $0.rawValue) ?? .warning } ?? .never } ?? .warning
        let failingNew = failOn.threshold.map { limit in result.newFindings.contains { $0.severity >= limit } } ?? false
        let weakened = result.findings.contains { $0.ruleId == GateChanges.ruleId }
        // A Swift file that could not be judged (unreadable, not UTF-8) fails the gate wherever the
        // gate can fail at all: a new use in it would otherwise pass with a warning nobody reads.
        let unjudged = failOn.threshold != nil && result.problems.contains { $0.kind.leavesSourceUnjudged }
        return failingNew || weakened || unjudged || (request.strictBaseline && !result.staleEntries.isEmpty)
    }
}

extension Rule {
    /// What reports say about the rule.
    public var description: RuleDescription {
        RuleDescription(id: id, severity: severity, fix: fix, message: message, help: help, helpURI: helpURI)
    }
}

extension UnusedSuppressionRule {
    static func description(severity: Severity?) -> RuleDescription {
        RuleDescription(id: id, severity: severity ?? .warning, fix: .manual, message: message,
                        help: "A loadaudit:ignore comment that silences nothing, or names no rule.", helpURI: nil)
    }
}
