import AuditModel
import AuditReport
import Foundation

/// Hand-built report contexts for the CI formats (SARIF, GitHub, Xcode, JUnit, Markdown) and the text
/// report against a baseline. loadaudit ran in `/work/my repo` (a space in the current folder) and
/// scanned its `App` folder, so a finding's `file` (relative to `App`) differs from the path CI formats
/// show (relative to the current folder).
enum ReportContextFixtures {
    static let currentDirectory = "/work/my repo"
    static let scannedFolder = "/work/my repo/App"
    static let ratchetCommand = "loadaudit baseline --output .loadaudit-baseline.json App"

    static let legacyFile = "Legacy/Old.swift"
    /// A path with a space.
    static let loadingFile = "My Views/Loading.swift"

    static let absolutePaths = [
        legacyFile: "\(scannedFolder)/\(legacyFile)",
        loadingFile: "\(scannedFolder)/\(loadingFile)",
    ]

    /// New, error, no replacement: a person must change the code. XML-special characters in the message.
    static var manualFinding: Finding {
        var finding = Finding(
            ruleId: "themed-spinner", severity: .error, file: legacyFile,
            start: SourcePoint(line: 3, column: 5, byteOffset: 40), end: SourcePoint(line: 5, column: 6, byteOffset: 120),
            symbol: "ThemedSpinner", message: "ThemedSpinner has no automatic replacement <\"&'>",
            replacement: nil, fix: .manual
        )
        finding.fingerprint = "f2-1"
        finding.baseline = .new
        return finding
    }

    /// Already in the baseline; its one edit is the default (the span replaced by the replacement).
    static var existingFinding: Finding {
        var finding = Finding(
            ruleId: "themed-spinner", severity: .warning, file: legacyFile,
            start: SourcePoint(line: 9, column: 1, byteOffset: 200), end: SourcePoint(line: 9, column: 16, byteOffset: 215),
            symbol: "ThemedSpinner", message: "ThemedSpinner is removed; use LoadingSpinner.",
            replacement: "LoadingSpinner()", fix: .safe
        )
        finding.fingerprint = "f2-2"
        finding.baseline = .existing
        return finding
    }

    /// New, over three lines, with two edits: the call replaced and an absorbed modifier deleted.
    static var multiEditFinding: Finding {
        var finding = Finding(
            ruleId: "raw-progress-view", severity: .warning, file: loadingFile,
            start: SourcePoint(line: 12, column: 9, byteOffset: 300), end: SourcePoint(line: 14, column: 24, byteOffset: 361),
            symbol: "ProgressView", message: "A raw ProgressView spinner; use LoadingSpinner.",
            replacement: "LoadingSpinner(size: .small)", fix: .safe,
            edits: [
                TextEdit(range: 300..<314, text: "LoadingSpinner(size: .small)"),
                TextEdit(range: 330..<361, text: ""),
            ]
        )
        finding.fingerprint = "f1-1"
        finding.baseline = .new
        return finding
    }

    /// New, note, a message with `%`, `,`, `:` and a newline, and a `|` in the replacement.
    static var specialCharactersFinding: Finding {
        var finding = Finding(
            ruleId: "raw-progress-view", severity: .note, file: loadingFile,
            start: SourcePoint(line: 20, column: 13, byteOffset: 500), end: SourcePoint(line: 20, column: 27, byteOffset: 514),
            symbol: "ProgressView", message: "Progress 50%, step 1: loading\nthen done",
            replacement: "LoadingSpinner(label: \"a|b\")", fix: .unsafe
        )
        finding.fingerprint = "f1-2"
        finding.baseline = .new
        return finding
    }

    static let staleEntry = StaleEntry(ruleId: "loading-dots", file: "Old Dots.swift", fingerprint: "f3-1", snippet: "LoadingDots()")

    static let rules = [
        RuleDescription(
            id: "raw-progress-view", severity: .warning, fix: .safe,
            message: "A raw ProgressView spinner; use the theme-aware LoadingSpinner.",
            help: "Replace ProgressView() with LoadingSpinner(size:).", helpURI: "https://example.com/rules/raw-progress-view"
        ),
        RuleDescription(
            id: "themed-spinner", severity: .error, fix: .unsafe,
            message: "ThemedSpinner is removed; use LoadingSpinner.", help: nil, helpURI: nil
        ),
        RuleDescription(
            id: "loading-dots", severity: .note, fix: .manual,
            message: "LoadingDots is removed and not replaced.", help: nil, helpURI: nil
        ),
    ]

    static let ruleIds = ["raw-progress-view", "themed-spinner", "loading-dots"]

    /// In report order: the legacy file sorts before "My Views".
    static var findings: [Finding] { [manualFinding, existingFinding, multiEditFinding, specialCharactersFinding] }

    static func result(
        findings: [Finding] = findings, staleEntries: [StaleEntry] = [staleEntry],
        absolutePaths: [String: String] = absolutePaths, filesScanned: Int = 5, filesWithParseErrors: Int = 0
    ) -> ScanResult {
        var result = ScanResult(
            findings: findings, problems: [], filesScanned: filesScanned, filesWithParseErrors: filesWithParseErrors,
            ruleIds: ruleIds, absolutePaths: absolutePaths
        )
        result.staleEntries = staleEntries
        return result
    }

    /// Against a baseline: one existing finding, three new, one stale entry.
    static func baselineContext(
        findings: [Finding] = findings, staleEntries: [StaleEntry] = [staleEntry], ratchetCommand: String? = ratchetCommand,
        rules: [RuleDescription] = rules
    ) -> ReportContext {
        ReportContext(
            result: result(findings: findings, staleEntries: staleEntries), rules: rules, toolVersion: "1.2.3",
            currentDirectory: currentDirectory, comparesToBaseline: true, ratchetCommand: ratchetCommand
        )
    }

    /// Without a baseline: every finding is new and nothing is stale.
    static func plainContext(findings: [Finding]? = nil, rules: [RuleDescription] = rules) -> ReportContext {
        let all = (findings ?? Self.findings).map { finding -> Finding in
            var finding = finding
            finding.baseline = .new
            return finding
        }
        return ReportContext(
            result: result(findings: all, staleEntries: []), rules: rules, toolVersion: "1.2.3",
            currentDirectory: currentDirectory, comparesToBaseline: false, ratchetCommand: nil
        )
    }

    /// A finding of `raw-progress-view` in `file` with `message`, new, for one-off escaping tests.
    static func finding(
        file: String = loadingFile, message: String, severity: Severity = .warning, replacement: String? = nil,
        fix: FixClass = .manual, baseline: BaselineState = .new
    ) -> Finding {
        var finding = Finding(
            ruleId: "raw-progress-view", severity: severity, file: file,
            start: SourcePoint(line: 7, column: 3, byteOffset: 70), end: SourcePoint(line: 7, column: 17, byteOffset: 84),
            symbol: "ProgressView", message: message, replacement: replacement, fix: fix
        )
        finding.fingerprint = "one-off"
        finding.baseline = baseline
        return finding
    }

    /// A context with one-off findings whose files lie under the scanned folder.
    static func context(_ findings: [Finding], comparesToBaseline: Bool = false, staleEntries: [StaleEntry] = []) -> ReportContext {
        var paths = absolutePaths
        for finding in findings where paths[finding.file] == nil {
            paths[finding.file] = "\(scannedFolder)/\(finding.file)"
        }
        return ReportContext(
            result: result(findings: findings, staleEntries: staleEntries, absolutePaths: paths), rules: rules,
            toolVersion: "1.2.3", currentDirectory: currentDirectory, comparesToBaseline: comparesToBaseline,
            ratchetCommand: comparesToBaseline ? ratchetCommand : nil
        )
    }
}
