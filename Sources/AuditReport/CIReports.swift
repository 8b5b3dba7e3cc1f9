import AuditModel
import Foundation

/// GitHub Actions workflow commands: each new finding becomes an annotation on the pull request.
/// Existing (baselined) findings are not annotated: they would bury the new ones.
public enum GitHubReport {
    public static func render(_ context: ReportContext) -> String {
        var output = ""
        for finding in context.newFindings {
            let command: String
            switch finding.severity {
            case .error: command = "error"
            case .warning: command = "warning"
            case .note: command = "notice"
            }
            let properties = [
                "file=\(property(context.pathFromCurrentDirectory(finding)))",
                "line=\(finding.start.line)", "col=\(finding.start.column)",
                "endLine=\(finding.end.line)", "endColumn=\(finding.end.column)",
                "title=\(property("loadaudit \(finding.ruleId)"))",
            ].joined(separator: ",")
            var message = finding.message
            if let replacement = finding.replacement { message += "\nReplace with: \(replacement) (\(finding.fix.rawValue) fix)" }
            output += "::\(command) \(properties)::\(data(message))\n"
        }
        // A Swift file the scan could not judge fails the gate: the annotation says which and why.
        for problem in context.result.problems where problem.kind.leavesSourceUnjudged {
            let properties = "file=\(property(problem.file)),title=\(property("loadaudit could not read the file"))"
            output += "::error \(properties)::\(data("\(problem.detail): the file was not scanned, so a deprecated use in it would pass unseen"))\n"
        }
        return output
    }

    /// Workflow-command escaping: `%`, CR and LF in data; also `:` and `,` in properties.
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

/// Lines Xcode shows as issues when printed by a Run Script build phase.
public enum XcodeReport {
    public static func render(_ context: ReportContext) -> String {
        context.newFindings.map { finding in
            let kind = finding.severity == .note ? "note" : finding.severity.rawValue
            var message = finding.message
            if let replacement = finding.replacement { message += " Replace with: \(replacement)" }
            // Xcode reads one issue per line.
            message = message.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
            return "\(context.absolutePath(finding)):\(finding.start.line):\(finding.start.column): \(kind): \(message) [\(finding.ruleId)]\n"
        }.joined()
    }
}

/// JUnit XML: one test case per finding; new findings fail, existing ones are skipped.
public enum JUnitReport {
    public static func render(_ context: ReportContext) -> String {
        let findings = context.result.findings
        let failures = context.newFindings.count
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"loadaudit\" tests=\"\(findings.count)\" failures=\"\(failures)\" skipped=\"\(findings.count - failures)\">\n"
        output += "  <testsuite name=\"loadaudit\" tests=\"\(findings.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(findings.count - failures)\">\n"
        for finding in findings {
            // Paths from the current folder (the repository root in CI), as in SARIF; one class per rule,
            // because test report viewers split class names at dots.
            let path = context.pathFromCurrentDirectory(finding)
            let name = "\(path):\(finding.start.line):\(finding.start.column)"
            output += "    <testcase classname=\"loadaudit \(MarkupText.escape(finding.ruleId))\" name=\"\(MarkupText.escape(name))\""
            output += " file=\"\(MarkupText.escape(path))\" line=\"\(finding.start.line)\">\n"
            if finding.baseline == .new {
                var body = finding.message
                if let replacement = finding.replacement { body += "\nReplace with: \(replacement) (\(finding.fix.rawValue) fix)" }
                output += "      <failure type=\"\(MarkupText.escape(finding.ruleId))\" message=\"\(MarkupText.escape(finding.message))\">\(MarkupText.escape(body))</failure>\n"
            } else {
                output += "      <skipped message=\"\(MarkupText.escape(context.existingReason))\"/>\n"
            }
            output += "    </testcase>\n"
        }
        output += "  </testsuite>\n</testsuites>\n"
        return output
    }

}

/// A Markdown summary for `$GITHUB_STEP_SUMMARY` or a pull-request comment: counts per rule, then a
/// table per rule.
public enum MarkdownReport {
    public static func render(_ context: ReportContext) -> String {
        let findings = context.result.findings
        let newCount = context.newFindings.count
        var output = "## loadaudit: \(counted(findings.count, "finding"))"
        output += context.comparesToBaseline ? ", \(newCount) new\n\n" : "\n\n"
        if findings.isEmpty {
            output += "No \(context.findingsName ?? "findings") in \(counted(context.result.filesScanned, "file")).\n"
            output += staleLine(context)
            return output
        }
        let grouped = Dictionary(grouping: findings, by: \.ruleId)
        let order = context.result.ruleIds.filter { grouped[$0] != nil } + grouped.keys.filter { !context.result.ruleIds.contains($0) }.sorted()
        output += "| Rule | Findings | New | Existing | Safe | Unsafe | Manual |\n|---|---:|---:|---:|---:|---:|---:|\n"
        for id in order {
            let items = grouped[id] ?? []
            let new = items.filter { $0.baseline == .new }.count
            func count(_ fix: FixClass) -> Int { items.filter { $0.fix == fix }.count }
            output += "| `\(id)` | \(items.count) | \(new) | \(items.count - new) | \(count(.safe)) | \(count(.unsafe)) | \(count(.manual)) |\n"
        }
        output += staleLine(context)
        for id in order {
            let items = grouped[id] ?? []
            output += "\n### `\(id)`\n\n"
            if let rule = context.rule(id) { output += "\(cell(rule.message))\n\n" }
            output += "| | Location | Fix | Replacement |\n|---|---|---|---|\n"
            for finding in items {
                let marker = finding.baseline == .new ? "**new**" : "existing"
                let replacement = finding.replacement.map(code) ?? "by hand"
                output += "| \(marker) | \(code("\(finding.file):\(finding.start.line)")) | \(finding.fix.rawValue) | \(replacement) |\n"
            }
        }
        return output
    }

    static func staleLine(_ context: ReportContext) -> String {
        var line = ""
        let count = context.result.staleEntries.count
        if count > 0 {
            line += "\n\(count) baseline \(count == 1 ? "entry was" : "entries were") fixed since the baseline"
            line += context.ratchetCommand.map { ": ratchet it down with `\($0)`.\n" } ?? ".\n"
        }
        let notChecked = context.result.baselineEntriesNotChecked
        if !notChecked.isEmpty {
            let total = notChecked.values.reduce(0, +)
            line += "\n\(total) baseline \(total == 1 ? "entry was" : "entries were") not checked: their rules did not run "
            line += "(\(notChecked.keys.sorted().map(code).joined(separator: ", "))).\n"
        }
        return line
    }

    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// A code span that survives backticks inside it (CommonMark: a longer fence and padding spaces).
    static func code(_ text: String) -> String {
        let body = cell(text)
        return body.contains("`") ? "`` \(body) ``" : "`\(body)`"
    }
}

/// Text inside XML or HTML markup (JUnit, the HTML pages): the five special characters as entities,
/// line breaks and tabs as character references, and the control characters XML 1.0 forbids dropped.
enum MarkupText {
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n", "\t", "\r": result += "&#\(scalar.value);"
            default:
                // XML 1.0 forbids most control characters and U+FFFE/U+FFFF, even escaped.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
