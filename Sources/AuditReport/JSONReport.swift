import AuditModel
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
                fixedSinceBaseline: result.staleEntries.count
            )
        )
    }

    public static func render(_ context: ReportContext) -> String {
        render(context.result, toolVersion: context.toolVersion)
    }

    /// Pretty, key-sorted JSON with a final newline: byte-identical for identical results.
    public static func render(_ result: ScanResult, toolVersion: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(document(result, toolVersion: toolVersion))
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            preconditionFailure("encoding plain values cannot fail: \(error)")
        }
    }
}
