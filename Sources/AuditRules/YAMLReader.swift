import Yams

/// A mistake in a rules file, located so the author can go straight to it.
public struct RulesFileError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let problem: String

    public init(file: String, line: Int?, column: Int? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(problem)"
    }
}

/// Reads typed values out of a composed YAML tree, turning every type mistake into a located error.
public struct YAMLReader {
    public let file: String

    public init(file: String) {
        self.file = file
    }

    public func error(_ node: Node?, _ problem: String) -> RulesFileError {
        RulesFileError(file: file, line: node?.mark?.line, column: node?.mark?.column, problem: problem)
    }

    public func compose(_ text: String) throws -> Node {
        do {
            // Every value is read as the text it is written as (`string`, `bool`, `number` below), so no tag
            // needs resolving: the default resolver compiles seven regular expressions at every start.
            guard let node = try Yams.compose(yaml: text, .basic) else {
                throw RulesFileError(file: file, line: 1, problem: "the file is empty")
            }
            return node
        } catch let error as YamlError {
            throw located(error)
        }
    }

    private func located(_ error: YamlError) -> RulesFileError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return RulesFileError(file: file, line: mark.line, column: mark.column, problem: "YAML syntax: \(problem)")
        default:
            return RulesFileError(file: file, line: nil, problem: "YAML: \(error)")
        }
    }

    /// A mapping whose keys are all among `allowed`; unknown keys are errors (a typo must not be ignored).
    public func mapping(_ node: Node, _ what: String, allowed: Set<String>) throws -> [String: Node] {
        guard let mapping = node.mapping else { throw error(node, "\(what) must be a mapping (key: value lines)") }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { throw error(key, "\(what) has a key that is not a plain word") }
            guard allowed.contains(name) else {
                let known = allowed.sorted().joined(separator: ", ")
                throw error(key, "unknown key '\(name)' in \(what) (known keys: \(known))")
            }
            guard result[name] == nil else { throw error(key, "key '\(name)' appears twice in \(what)") }
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
