import Foundation
import SwiftGrammar

/// A value as text, every stored property of it read by reflection (`Mirror`), nested values
/// included: the rules' cache key and the gate's matching key (`RuleSet.cacheKey`, `matchingKey`).
/// Nothing is listed by hand, so a property added to a rule, or to any part of one, is in both keys
/// with no change here. Sets and dictionaries are written sorted (their order changes from run to
/// run); a pattern, a replacement template and a regular expression as their text, which is what
/// they are parsed from.
enum ReflectedKey {
    /// The text of `value`; properties named in `omitted` (at any depth) are left out.
    static func of(_ value: Any, leavingOut omitted: Set<String> = []) -> String {
        switch value {
        case let text as String: return quoted(text)
        case let pattern as SwiftPattern: return "pattern " + quoted(pattern.text)
        case let template as ReplacementTemplate: return "template " + quoted(template.source)
        case let expression as NSRegularExpression: return "regex " + quoted(expression.pattern)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        let children = Array(mirror.children)
        switch mirror.displayStyle {
        case .optional:
            return children.first.map { of($0.value, leavingOut: omitted) } ?? "nil"
        case .set, .dictionary:
            // A dictionary's children are (key, value) tuples.
            return "{" + children.map { of($0.value, leavingOut: omitted) }.sorted().joined(separator: ",") + "}"
        case .collection:
            return "[" + children.map { of($0.value, leavingOut: omitted) }.joined(separator: ",") + "]"
        case .struct, .class, .tuple, .enum:
            if children.isEmpty { return "\(value)" }
            let parts = children.compactMap { child -> String? in
                if let label = child.label, omitted.contains(label) { return nil }
                return (child.label ?? "") + ":" + of(child.value, leavingOut: omitted)
            }
            // An enum with a payload is its case and the payload: the case is its one child's label
            // (its description would be the whole value written out, at every level of nesting).
            let name = mirror.displayStyle == .enum ? children.first?.label ?? "" : ""
            return name + "(" + parts.joined(separator: ",") + ")"
        default:
            return "\(value)"
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
