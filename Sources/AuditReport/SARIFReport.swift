import AuditModel
import Foundation

/// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), as GitHub code scanning and other
/// CI systems read it: rules with help, results with partial fingerprints, baseline states and fixes.
/// Columns count Unicode code points (`columnKind`); fix regions are byte ranges of the file.
public enum SARIFReport {
    public static let fingerprintKey = "loadaudit/v1"

    public static func render(_ context: ReportContext) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(log(context))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func log(_ context: ReportContext) -> Log {
        let reported = Set(context.result.findings.map(\.ruleId)).union(context.result.staleEntries.map(\.ruleId))
        let ruleIds = context.result.ruleIds + reported.subtracting(context.result.ruleIds).sorted()
        let rules = ruleIds.map { id -> ReportingDescriptor in
            let rule = context.rule(id)
            let help = rule?.help ?? rule?.message ?? id
            return ReportingDescriptor(
                id: id,
                shortDescription: Message(text: rule?.message ?? id),
                fullDescription: Message(text: help),
                help: MultiformatMessage(text: help, markdown: help + (rule.map { "\n\nFix class: `\($0.fix.rawValue)`." } ?? "")),
                helpUri: rule?.helpURI,
                defaultConfiguration: ReportingConfiguration(level: level(rule?.severity ?? .warning)),
                properties: PropertyBag(fix: rule?.fix.rawValue, tags: ["loadaudit", "migration"])
            )
        }
        var results = context.result.findings.map { finding -> Result in
            let location = ArtifactLocation(uri: uri(context.pathFromCurrentDirectory(finding)), uriBaseId: "SRCROOT")
            let fixes = finding.edits.isEmpty ? nil : [SARIFFix(
                description: Message(text: "Replace with \(finding.replacement ?? "the new component") (\(finding.fix.rawValue) fix)"),
                artifactChanges: [ArtifactChange(artifactLocation: location, replacements: finding.edits.map { edit in
                    Replacement(deletedRegion: Region(byteOffset: edit.range.lowerBound, byteLength: edit.range.count),
                                insertedContent: edit.text.isEmpty ? nil : ArtifactContent(text: edit.text))
                })]
            )]
            return Result(
                ruleId: finding.ruleId,
                ruleIndex: ruleIds.firstIndex(of: finding.ruleId),
                level: level(finding.severity),
                message: Message(text: finding.message + (finding.replacement.map { " Replace with: \($0)" } ?? "")),
                locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: location, region: Region(
                    startLine: finding.start.line, startColumn: finding.start.column,
                    endLine: finding.end.line, endColumn: finding.end.column)))],
                partialFingerprints: [fingerprintKey: finding.fingerprint],
                baselineState: context.comparesToBaseline ? (finding.baseline == .new ? "new" : "unchanged") : nil,
                fixes: fixes
            )
        }
        // Findings fixed since the baseline are results too, in the state "absent".
        for entry in context.result.staleEntries {
            results.append(Result(
                ruleId: entry.ruleId, ruleIndex: ruleIds.firstIndex(of: entry.ruleId), level: "none",
                message: Message(text: "Fixed since the baseline: \(entry.snippet)"),
                locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: ArtifactLocation(uri: uri(entry.file), uriBaseId: "BASELINEROOT"), region: nil))],
                partialFingerprints: [fingerprintKey: entry.fingerprint], baselineState: "absent", fixes: nil
            ))
        }
        let root = context.currentDirectory.hasSuffix("/") ? context.currentDirectory : context.currentDirectory + "/"
        var bases = ["SRCROOT": ArtifactLocationBase(uri: URL(fileURLWithPath: root).absoluteString)]
        if !context.result.staleEntries.isEmpty {
            let folder = context.baselineFolder.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
            bases["BASELINEROOT"] = ArtifactLocationBase(uri: folder.map { URL(fileURLWithPath: $0).absoluteString },
                                                         description: Message(text: "The folder of the baseline file"))
        }
        return Log(
            schema: "https://json.schemastore.org/sarif-2.1.0.json",
            version: "2.1.0",
            runs: [Run(
                tool: Tool(driver: ToolComponent(name: "loadaudit", version: context.toolVersion, semanticVersion: context.toolVersion, rules: rules)),
                originalUriBaseIds: bases,
                columnKind: "unicodeCodePoints",
                results: results
            )]
        )
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    /// A relative URI reference: path segments percent-encoded (spaces become %20).
    static func uri(_ path: String) -> String {
        // Path characters stay as they are (`+` in `View+Conditional.swift`); only what cannot stand
        // in a URI path, or would end it, is encoded.
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#[]%:")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    // MARK: - The parts of the SARIF object model loadaudit writes

    struct Log: Encodable {
        let schema: String
        let version: String
        let runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }

    struct Run: Encodable {
        let tool: Tool
        let originalUriBaseIds: [String: ArtifactLocationBase]
        let columnKind: String
        let results: [Result]
    }

    struct Tool: Encodable { let driver: ToolComponent }

    struct ToolComponent: Encodable {
        let name: String
        let version: String
        let semanticVersion: String
        let rules: [ReportingDescriptor]
    }

    struct ReportingDescriptor: Encodable {
        let id: String
        let shortDescription: Message
        let fullDescription: Message
        let help: MultiformatMessage
        let helpUri: String?
        let defaultConfiguration: ReportingConfiguration
        let properties: PropertyBag
    }

    struct ReportingConfiguration: Encodable { let level: String }

    struct PropertyBag: Encodable {
        let fix: String?
        let tags: [String]
    }

    struct Message: Encodable { let text: String }

    struct MultiformatMessage: Encodable {
        let text: String
        let markdown: String
    }

    struct Result: Encodable {
        let ruleId: String
        let ruleIndex: Int?
        let level: String
        let message: Message
        let locations: [Location]
        let partialFingerprints: [String: String]
        let baselineState: String?
        let fixes: [SARIFFix]?
    }

    struct Location: Encodable { let physicalLocation: PhysicalLocation }

    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region?
    }

    struct ArtifactLocation: Encodable {
        let uri: String
        let uriBaseId: String
    }

    struct ArtifactLocationBase: Encodable {
        let uri: String?
        var description: Message? = nil
    }

    struct Region: Encodable {
        var startLine: Int? = nil
        var startColumn: Int? = nil
        var endLine: Int? = nil
        var endColumn: Int? = nil
        var byteOffset: Int? = nil
        var byteLength: Int? = nil
    }

    struct SARIFFix: Encodable {
        let description: Message
        let artifactChanges: [ArtifactChange]
    }

    struct ArtifactChange: Encodable {
        let artifactLocation: ArtifactLocation
        let replacements: [Replacement]
    }

    struct Replacement: Encodable {
        let deletedRegion: Region
        let insertedContent: ArtifactContent?
    }

    struct ArtifactContent: Encodable { let text: String }
}
