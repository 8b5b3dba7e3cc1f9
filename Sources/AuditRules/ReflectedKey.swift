import Foundation
import SwiftGrammar

/// A value as text, every stored property of it read by reflection (`Mirror`), nested values
/// included: the rules' cache key and the gate's matching key (`RuleSet.cacheKey`, `matchingKey`).
/// Nothing is listed by hand, so a property added to a rule, or to any part of one, is in both keys
/// with no change here. Sets and dictionaries are written sorted (their order changes from run to
/// run); a pattern, a replacement template and a regular expression as their text, which is what
/// they are parsed from.
///
/// The text is written into one byte buffer (no string per nested value, no joining), the values
/// whose types are known (text, numbers, truth values, optional text, lists, sets and tables of
/// text) are written without a mirror or the runtime's description, and a type is recognised by
/// comparing its metatype rather than by a dynamic cast: the same text as writing each value out by
/// itself (`ReflectedKeyEquivalenceTests` holds it to the plain reflection), at under half the cost
/// (docs/speed.md, "The rules' identity").
enum ReflectedKey {
    /// The text of `value`; properties named in `omitted` (at any depth) are left out.
    static func of(_ value: Any, leavingOut omitted: Set<String> = []) -> String {
        var writer = Writer(omitted: omitted)
        writer.bytes.reserveCapacity(4096)
        writer.write(value)
        return writer.text
    }

    private struct Writer {
        let omitted: Set<String>
        var bytes: [UInt8] = []

        mutating func write(_ value: Any) {
            let type = type(of: value)
            if type == String.self { return quote(value as! String) }
            if type == SwiftPattern.self { return text("pattern ", quoting: (value as! SwiftPattern).text) }
            if type == ReplacementTemplate.self { return text("template ", quoting: (value as! ReplacementTemplate).source) }
            if type == Int.self { return append((value as! Int).description) }
            if type == Double.self { return append((value as! Double).description) }
            if type == Bool.self { return append((value as! Bool) ? "true" : "false") }
            if writeTextContainer(value, type) { return }
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                if let child = mirror.children.first { write(child.value) } else { append("nil") }
            case .set, .dictionary:
                // A dictionary's children are (key, value) tuples. Sorted as text, as `String` sorts.
                writeSorted(mirror.children.map { child in
                    var part = Writer(omitted: omitted)
                    part.write(child.value)
                    return part.text
                })
            case .collection:
                bytes.append(UInt8(ascii: "["))
                for (index, child) in mirror.children.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    write(child.value)
                }
                bytes.append(UInt8(ascii: "]"))
            case .class:
                if let expression = value as? NSRegularExpression { return text("regex ", quoting: expression.pattern) }
                fallthrough
            case .struct, .tuple, .enum:
                let children = mirror.children
                guard let first = children.first else { return append("\(value)") }
                // An enum with a payload is its case and the payload: the case is its one child's label
                // (its description would be the whole value written out, at every level of nesting).
                if mirror.displayStyle == .enum { append(first.label ?? "") }
                bytes.append(UInt8(ascii: "("))
                var separated = false
                for child in children {
                    if let label = child.label, omitted.contains(label) { continue }
                    if separated { bytes.append(UInt8(ascii: ",")) }
                    separated = true
                    append(child.label ?? "")
                    bytes.append(UInt8(ascii: ":"))
                    write(child.value)
                }
                bytes.append(UInt8(ascii: ")"))
            default:
                append("\(value)")
            }
        }

        /// Optional text, lists, sets and tables of text: what most of a rule is made of, written as
        /// their mirrors would be (`nil`, `[...]`, `{...}` sorted, a table's entries as `(key:,value:)`)
        /// without making the mirrors. False for another type.
        private mutating func writeTextContainer(_ value: Any, _ type: Any.Type) -> Bool {
            if type == String?.self {
                if let text = value as! String? { quote(text) } else { append("nil") }
            } else if type == [String].self {
                bytes.append(UInt8(ascii: "["))
                for (index, text) in (value as! [String]).enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    quote(text)
                }
                bytes.append(UInt8(ascii: "]"))
            } else if type == [String]?.self {
                guard let list = value as! [String]? else { append("nil"); return true }
                write(list)
            } else if type == Set<String>.self {
                writeSorted((value as! Set<String>).map { text in
                    var part = Writer(omitted: omitted)
                    part.quote(text)
                    return part.text
                })
            } else if type == [String: String].self, !omitted.contains("key"), !omitted.contains("value") {
                writeSorted((value as! [String: String]).map { key, value in
                    var part = Writer(omitted: omitted)
                    part.append("(key:")
                    part.quote(key)
                    part.append(",value:")
                    part.quote(value)
                    part.bytes.append(UInt8(ascii: ")"))
                    return part.text
                })
            } else {
                return false
            }
            return true
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// `{` the parts sorted as `String` sorts them, separated by commas `}`.
        private mutating func writeSorted(_ parts: [String]) {
            bytes.append(UInt8(ascii: "{"))
            for (index, part) in parts.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(part)
            }
            bytes.append(UInt8(ascii: "}"))
        }

        private mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        private mutating func text(_ prefix: StaticString, quoting text: String) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
            quote(text)
        }

        /// The text in double quotes, a backslash and a double quote escaped by a backslash. Byte by
        /// byte where each of them stands alone (its neighbours are ASCII); otherwise as Foundation
        /// replaces them, which leaves one joined with a following combining mark (`"\u{301}`) as it is.
        private mutating func quote(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            let start = bytes.count
            var previous: UInt8 = 0, escapedLast = false
            for byte in text.utf8 {
                if escapedLast, byte >= 0x80 { return quoteAsFoundationDoes(text, from: start) }
                escapedLast = byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"")
                if escapedLast {
                    if previous >= 0x80 { return quoteAsFoundationDoes(text, from: start) }
                    bytes.append(UInt8(ascii: "\\"))
                }
                bytes.append(byte)
                previous = byte
            }
            bytes.append(UInt8(ascii: "\""))
        }

        private mutating func quoteAsFoundationDoes(_ text: String, from start: Int) {
            bytes.removeSubrange(start...)
            append(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
