/// The code that replaces a deprecated call, with placeholders: `{size}` and `{label}`. A part in
/// square brackets is kept only when every placeholder inside it has a value:
/// `LoadingSpinner(size: .{size}[, label: {label}])`.
public struct ReplacementTemplate: Equatable, Sendable, CustomStringConvertible {
    public enum Placeholder: String, CaseIterable, Sendable {
        case size, label
    }

    indirect enum Part: Equatable, Sendable {
        case text(String)
        case placeholder(Placeholder)
        case optional([Part])
    }

    let parts: [Part]
    public let source: String

    public struct SyntaxError: Error, Equatable {
        public let problem: String
    }

    public init(_ source: String) throws {
        self.source = source
        var characters = Array(source)[...]
        parts = try Self.parse(&characters, nested: false)
    }

    public var placeholders: Set<Placeholder> {
        func collect(_ parts: [Part]) -> Set<Placeholder> {
            parts.reduce(into: Set<Placeholder>()) { result, part in
                switch part {
                case .text: break
                case .placeholder(let placeholder): result.insert(placeholder)
                case .optional(let inner): result.formUnion(collect(inner))
                }
            }
        }
        return collect(parts)
    }

    /// Placeholders outside any optional part: the template cannot be rendered without them.
    public var requiredPlaceholders: Set<Placeholder> {
        Set(parts.compactMap { if case .placeholder(let placeholder) = $0 { return placeholder } else { return nil } })
    }

    /// The replacement code, or nil when a required placeholder has no value.
    public func render(_ values: [Placeholder: String]) -> String? {
        func render(_ parts: [Part]) -> String? {
            var output = ""
            for part in parts {
                switch part {
                case .text(let text): output += text
                case .placeholder(let placeholder):
                    guard let value = values[placeholder] else { return nil }
                    output += value
                case .optional(let inner):
                    output += render(inner) ?? ""
                }
            }
            return output
        }
        return render(parts)
    }

    public var description: String { source }

    private static func parse(_ input: inout ArraySlice<Character>, nested: Bool) throws -> [Part] {
        var parts: [Part] = []
        var text = ""
        func flush() {
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
        }
        while let character = input.popFirst() {
            switch character {
            case "\\":
                guard let escaped = input.popFirst() else { throw SyntaxError(problem: "a lone '\\' at the end") }
                text.append(escaped)
            case "{":
                guard let close = input.firstIndex(of: "}") else { throw SyntaxError(problem: "'{' without a closing '}'") }
                let name = String(input[input.startIndex..<close])
                input = input[input.index(after: close)...]
                guard let placeholder = Placeholder(rawValue: name) else {
                    let known = Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                    throw SyntaxError(problem: "unknown placeholder '{\(name)}' (known: \(known); write \\{ for a literal brace)")
                }
                flush()
                parts.append(.placeholder(placeholder))
            case "}":
                throw SyntaxError(problem: "'}' without an opening '{' (write \\} for a literal brace)")
            case "[":
                flush()
                let inner = try parse(&input, nested: true)
                guard inner.contains(where: { if case .text = $0 { return false } else { return true } }) else {
                    throw SyntaxError(problem: "an optional part [...] without a placeholder is always kept: drop the brackets or write \\[")
                }
                parts.append(.optional(inner))
            case "]":
                guard nested else { throw SyntaxError(problem: "']' without an opening '[' (write \\] for a literal bracket)") }
                flush()
                return parts
            default:
                text.append(character)
            }
        }
        if nested { throw SyntaxError(problem: "'[' without a closing ']'") }
        flush()
        return parts
    }
}
