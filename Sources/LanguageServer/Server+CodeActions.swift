import Audit
import AuditModel
import Foundation

extension LanguageServer {
    /// The code actions for a range: for each finding there, its quick fix (the text `fix` would
    /// write for that finding alone, imports included; unsafe ones titled so; none for a manual
    /// finding) and a suppression comment; and the safe fixes of the whole file
    /// (`source.fixAll.loadaudit`).
    func codeActions(_ params: [String: Any]) -> [[String: Any]] {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let document = documents[uri], document.isSwift else { return [] }
        if document.judgedVersion != document.version { judge(uri) }
        guard let judged = documents[uri], case .success(let audit) = audit(for: judged.path) else { return [] }
        let only = ((params["context"] as? [String: Any])?["only"] as? [String])
        let wants = { (kind: String) in only.map { kinds in kinds.contains { kind == $0 || kind.hasPrefix($0 + ".") } } ?? true }
        let index = LineIndex(judged.text)
        var actions: [[String: Any]] = []
        if wants("quickfix") {
            let range = params["range"] as? [String: Any]
            let start = range?["start"] as? [String: Any], end = range?["end"] as? [String: Any]
            let from = index.offset(line: start?["line"] as? Int ?? 0, character: start?["character"] as? Int ?? 0)
            let to = index.offset(line: end?["line"] as? Int ?? 0, character: end?["character"] as? Int ?? 0)
            for (finding, diagnostic) in judged.findings where finding.start.byteOffset <= to && from <= finding.end.byteOffset {
                if let action = quickFix(finding, diagnostic, document: judged, audit: audit, index: index) { actions.append(action) }
                actions.append(suppression(finding, diagnostic, document: judged, index: index))
            }
        }
        if wants("source.fixAll.loadaudit"), judged.findings.contains(where: { $0.finding.fix == .safe && !$0.finding.edits.isEmpty }),
           let fixed = fixedText(judged, audit: audit, classes: [.safe], only: nil),
           let edit = Self.edit(from: judged.text, to: fixed, index: index) {
            actions.append(["title": "loadaudit: apply the safe fixes of this file", "kind": "source.fixAll.loadaudit",
                            "edit": ["changes": [uri: [edit]]]])
        }
        return actions
    }

    /// One finding's fix, from the same planner as `fix` (re-parsed, imports added or removed).
    private func quickFix(_ finding: Finding, _ diagnostic: [String: Any], document: Document, audit: Audit, index: LineIndex) -> [String: Any]? {
        guard finding.fix != .manual, !finding.edits.isEmpty, let replacement = finding.replacement else { return nil }
        let (ruleId, start, end, message) = (finding.ruleId, finding.start.byteOffset, finding.end.byteOffset, finding.message)
        let selects: @Sendable (Finding) -> Bool = {
            $0.ruleId == ruleId && $0.start.byteOffset == start && $0.end.byteOffset == end && $0.message == message
        }
        guard let fixed = fixedText(document, audit: audit, classes: [finding.fix], only: selects),
              let edit = Self.edit(from: document.text, to: fixed, index: index) else { return nil }
        let shown = replacement.count > 60 ? String(replacement.prefix(57)) + "..." : replacement
        let title = "loadaudit: replace \(finding.symbol) with \(shown.replacingOccurrences(of: "\n", with: " "))"
            + (finding.fix == .unsafe ? " (unsafe: review the change)" : "")
        return ["title": title, "kind": "quickfix", "diagnostics": [diagnostic], "isPreferred": finding.fix == .safe,
                "edit": ["changes": [document.uri: [edit]]]]
    }

    /// A `loadaudit:ignore-next-line RULE` comment on its own line above the finding, indented as that line.
    private func suppression(_ finding: Finding, _ diagnostic: [String: Any], document: Document, index: LineIndex) -> [String: Any] {
        let line = index.position(ofByte: finding.start.byteOffset).line
        var indentEnd = index.lineStarts[line]
        while indentEnd < document.text.count, document.text[indentEnd] == 32 || document.text[indentEnd] == 9 { indentEnd += 1 }
        let indent = String(decoding: document.text[index.lineStarts[line]..<indentEnd], as: UTF8.self)
        let lineBreak = Self.lineBreak(of: document.text)
        let position = ["line": line, "character": 0]
        let edit: [String: Any] = ["range": ["start": position, "end": position],
                                   "newText": "\(indent)// loadaudit:ignore-next-line \(finding.ruleId)\(lineBreak)"]
        return ["title": "loadaudit: ignore \(finding.ruleId) on this line (suppression comment)", "kind": "quickfix",
                "diagnostics": [diagnostic], "edit": ["changes": [document.uri: [edit]]]]
    }

    private func fixedText(_ document: Document, audit: Audit, classes: Set<FixClass>, only: (@Sendable (Finding) -> Bool)?) -> [UInt8]? {
        let standIn = StandIn(file: writeStandIn(document.uri), name: document.path)
        return try? audit.fixedText(standIn, openBuffers: openBuffers(except: document.uri), classes: classes, only: only)
    }

    /// The one LSP text edit from `old` to `new` (positions in `old`).
    static func edit(from old: [UInt8], to new: [UInt8], index: LineIndex) -> [String: Any]? {
        guard let difference = LineIndex.difference(old, new) else { return nil }
        let start = index.position(ofByte: difference.range.lowerBound), end = index.position(ofByte: difference.range.upperBound)
        return ["range": ["start": ["line": start.line, "character": start.character], "end": ["line": end.line, "character": end.character]],
                "newText": String(decoding: difference.text, as: UTF8.self)]
    }

    /// The file's line break (`\r\n` when its first line ends so).
    static func lineBreak(of text: [UInt8]) -> String {
        guard let newline = text.firstIndex(of: 10) else { return "\n" }
        return newline > 0 && text[newline - 1] == 13 ? "\r\n" : "\n"
    }
}
