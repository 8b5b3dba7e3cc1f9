// AuditReport: one renderer per report format (text, JSON, SARIF, GitHub, Xcode, JUnit, markdown,
// HTML), each a pure function of a ReportContext, and the progress page (a ProgressHistory with the
// findings at HEAD). It must not read files (findings carry the lines they show) or write them.

import AuditModel
import AuditProgress
import Foundation

/// Everything a report may show, gathered once; every format is a pure function of it.
public struct ReportContext {
    public let result: ScanResult
    public let rules: [RuleDescription]
    public let toolVersion: String
    /// Formats read by CI systems (SARIF, GitHub) name files relative to the directory loadaudit ran
    /// in: run it from the repository root.
    public let currentDirectory: String
    /// Whether a baseline file was read: findings in it are existing, entries no longer found are fixed.
    public let readsBaseline: Bool
    /// The git ref of `--diff-base`: findings on lines unchanged since it are existing.
    public let diffBase: String?
    /// Whether a baseline or a diff base split findings into new and existing.
    public var comparesToBaseline: Bool { readsBaseline || diffBase != nil }
    /// The command that shrinks the baseline to what is left, for stale entries.
    public let ratchetCommand: String?
    /// The folder of the baseline file: stale entries' paths are relative to it.
    public let baselineFolder: String?
    /// The migration the rules are for, as the rules files name it ("Loading UI migration"), for
    /// titles; nil: the pages say "Migration".
    public var migrationTitle: String?
    /// What the findings are, as the rules files call them ("deprecated loading indicators"); nil:
    /// "findings".
    public var findingsName: String?
    /// Which repository, commit and rules the report is of (`--format json` carries it); nil: left out.
    public var identity: ReportIdentity?

    public init(
        result: ScanResult, rules: [RuleDescription], toolVersion: String, currentDirectory: String,
        comparesToBaseline readsBaseline: Bool = false, diffBase: String? = nil, ratchetCommand: String? = nil, baselineFolder: String? = nil
    ) {
        self.baselineFolder = baselineFolder
        self.result = result
        self.rules = rules
        self.toolVersion = toolVersion
        self.currentDirectory = currentDirectory
        self.readsBaseline = readsBaseline
        self.diffBase = diffBase
        self.ratchetCommand = ratchetCommand
    }

    /// Why a new finding is new, for reports: "not in the baseline", "on lines changed since main".
    public var newReason: String {
        let changed = diffBase.map { "on lines changed since \($0)" }
        return readsBaseline ? ["not in the baseline", changed].compactMap { $0 }.joined(separator: " and ") : changed ?? "new"
    }

    /// Why an existing finding does not fail: "in the baseline", "on lines unchanged since main".
    public var existingReason: String {
        let unchanged = diffBase.map { "on lines unchanged since \($0)" }
        return readsBaseline ? ["in the baseline", unchanged].compactMap { $0 }.joined(separator: " or ") : unchanged ?? "existing"
    }

    public var newFindings: [Finding] { result.findings.filter { $0.baseline == .new } }
    public var existingFindings: [Finding] { result.findings.filter { $0.baseline == .existing } }

    /// The file's path relative to the current directory (absolute when outside it).
    public func pathFromCurrentDirectory(_ finding: Finding) -> String {
        pathFromCurrentDirectory(finding.file)
    }

    public func pathFromCurrentDirectory(_ file: String) -> String {
        guard let absolute = result.absolutePaths[file] else { return file }
        let prefix = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    public func absolutePath(_ finding: Finding) -> String {
        result.absolutePaths[finding.file] ?? URL(fileURLWithPath: currentDirectory).appendingPathComponent(finding.file).path
    }

    public func rule(_ id: String) -> RuleDescription? {
        rules.first { $0.id == id }
    }
}

/// The report formats, each for a reader: people, tools, CI systems, Xcode.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, github, xcode, junit, markdown, html

    public func render(_ context: ReportContext, colour: Bool = false) -> String {
        switch self {
        case .text: return TextReport(colour: colour, findingsName: context.findingsName).render(context)
        case .json: return JSONReport.render(context)
        case .sarif: return SARIFReport.render(context)
        case .github: return GitHubReport.render(context)
        case .xcode: return XcodeReport.render(context)
        case .junit: return JUnitReport.render(context)
        case .markdown: return MarkdownReport.render(context)
        case .html: return HTMLReport.render(context)
        }
    }
}
