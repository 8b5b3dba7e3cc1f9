import Yams

/// A mistake in a rules file, located so the author can go straight to it: the file, the line and
/// column, what is wrong, and the text there (unless the message already quotes it). A loader that
/// reads on after a mistake gives every mistake it found: the first one, and the others in `more`.
public struct RulesFileError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let problem: String
    /// The text at the place (a value, or the start of its line), shown after the problem.
    public let near: String?
    /// The mistakes found after this one in the same run, in order; each is a line of `description`.
    public internal(set) var more: [RulesFileError] = []

    public init(file: String, line: Int?, column: Int? = nil, problem: String, near: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
        self.near = near.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// One error for several (nil for none): the first, with the others (and theirs) after it.
    public static func combining(_ errors: [RulesFileError]) -> RulesFileError? {
        let all = errors.flatMap(\.all)
        guard var first = all.first else { return nil }
        first.more = Array(all.dropFirst())
        return first
    }

    /// This mistake and those after it, each on its own.
    public var all: [RulesFileError] {
        var alone = self
        alone.more = []
        return [alone] + more.flatMap(\.all)
    }

    /// `description` with the files under `folder` named from it (as every output names files; those
    /// outside stay absolute).
    public func shown(from folder: String) -> String {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return all.map { error in
            let file = error.file.hasPrefix(prefix) ? String(error.file.dropFirst(prefix.count)) : error.file
            let shown = RulesFileError(file: file, line: error.line, column: error.column,
                                       problem: error.problem.replacingOccurrences(of: " " + prefix, with: " "), near: error.near)
            return shown.description
        }.joined(separator: "\n")
    }

    /// One line per mistake: `file:line:column: problem (near 'text')`.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        var text = "\(location): \(problem)"
        if let near { text += " (near '\(near)')" }
        return ([text] + more.map(\.description)).joined(separator: "\n")
    }
}

/// Reads typed values out of a composed YAML tree, turning every type mistake into a located error.
public struct YAMLReader {
    public let file: String
    /// The file's text, when given: errors then show the text at their place.
    public let text: String?

    public init(file: String, text: String? = nil) {
        self.file = file
        self.text = text
    }

    /// An error at a node, with the text there unless `problem` already quotes the node's value.
    public func error(_ node: Node?, _ problem: String) -> RulesFileError {
        guard let node, let mark = node.mark else { return RulesFileError(file: file, line: nil, problem: problem) }
        var near: String?
        if let scalar = node.scalar?.string {
            if !problem.contains("'\(scalar)'") { near = Self.shortened(scalar) }
        } else {
            near = self.near(line: mark.line, column: mark.column)
        }
        return RulesFileError(file: file, line: mark.line, column: mark.column, problem: problem, near: near)
    }

    /// The text of the file from a place to the end of its line (at most 40 characters), nil without
    /// the file's text or past its end.
    public func near(line: Int, column: Int) -> String? {
        guard let text, let lineText = Self.line(line, of: text) else { return nil }
        let rest = String(String.UnicodeScalarView(lineText.unicodeScalars.dropFirst(max(0, column - 1))))
        return Self.shortened(rest)
    }

    /// Where `fragment` first appears in the file at or after a place: its line and column (columns
    /// count Unicode scalars, as libyaml's do). Nil when it is not there (an escaped or folded value).
    public func place(of fragment: String, from line: Int, column: Int) -> (line: Int, column: Int)? {
        guard let text, !fragment.isEmpty, !fragment.contains("\n") else { return nil }
        var number = 0
        for lineText in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            guard number >= line else { continue }
            let scalars = Array(lineText.unicodeScalars)
            let wanted = Array(fragment.unicodeScalars)
            var start = number == line ? max(0, column - 1) : 0
            while start + wanted.count <= scalars.count {
                if Array(scalars[start..<(start + wanted.count)]) == wanted { return (number, start + 1) }
                start += 1
            }
        }
        return nil
    }

    static func line(_ number: Int, of text: String) -> Substring? {
        guard number >= 1 else { return nil }
        var current = 1
        for lineText in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == number { return lineText.last == "\r" ? lineText.dropLast() : lineText }
            current += 1
        }
        return nil
    }

    /// The first line of a text, without surrounding blanks, cut to 40 characters (`...` when cut).
    static func shortened(_ text: String) -> String? {
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = firstLine.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        return trimmed.count > 40 ? String(trimmed.prefix(40)) + "..." : trimmed
    }

    public func compose(_ text: String) throws -> Node {
        do {
            // Every value is read as the text it is written as (`string`, `bool`, `number` below), so no tag
            // needs resolving: the default resolver compiles seven regular expressions at every start.
            guard let node = try Yams.compose(yaml: text, .basic) else {
                throw RulesFileError(file: file, line: 1, column: 1, problem: "the file is empty")
            }
            return node
        } catch let error as YamlError {
            throw located(error)
        }
    }

    /// libyaml's error where the author looks for it. It says where it gave up and, often, what it was
    /// reading (`while scanning a quoted scalar`, and where that started). Something opened and never
    /// closed (a quote, a bracket) makes it give up at the end of the file, far from the mistake: then
    /// the error is where that thing starts.
    private func located(_ error: YamlError) -> RulesFileError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
            if let context, problem.contains("end of stream") || isAtEnd(mark) {
                let start = context.mark
                let what = context.text.hasPrefix("while ") ? String(context.text.dropFirst("while ".count)) : context.text
                let opened = what.contains("quoted scalar")
                    ? "the quoted text that starts here is never closed (the file ends first)"
                    : "\(what) that starts here is not finished (\(problem), at the end of the file)"
                return RulesFileError(file: file, line: start.line, column: start.column, problem: "YAML syntax: \(opened)",
                                      near: near(line: start.line, column: start.column))
            }
            var problemText = "YAML syntax: \(problem)"
            if let context { problemText += " (\(context.text) that starts at line \(context.mark.line), column \(context.mark.column))" }
            return RulesFileError(file: file, line: mark.line, column: mark.column, problem: problemText, near: near(line: mark.line, column: mark.column))
        default:
            return RulesFileError(file: file, line: nil, problem: "YAML: \(error)")
        }
    }

    /// Whether a mark is past the last character of the text (libyaml's end of stream).
    private func isAtEnd(_ mark: Mark) -> Bool {
        guard let text else { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lastLine = text.hasSuffix("\n") ? lines.count - 1 : lines.count
        return mark.line > lastLine
    }

    /// The message for an unknown key: the closest known keys first ("did you mean"), when one is
    /// a plausible typo (at most a third of the name's letters apart), then every known key.
    static func unknownKey(_ name: String, in what: String, allowed: Set<String>) -> String {
        let known = allowed.sorted()
        let distances = known.map { (key: $0, distance: editDistance(name, $0)) }
        let best = distances.map(\.distance).min() ?? .max
        let close = best <= max(1, name.count / 3) ? distances.filter { $0.distance == best }.map { "'\($0.key)'" } : []
        let guess = close.isEmpty ? "" : "; did you mean \(close.joined(separator: " or "))?"
        return "unknown key '\(name)' in \(what)\(guess) (known keys: \(known.joined(separator: ", ")))"
    }

    /// Levenshtein distance between two strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// A mapping whose keys are all among `allowed`; unknown keys are errors (a typo must not be ignored).
    public func mapping(_ node: Node, _ what: String, allowed: Set<String>) throws -> [String: Node] {
        guard let mapping = node.mapping else { throw error(node, "\(what) must be a mapping (key: value lines)") }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { throw error(key, "\(what) has a key that is not a plain word") }
            guard allowed.contains(name) else {
                throw error(key, Self.unknownKey(name, in: what, allowed: allowed))
            }
            guard result[name] == nil else { throw error(key, "key '\(name)' appears twice in \(what)") }
            result[name] = value
        }
        return result
    }

    /// Like `mapping`, for reading on after a mistake: each unknown or repeated key is noted in
    /// `errors` and left out; the other keys are returned.
    public func knownKeys(_ node: Node, _ what: String, allowed: Set<String>, errors: inout [RulesFileError]) throws -> [String: Node] {
        guard let mapping = node.mapping else { throw error(node, "\(what) must be a mapping (key: value lines)") }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                errors.append(error(key, "\(what) has a key that is not a plain word"))
                continue
            }
            guard allowed.contains(name) else {
                errors.append(error(key, Self.unknownKey(name, in: what, allowed: allowed)))
                continue
            }
            guard result[name] == nil else {
                errors.append(error(key, "key '\(name)' appears twice in \(what)"))
                continue
            }
            result[name] = value
        }
        return result
    }

    public func string(_ node: Node, _ what: String) throws -> String {
        guard let scalar = node.scalar else { throw error(node, "\(what) must be a single value, not a list or mapping") }
        return scalar.string
    }

    public func nonEmptyString(_ node: Node, _ what: String) throws -> String {
        let value = try string(node, what)
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw error(node, "\(what) is empty") }
        return value
    }

    public func number(_ node: Node, _ what: String) throws -> Double {
        guard let value = Double(try string(node, what)) else { throw error(node, "\(what) must be a number") }
        return value
    }

    public func bool(_ node: Node, _ what: String) throws -> Bool {
        switch try string(node, what) {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error(node, "\(what) must be true or false")
        }
    }

    public func stringList(_ node: Node, _ what: String) throws -> [String] {
        if node.scalar != nil { return [try string(node, what)] }
        guard let sequence = node.sequence else { throw error(node, "\(what) must be a list") }
        return try sequence.map { try string($0, "an entry of \(what)") }
    }

    public func list(_ node: Node, _ what: String) throws -> [Node] {
        guard let sequence = node.sequence else { throw error(node, "\(what) must be a list") }
        return Array(sequence)
    }

    public func enumValue<T: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, as type: T.Type) throws -> T where T.RawValue == String {
        let raw = try string(node, what)
        guard let value = T(rawValue: raw) else {
            let choices = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(node, "\(what) is '\(raw)'; expected one of: \(choices)")
        }
        return value
    }
}

import Foundation
