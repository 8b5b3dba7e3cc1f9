import AuditModel
import Foundation
import SwiftGrammar
import TreeSitter

/// Checks the label of one loading-component call: one static string of the allowed form
/// ("Loading games...", or a listed context label such as "Planning trip").
struct LabelStyleCheck {
    let rule: Rule
    /// The rule's settings (its `labelStyle` case).
    let style: LabelStyle
    let file: String
    let source: SourceText

    func check(_ call: SwiftCall) -> Candidate? {
        // Real progress is another component's business (and not a loading label).
        if let determinate = style.determinate {
            if call.arguments.contains(where: { $0.label.map(determinate.arguments.contains) ?? false }) { return nil }
            if let like = determinate.progressLike, call.arguments.count == 1, call.arguments[0].label == nil,
               UsageMatcher.readsLike(like, call.arguments[0].value) { return nil }
        }
        var label: Node?
        for name in style.labelArguments {
            let argument = name == "_" ? call.arguments.first { $0.label == nil } : call.arguments.first { $0.label == name }
            if let argument { label = argument.value; break }
        }
        if label == nil, style.labelArguments.contains("label"), call.trailingClosures.count == 1 { label = call.trailingClosures[0] }
        guard var value = label else { return nil }
        if value.type == SwiftNodeType.lambdaLiteral {
            // `ProgressView { Text("...") }`: the text inside is the label.
            guard let expression = SwiftExpressions.singleExpression(of: value), let text = SwiftCall(expression),
                  let name = text.calleeName, style.labelClosures.contains(name), let first = text.arguments.first, first.label == nil else {
                return candidate(value, "the label is a view, not one static string")
            }
            value = first.value
        }
        if SwiftExpressions.isPlainStringLiteral(value) {
            let text = String(value.text.dropFirst().dropLast())
            if style.allowedLabels.contains(text) { return nil }
            if let pattern = style.pattern, pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { return nil }
            return candidate(value, "\"\(text)\" \(style.mismatchReason ?? "does not match the rule's label-pattern nor is it one of its allowed-labels")")
        }
        if SwiftExpressions.isStringLiteral(value) {
            return candidate(value, "the label \(value.text) changes at run time (interpolation)")
        }
        return candidate(value, "the label is `\(value.text)`, not one static string")
    }

    private func candidate(_ node: Node, _ reason: String) -> Candidate {
        let start = node.startPosition
        let end = node.endPosition
        let finding = Finding(
            ruleId: rule.id, severity: rule.severity, file: file,
            start: SourcePoint(line: start.line, column: start.column, byteOffset: node.startByte),
            end: SourcePoint(line: end.line, column: end.column, byteOffset: node.endByte),
            symbol: "label", message: Candidate.message(rule.message, reasons: [reason]), replacement: nil, fix: .manual
        )
        var candidate = Candidate(finding: finding, moduleCheck: nil, ruleMessage: rule.message, reasons: [reason])
        candidate.ruleModule = rule.module
        return candidate
    }
}
