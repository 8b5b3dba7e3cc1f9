import AuditModel

/// The report for people: one block per finding with the source line and a caret under the span,
/// then a summary per rule. Pure: the source lines come with the findings; the caller chooses colour.
public struct TextReport {
    public let colour: Bool
    /// What the findings are ("deprecated loading indicators"), for a scan with none; nil: "findings".
    public let findingsName: String?

    public init(colour: Bool, findingsName: String? = nil) {
        self.colour = colour
        self.findingsName = findingsName
    }

    public func render(_ result: ScanResult) -> String {
        var output = ""
        for finding in result.findings {
            output += block(for: finding)
        }
        output += summary(result)
        return output
    }

    /// With a baseline: new findings first and in full, then the existing ones one line each, then
    /// what was fixed since the baseline and how to shrink it.
    public func render(_ context: ReportContext) -> String {
        guard context.comparesToBaseline else { return render(context.result) }
        let result = context.result
        var output = ""
        let new = context.newFindings
        let existing = context.existingFindings
        if !new.isEmpty {
            output += paint("NEW: \(counted(new.count, "finding")) \(context.newReason) (these fail the run)", .bold) + "\n\n"
            for finding in new { output += block(for: finding) }
        }
        if !existing.isEmpty {
            let reason = context.diffBase == nil ? "already in the baseline" : context.existingReason
            output += paint("Existing: \(counted(existing.count, "finding")) \(reason)", .dim) + "\n"
            for finding in existing {
                output += paint("  \(finding.file):\(finding.start.line):\(finding.start.column): \(finding.ruleId) (\(finding.fix.rawValue))", .dim) + "\n"
            }
            output += "\n"
        }
        if !result.staleEntries.isEmpty {
            output += "Fixed since the baseline: \(counted(result.staleEntries.count, "entry", "entries")) no longer found\n"
            for entry in result.staleEntries { output += "  \(entry.file): \(entry.ruleId) \(entry.snippet)\n" }
            if let command = context.ratchetCommand { output += "Ratchet the baseline down with: \(command)\n" }
            output += "\n"
        }
        let notChecked = result.baselineEntriesNotChecked.values.reduce(0, +)
        if notChecked > 0 {
            let rules = result.baselineEntriesNotChecked.keys.sorted().joined(separator: ", ")
            output += "Not checked: \(counted(notChecked, "baseline entry", "baseline entries")) of rules that did not run (\(rules))\n\n"
        }
        let fixed = context.readsBaseline ? ", \(result.staleEntries.count) fixed since the baseline" : ""
        let unchecked = notChecked > 0 ? ", \(notChecked) not checked" : ""
        output += "\(counted(new.count, "new finding")), \(existing.count) existing\(fixed)\(unchecked) (\(counted(result.filesScanned, "file")) scanned)\n"
        if result.filesWithParseErrors > 0 {
            output += "\(counted(result.filesWithParseErrors, "file")) with syntax errors: findings inside the broken regions may be missing.\n"
        }
        return output
    }

    func block(for finding: Finding) -> String {
        let severity = paint(finding.severity.rawValue + ":", finding.severity == .error ? .red : finding.severity == .warning ? .yellow : .cyan)
        var text = "\(paint("\(finding.file):\(finding.start.line):\(finding.start.column):", .bold)) \(severity) \(finding.message) \(paint("[\(finding.ruleId)]", .dim))\n"
        if let shown = finding.shownLine {
            let gutter = String(finding.start.line)
            let blank = String(repeating: " ", count: gutter.count)
            let characters = Array(shown.text.unicodeScalars)
            let startIndex = shown.start, endIndex = shown.end
            // Tabs stay tabs in the padding so the caret lines up under tab-indented code.
            let padding = String(String.UnicodeScalarView(characters[..<startIndex].map { $0 == "\t" ? "\t" : " " }))
            let marker = "^" + String(repeating: "~", count: max(0, endIndex - startIndex - 1))
            text += " \(gutter) | \(shown.text)\n"
            text += " \(blank) | \(padding)\(paint(marker, .green))\n"
            text += " \(blank) = \(fixLines(finding, gutter: " \(blank) | "))"
        } else {
            text += "   = \(fixLines(finding, gutter: "   | "))"
        }
        return text + "\n"
    }

    /// The fix line; a replacement of several lines goes on in `gutter`, the source line's: its later
    /// lines keep the file's indentation, so they stand under the code they replace.
    private func fixLines(_ finding: Finding, gutter: String) -> String {
        guard let replacement = finding.replacement else { return "manual: no automatic rewrite\n" }
        let lines = replacement.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var text = "\(finding.fix.rawValue) fix: \(lines[0])\n"
        for line in lines.dropFirst() {
            var shown = gutter + line
            while shown.last == " " || shown.last == "\t" { shown.removeLast() }
            text += shown + "\n"
        }
        return text
    }

    func summary(_ result: ScanResult) -> String {
        let files = Set(result.findings.map(\.file)).count
        var text: String
        if result.findings.isEmpty {
            text = "No \(findingsName ?? "findings") in \(counted(result.filesScanned, "file")) scanned.\n"
        } else {
            let byFix = Dictionary(grouping: result.findings, by: \.fix)
            let fixes = FixClass.allCases.compactMap { fix in byFix[fix].map { "\($0.count) \(fix.rawValue)" } }.joined(separator: ", ")
            text = "\(counted(result.findings.count, "finding")) in \(counted(files, "file")) (\(counted(result.filesScanned, "file")) scanned): \(fixes)\n"
            let counts = result.countsByRule
            let listed = (result.ruleIds + counts.keys.filter { !result.ruleIds.contains($0) }.sorted()).filter { counts[$0] != nil }
            let width = listed.map(\.count).max() ?? 0
            for id in listed {
                text += "  \(id.padding(toLength: width, withPad: " ", startingAt: 0))  \(counts[id] ?? 0)\n"
            }
        }
        if result.filesWithParseErrors > 0 {
            text += "\(counted(result.filesWithParseErrors, "file")) with syntax errors: findings inside the broken regions may be missing.\n"
        }
        return text
    }

    enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        colour ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}

import Foundation
