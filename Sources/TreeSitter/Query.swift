import CTreeSitter
import Foundation

/// Why a query's source was rejected, with the byte offset the C library points at.
public struct QueryError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case syntax, nodeType = "node type", field, capture, structure, language, predicate
    }

    public let kind: Kind
    public let offset: Int
    public let detail: String

    public var description: String {
        "invalid query (\(kind.rawValue) error at offset \(offset))" + (detail.isEmpty ? "" : ": \(detail)")
    }
}

/// A text predicate on captures. The C library parses these but leaves their evaluation to clients.
public enum QueryPredicate: @unchecked Sendable {
    public enum Operand: Equatable, Sendable {
        case capture(String)
        case string(String)
    }

    /// `#eq?` / `#not-eq?`: the capture's text equals a string or another capture's text.
    case equal(capture: String, other: Operand, negated: Bool)
    /// `#match?` / `#not-match?`: the capture's text matches a regular expression (searched, not anchored).
    case match(capture: String, regex: NSRegularExpression, negated: Bool)
    /// `#any-of?` / `#not-any-of?`: the capture's text is one of the strings.
    case anyOf(capture: String, values: Set<String>, negated: Bool)
}

/// A compiled query. Immutable once built, so one query can serve many threads' cursors.
public final class Query: @unchecked Sendable {
    let pointer: OpaquePointer
    public let captureNames: [String]
    /// The predicates of each pattern, by pattern index.
    public let predicates: [[QueryPredicate]]

    public init(language: Language = .swift, source: String) throws {
        var errorOffset: UInt32 = 0
        var errorType = TSQueryErrorNone
        let utf8 = Array(source.utf8)
        let query = utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                ts_query_new(language.pointer, chars.baseAddress, UInt32(chars.count), &errorOffset, &errorType)
            }
        }
        guard let query else {
            throw QueryError(kind: Query.kind(of: errorType), offset: Int(errorOffset), detail: Query.excerpt(utf8, at: Int(errorOffset)))
        }
        pointer = query
        captureNames = (0..<ts_query_capture_count(query)).map { id in
            var length: UInt32 = 0
            return String(cString: ts_query_capture_name_for_id(query, id, &length))
        }
        do {
            predicates = try (0..<ts_query_pattern_count(query)).map { pattern in
                try Query.readPredicates(query: query, pattern: pattern)
            }
        } catch {
            ts_query_delete(query)
            throw error
        }
    }

    deinit {
        ts_query_delete(pointer)
    }

    public var patternCount: Int { Int(ts_query_pattern_count(pointer)) }

    private static func kind(of error: TSQueryError) -> QueryError.Kind {
        switch error {
        case TSQueryErrorNodeType: return .nodeType
        case TSQueryErrorField: return .field
        case TSQueryErrorCapture: return .capture
        case TSQueryErrorStructure: return .structure
        case TSQueryErrorLanguage: return .language
        default: return .syntax
        }
    }

    private static func excerpt(_ utf8: [UInt8], at offset: Int) -> String {
        guard offset < utf8.count else { return "at the end of the query" }
        let slice = utf8[offset..<min(utf8.count, offset + 24)]
        return "near '\(String(decoding: slice, as: UTF8.self))'"
    }

    private enum Step {
        case capture(String)
        case string(String)
    }

    private static func readPredicates(query: OpaquePointer, pattern: UInt32) throws -> [QueryPredicate] {
        var stepCount: UInt32 = 0
        guard let steps = ts_query_predicates_for_pattern(query, pattern, &stepCount), stepCount > 0 else { return [] }
        var result: [QueryPredicate] = []
        var current: [Step] = []
        for index in 0..<Int(stepCount) {
            let step = steps[index]
            var length: UInt32 = 0
            switch step.type {
            case TSQueryPredicateStepTypeCapture:
                current.append(.capture(String(cString: ts_query_capture_name_for_id(query, step.value_id, &length))))
            case TSQueryPredicateStepTypeString:
                current.append(.string(String(cString: ts_query_string_value_for_id(query, step.value_id, &length))))
            default:
                if let predicate = try makePredicate(current, query: query, pattern: pattern) {
                    result.append(predicate)
                }
                current = []
            }
        }
        return result
    }

    private static func makePredicate(_ steps: [Step], query: OpaquePointer, pattern: UInt32) throws -> QueryPredicate? {
        let offset = Int(ts_query_start_byte_for_pattern(query, pattern))
        func fail(_ detail: String) -> QueryError { QueryError(kind: .predicate, offset: offset, detail: detail) }
        guard case .string(let name)? = steps.first else { throw fail("a predicate must start with its name") }
        // Directives (`#set!`, ...) carry metadata for other tools; they do not filter matches.
        if name.hasSuffix("!") { return nil }
        let supported: Set<String> = ["eq?", "not-eq?", "match?", "not-match?", "any-of?", "not-any-of?"]
        guard supported.contains(name) else {
            throw fail("unsupported predicate #\(name) (supported: #eq?, #not-eq?, #match?, #not-match?, #any-of?, #not-any-of?)")
        }
        let arguments = Array(steps.dropFirst())
        guard case .capture(let capture)? = arguments.first else {
            throw fail("#\(name) takes a capture as its first argument")
        }
        let rest = arguments.dropFirst()
        switch name {
        case "eq?", "not-eq?":
            guard rest.count == 1, let other = rest.first else { throw fail("#\(name) takes exactly two arguments") }
            let operand: QueryPredicate.Operand
            switch other {
            case .capture(let name): operand = .capture(name)
            case .string(let value): operand = .string(value)
            }
            return .equal(capture: capture, other: operand, negated: name == "not-eq?")
        case "match?", "not-match?":
            guard rest.count == 1, case .string(let pattern)? = rest.first else {
                throw fail("#\(name) takes a capture and one regular expression string")
            }
            do {
                return .match(capture: capture, regex: try NSRegularExpression(pattern: pattern), negated: name == "not-match?")
            } catch {
                throw fail("#\(name) has an invalid regular expression '\(pattern)'")
            }
        case "any-of?", "not-any-of?":
            var values = Set<String>()
            for step in rest {
                guard case .string(let value) = step else { throw fail("#\(name) takes strings after its capture") }
                values.insert(value)
            }
            guard !values.isEmpty else { throw fail("#\(name) needs at least one string") }
            return .anyOf(capture: capture, values: values, negated: name == "not-any-of?")
        default:
            throw fail("unsupported predicate #\(name) (supported: #eq?, #not-eq?, #match?, #not-match?, #any-of?, #not-any-of?)")
        }
    }
}

/// One capture of a match: the name it was given in the query, and the node.
public struct QueryCapture {
    public let name: String
    public let node: Node
}

/// A match of one pattern whose predicates all hold.
public struct QueryMatch {
    public let patternIndex: Int
    public let captures: [QueryCapture]

    public func nodes(named name: String) -> [Node] {
        captures.filter { $0.name == name }.map(\.node)
    }

    public func node(named name: String) -> Node? {
        captures.first { $0.name == name }?.node
    }
}

/// Runs a query over a tree. Holds C state: use one per thread.
public final class QueryCursor {
    private let pointer: OpaquePointer

    public init() {
        pointer = ts_query_cursor_new()
    }

    deinit {
        ts_query_cursor_delete(pointer)
    }

    /// All matches under `node` whose predicates hold, in the order the C library yields them.
    public func matches(of query: Query, in node: Node) -> [QueryMatch] {
        ts_query_cursor_exec(pointer, query.pointer, node.raw)
        var results: [QueryMatch] = []
        var match = TSQueryMatch()
        while ts_query_cursor_next_match(pointer, &match) {
            var captures: [QueryCapture] = []
            captures.reserveCapacity(Int(match.capture_count))
            for index in 0..<Int(match.capture_count) {
                let capture = match.captures[index]
                captures.append(QueryCapture(name: query.captureNames[Int(capture.index)], node: Node(raw: capture.node, tree: node.tree)))
            }
            let candidate = QueryMatch(patternIndex: Int(match.pattern_index), captures: captures)
            if Self.satisfies(candidate, query.predicates[candidate.patternIndex]) {
                results.append(candidate)
            }
        }
        return results
    }

    static func satisfies(_ match: QueryMatch, _ predicates: [QueryPredicate]) -> Bool {
        predicates.allSatisfy { predicate in
            switch predicate {
            case .equal(let capture, let other, let negated):
                let texts = match.nodes(named: capture).map(\.text)
                let expected: [String]
                switch other {
                case .string(let value): expected = [value]
                case .capture(let name): expected = match.nodes(named: name).map(\.text)
                }
                // Quantified captures: every node must satisfy the predicate.
                return texts.allSatisfy { text in expected.allSatisfy { (text == $0) != negated } }
            case .match(let capture, let regex, let negated):
                return match.nodes(named: capture).allSatisfy { node in
                    let text = node.text
                    let found = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                    return found != negated
                }
            case .anyOf(let capture, let values, let negated):
                return match.nodes(named: capture).allSatisfy { values.contains($0.text) != negated }
            }
        }
    }
}
