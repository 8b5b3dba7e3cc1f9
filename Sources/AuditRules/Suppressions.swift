import AuditModel
import Foundation
import TreeSitter

/// A `// loadaudit:ignore rule-id[, rule-id] - reason` comment (for its own line's code, or the next
/// line's when it stands alone) or a `// loadaudit:ignore-file rule-id` comment (for the whole file).
public struct Suppression: Hashable, Sendable, Codable {
    public let ruleIds: [String]
    /// The line whose findings it silences; nil for the whole file.
    public let targetLine: Int?
    public let line: Int
    public let column: Int
    public let byteRange: Range<Int>
    public let end: TextPosition
    public let reason: String?

    enum CodingKeys: String, CodingKey { case ruleIds, targetLine, line, column, byteRange, end, reason }

    static let pattern = try! NSRegularExpression(
        pattern: #"^//+\s*loadaudit:(ignore-file|ignore)\s+([A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*)\s*(?:-+\s*(.*))?$"#)

    /// The suppressions among a file's comments.
    static func collect(in tree: Tree, skipsUnmarkedSubtrees: Bool = true) -> [Suppression] {
        var result: [Suppression] = []
        let source = tree.source
        let marker = Array("loadaudit:".utf8)
        // Most files have no suppression: one byte search instead of a walk over every comment.
        guard source.contains(marker) else { return [] }
        let landmarks = skipsUnmarkedSubtrees ? Landmarks(source, words: [marker]) : .everywhere
        tree.rootNode.walk { node in
            guard landmarks.anyStart(in: node.byteRange) else { return false }
            guard node.type == "comment" else { return true }
            let text = node.text.trimmingCharacters(in: .whitespaces)
            guard text.contains("loadaudit:"),
                  let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let kind = Range(match.range(at: 1), in: text), let ids = Range(match.range(at: 2), in: text) else { return false }
            let position = node.startPosition
            let reason = Range(match.range(at: 3), in: text).map { String(text[$0]) }
            let fileWide = text[kind] == "ignore-file"
            let lineStart = source.lineStarts[position.line - 1]
            let aloneOnLine = source.bytes[lineStart..<node.startByte].allSatisfy { $0 == 32 || $0 == 9 }
            result.append(Suppression(
                ruleIds: text[ids].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                targetLine: fileWide ? nil : (aloneOnLine ? position.line + 1 : position.line),
                line: position.line,
                column: position.column,
                byteRange: node.byteRange,
                end: node.endPosition,
                reason: reason.flatMap { $0.isEmpty ? nil : $0 }
            ))
            return false
        }
        return result
    }

    func silences(_ finding: Finding) -> Bool {
        ruleIds.contains(finding.ruleId) && (targetLine == nil || targetLine == finding.start.line)
    }
}

/// The rule that reports suppressions that silence nothing, so they do not rot.
public enum UnusedSuppressionRule {
    public static let id = "unused-suppression"
    public static let message = "This loadaudit:ignore comment silences nothing; delete it."
}
