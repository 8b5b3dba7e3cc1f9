import AuditModel
import Foundation
import SwiftGrammar
import TreeSitter

/// A suppression comment: `loadaudit:` then a directive, the rule ids it is about (or `all`) and,
/// after a `-`, a reason. In a line comment (`// ...`) or a block comment (`/* ... */`):
/// - `ignore RULES`: the findings of its own line when code stands beside it, else of the next line;
/// - `ignore-next-line RULES`: the findings of the next line;
/// - `ignore-file RULES`: the whole file;
/// - `disable RULES` ... `enable RULES`: the lines from the one to the other (or to the end of the file).
/// A directive that names no rule silences nothing and is reported, as is one that silences nothing
/// (an `enable` with no `disable` before it included): `unused-suppression`.
public struct Suppression: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case ignore, ignoreNextLine, ignoreFile, disable, enable
    }

    public let kind: Kind
    /// The rule ids it names; `all` stands for every rule.
    public let ruleIds: [String]
    /// The lines whose findings it silences; nil for the whole file (empty for `enable`).
    public let lines: ClosedRange<Int>?
    public let line: Int
    public let column: Int
    public let byteRange: Range<Int>
    public let end: TextPosition
    public let reason: String?
    /// For `enable`: whether it ends a `disable` region (one that ends none is reported).
    public var endsARegion = false

    enum CodingKeys: String, CodingKey { case kind, ruleIds, lines, line, column, byteRange, end, reason, endsARegion }

    /// The directive's name in comments, by kind.
    public var directive: String {
        switch kind {
        case .ignore: return "loadaudit:ignore"
        case .ignoreNextLine: return "loadaudit:ignore-next-line"
        case .ignoreFile: return "loadaudit:ignore-file"
        case .disable: return "loadaudit:disable"
        case .enable: return "loadaudit:enable"
        }
    }

    static let pattern = try! NSRegularExpression(
        pattern: #"^loadaudit:(ignore-file|ignore-next-line|ignore|disable|enable)(?:\s+([A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*))?\s*(?:-+\s*(.*))?$"#)

    /// The text of a comment without its markers, on one line: `// x`, `/// x`, `/* x */`, `/** x */`.
    static func body(of comment: String) -> String {
        var text = Substring(comment.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.hasPrefix("/*") {
            text = text.dropFirst(2)
            if text.hasSuffix("*/") { text = text.dropLast(2) }
        } else {
            text = text.drop { $0 == "/" }
        }
        // Each line without its blanks and the `*` a documentation comment's lines may start with.
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces).drop { $0 == "*" }.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The suppressions among a file's comments.
    static func collect(in tree: Tree, skipsUnmarkedSubtrees: Bool = true) -> [Suppression] {
        var result: [Suppression] = []
        let source = tree.source
        let marker = Array("loadaudit:".utf8)
        // Most files have no suppression: one byte search instead of a walk over every comment.
        guard source.contains(marker) else { return [] }
        let wordOffsets = skipsUnmarkedSubtrees ? WordOffsets(source, words: [marker]) : .everywhere
        let lastLine = source.lineStarts.count
        tree.rootNode.walk { node in
            guard wordOffsets.anyStart(in: node.byteRange) else { return false }
            guard SwiftExpressions.isComment(node) else { return true }
            let text = body(of: node.text)
            guard text.hasPrefix("loadaudit:"),
                  let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let kindRange = Range(match.range(at: 1), in: text) else { return false }
            let position = node.startPosition, endPosition = node.endPosition
            let kind: Kind = ["ignore": .ignore, "ignore-next-line": .ignoreNextLine, "ignore-file": .ignoreFile,
                              "disable": .disable, "enable": .enable][String(text[kindRange])]!
            let ids = Range(match.range(at: 2), in: text).map { text[$0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
            let reason = Range(match.range(at: 3), in: text).map { String(text[$0]) }
            let lines: ClosedRange<Int>?
            switch kind {
            case .ignore: lines = aloneOnItsLines(node, source) ? min(endPosition.line + 1, lastLine)...min(endPosition.line + 1, lastLine) : position.line...position.line
            case .ignoreNextLine: lines = min(endPosition.line + 1, lastLine)...min(endPosition.line + 1, lastLine)
            case .ignoreFile: lines = nil
            case .disable: lines = position.line...lastLine  // Until an `enable`, below.
            case .enable: lines = position.line...position.line
            }
            result.append(Suppression(kind: kind, ruleIds: ids, lines: lines, line: position.line, column: position.column,
                                      byteRange: node.byteRange, end: endPosition, reason: reason.flatMap { $0.isEmpty ? nil : $0 }))
            return false
        }
        closeRegions(&result)
        return result
    }

    /// Whether only blanks stand beside the comment on its first and last lines.
    private static func aloneOnItsLines(_ node: Node, _ source: SourceText) -> Bool {
        let start = source.lineStarts[node.startPosition.line - 1]
        let lineEnd = source.bytes[node.endByte...].firstIndex(of: 10) ?? source.bytes.count
        let blank = { (byte: UInt8) in byte == 32 || byte == 9 || byte == 13 }
        return source.bytes[start..<node.startByte].allSatisfy(blank) && source.bytes[node.endByte..<lineEnd].allSatisfy(blank)
    }

    /// Each `disable` region ends at the line of the first `enable` after it that names one of its
    /// rules (or `all`, either side); an `enable` that ends none is kept as such, to be reported.
    private static func closeRegions(_ suppressions: inout [Suppression]) {
        let order = suppressions.indices.sorted { (suppressions[$0].line, suppressions[$0].column) < (suppressions[$1].line, suppressions[$1].column) }
        for (position, index) in order.enumerated() where suppressions[index].kind == .disable {
            let region = suppressions[index]
            guard let closer = order[(position + 1)...].first(where: { other in
                let candidate = suppressions[other]
                return candidate.kind == .enable && (candidate.ruleIds.contains("all") || region.ruleIds.contains("all")
                    || !Set(candidate.ruleIds).isDisjoint(with: region.ruleIds))
            }) else { continue }
            suppressions[closer].endsARegion = true
            suppressions[index] = Suppression(kind: .disable, ruleIds: region.ruleIds, lines: region.line...suppressions[closer].line,
                                              line: region.line, column: region.column, byteRange: region.byteRange, end: region.end,
                                              reason: region.reason)
        }
    }

    init(kind: Kind, ruleIds: [String], lines: ClosedRange<Int>?, line: Int, column: Int, byteRange: Range<Int>, end: TextPosition, reason: String?) {
        self.kind = kind
        self.ruleIds = ruleIds
        self.lines = lines
        self.line = line
        self.column = column
        self.byteRange = byteRange
        self.end = end
        self.reason = reason
    }

    /// The rule id of `finding` that this suppression silences it for (`all` or the finding's own), if any.
    func silencingId(for finding: Finding) -> String? {
        guard kind != .enable else { return nil }
        guard lines.map({ $0.contains(finding.start.line) }) ?? true else { return nil }
        if ruleIds.contains(finding.ruleId) { return finding.ruleId }
        return ruleIds.contains("all") && finding.ruleId != UnusedSuppressionRule.id ? "all" : nil
    }

    /// Where it acts, for messages: "on line 12", "on lines 4-20", "in this file".
    var placeDescription: String {
        guard let lines else { return "in this file" }
        return lines.count == 1 ? "on line \(lines.lowerBound)" : "on lines \(lines.lowerBound)-\(lines.upperBound)"
    }
}

/// The rule that reports suppressions that silence nothing, so they do not rot.
public enum UnusedSuppressionRule {
    public static let id = "unused-suppression"
    public static let message = "This loadaudit:ignore comment silences nothing; delete it."
}
