import AuditModel
import AuditProgress
import Foundation

/// The stable machine-readable report (`--format json`), version 1. Other tools read it: add fields,
/// never rename or remove them.
public enum JSONReport {
    public struct Document: Codable, Equatable {
        public var version: Int
        public var tool: Tool
        public var findings: [Entry]
        public var problems: [Problem]
        /// Baseline entries whose findings are gone (fixed since); empty without a baseline.
        public var stale: [StaleEntry]
        public var summary: Summary
        /// Which repository, at which commit and day, with which rules (`ReportIdentity`); absent
        /// when the caller did not say.
        public var repository: String?
        public var commit: String?
        public var date: String?
        public var rulesIdentity: RulesIdentity?
    }

    public struct Tool: Codable, Equatable {
        public var name: String
        public var version: String
    }

    public struct Entry: Codable, Equatable {
        public var ruleId: String
        public var severity: String
        public var file: String
        public var line: Int
        public var column: Int
        public var endLine: Int
        public var endColumn: Int
        public var symbol: String
        public var message: String
        public var replacement: String?
        public var fix: String
        /// "new" or "existing" (in the baseline, or on lines unchanged since the diff base).
        public var baseline: String
        public var fingerprint: String
        /// Other places that explain the finding (cross-file rules); empty for most.
        public var related: [RelatedLocation]

        enum CodingKeys: String, CodingKey {
            case ruleId, severity, file, line, column, endLine, endColumn, symbol, message, replacement, fix, baseline, fingerprint, related
        }

        // Written explicitly so a missing replacement is `null`, not an absent key.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ruleId, forKey: .ruleId)
            try container.encode(severity, forKey: .severity)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(endLine, forKey: .endLine)
            try container.encode(endColumn, forKey: .endColumn)
            try container.encode(symbol, forKey: .symbol)
            try container.encode(message, forKey: .message)
            try container.encode(replacement, forKey: .replacement)
            try container.encode(fix, forKey: .fix)
            try container.encode(baseline, forKey: .baseline)
            try container.encode(fingerprint, forKey: .fingerprint)
            try container.encode(related, forKey: .related)
        }
    }

    public struct Problem: Codable, Equatable {
        public var file: String
        public var kind: String
        public var line: Int?
        public var column: Int?
        public var message: String
    }

    public struct Summary: Codable, Equatable {
        public var filesScanned: Int
        public var findings: Int
        public var byRule: [String: Int]
        public var parseErrors: Int
        public var new: Int
        public var existing: Int
        public var fixedSinceBaseline: Int
        /// Baseline entries of rules that did not run (switched off, not selected): neither existing
        /// nor fixed. Only when there are some.
        public var notChecked: Int?
    }

    public static func document(_ result: ScanResult, toolVersion: String) -> Document {
        Document(
            version: 1,
            tool: Tool(name: "loadaudit", version: toolVersion),
            findings: result.findings.map { finding in
                Entry(
                    ruleId: finding.ruleId, severity: finding.severity.rawValue, file: finding.file,
                    line: finding.start.line, column: finding.start.column, endLine: finding.end.line, endColumn: finding.end.column,
                    symbol: finding.symbol, message: finding.message, replacement: finding.replacement, fix: finding.fix.rawValue,
                    baseline: finding.baseline.rawValue, fingerprint: finding.fingerprint, related: finding.related
                )
            },
            problems: result.problems.map {
                Problem(file: $0.file, kind: $0.kind.rawValue, line: $0.line, column: $0.column, message: $0.detail)
            },
            stale: result.staleEntries,
            summary: Summary(
                filesScanned: result.filesScanned,
                findings: result.findings.count,
                byRule: result.countsByRule,
                parseErrors: result.filesWithParseErrors,
                new: result.newFindings.count,
                existing: result.findings.count - result.newFindings.count,
                fixedSinceBaseline: result.staleEntries.count,
                notChecked: result.baselineEntriesNotChecked.isEmpty ? nil : result.baselineEntriesNotChecked.values.reduce(0, +)
            )
        )
    }

    public static func render(_ context: ReportContext) -> String {
        render(context.result, toolVersion: context.toolVersion, identity: context.identity)
    }

    /// Pretty, key-sorted JSON with a final newline: byte-identical for identical results, and to what
    /// `JSONEncoder` writes of the `Document` (see `PrettyJSON`).
    public static func render(_ result: ScanResult, toolVersion: String, identity: ReportIdentity? = nil) -> String {
        let document = document(result, toolVersion: toolVersion)
        var json = PrettyJSON(capacity: 1024 + 600 * document.findings.count)
        json.beginObject()
        if let identity {
            if let commit = identity.commit { json.member("commit", commit) }
            json.member("date", identity.date)
        }
        json.key("findings")
        json.array(document.findings) { json, entry in json.write(entry) }
        json.key("problems")
        json.array(document.problems) { json, problem in
            json.beginObject()
            if let column = problem.column { json.member("column", column) }
            json.member("file", problem.file)
            json.member("kind", problem.kind)
            if let line = problem.line { json.member("line", line) }
            json.member("message", problem.message)
            json.endObject()
        }
        if let identity {
            json.member("repository", identity.repository)
            json.key("rulesIdentity")
            json.beginObject()
            json.key("files")
            json.array(identity.rulesIdentity.files) { json, file in json.string(file) }
            json.member("hash", identity.rulesIdentity.hash)
            json.endObject()
        }
        json.key("stale")
        json.array(document.stale) { json, stale in
            json.beginObject()
            json.member("file", stale.file)
            json.member("fingerprint", stale.fingerprint)
            json.member("ruleId", stale.ruleId)
            json.member("snippet", stale.snippet)
            json.endObject()
        }
        json.key("summary")
        json.write(document.summary)
        json.key("tool")
        json.beginObject()
        json.member("name", document.tool.name)
        json.member("version", document.tool.version)
        json.endObject()
        json.member("version", document.version)
        json.endObject()
        // The final line break in the bytes: `text + "\n"` copied the whole report once more.
        json.lineBreak()
        return json.text
    }
}

private extension PrettyJSON {
    mutating func array<Element>(_ elements: [Element], _ write: (inout PrettyJSON, Element) -> Void) {
        beginArray()
        for element in elements {
            self.element()
            write(&self, element)
        }
        endArray()
    }

    mutating func write(_ entry: JSONReport.Entry) {
        beginObject()
        member("baseline", entry.baseline)
        member("column", entry.column)
        member("endColumn", entry.endColumn)
        member("endLine", entry.endLine)
        member("file", entry.file)
        member("fingerprint", entry.fingerprint)
        member("fix", entry.fix)
        member("line", entry.line)
        member("message", entry.message)
        key("related")
        array(entry.related) { json, related in
            json.beginObject()
            json.member("column", related.column)
            json.member("file", related.file)
            json.member("line", related.line)
            json.member("message", related.message)
            json.endObject()
        }
        key("replacement")
        if let replacement = entry.replacement { string(replacement) } else { null() }
        member("ruleId", entry.ruleId)
        member("severity", entry.severity)
        member("symbol", entry.symbol)
        endObject()
    }

    mutating func write(_ summary: JSONReport.Summary) {
        beginObject()
        key("byRule")
        beginObject()
        // Rule ids are lower-case ASCII words and hyphens: their byte order is the encoder's.
        for (rule, count) in summary.byRule.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            member(rule, count)
        }
        endObject()
        member("existing", summary.existing)
        member("filesScanned", summary.filesScanned)
        member("findings", summary.findings)
        member("fixedSinceBaseline", summary.fixedSinceBaseline)
        member("new", summary.new)
        if let notChecked = summary.notChecked { member("notChecked", notChecked) }
        member("parseErrors", summary.parseErrors)
        endObject()
    }
}
