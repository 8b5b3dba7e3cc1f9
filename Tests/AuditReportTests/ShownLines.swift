import AuditModel
import AuditReport

/// Source lines for report tests: what the scanner attaches to findings, given here by a closure
/// from (file, line) to the line's text (nil: no line shown).
typealias LineProvider = (_ file: String, _ line: Int) -> String?

extension ScanResult {
    func showing(_ lines: LineProvider) -> ScanResult {
        var copy = self
        for index in copy.findings.indices {
            let finding = copy.findings[index]
            copy.findings[index].shownLine = lines(finding.file, finding.start.line).map { ShownLine(line: $0, start: finding.start, end: finding.end) }
        }
        return copy
    }
}

extension ReportContext {
    func showing(_ lines: LineProvider) -> ReportContext {
        ReportContext(result: result.showing(lines), rules: rules, toolVersion: toolVersion, currentDirectory: currentDirectory,
                      comparesToBaseline: readsBaseline, diffBase: diffBase, ratchetCommand: ratchetCommand, baselineFolder: baselineFolder)
    }
}
