import AuditModel
import AuditRules
import Foundation
import Yams

/// `.loadaudit.yml`: what a team decides once for its repository. Found in the scanned folder or one
/// of its parents (or named with `--config`). Paths in it are relative to its own folder.
public struct ProjectConfig: Equatable {
    public static let fileName = ".loadaudit.yml"
    static let keys: Set<String> = ["include", "exclude", "rules", "built-in-rules", "severity", "baseline", "fail-on"]

    /// The file it was read from.
    public var path: String
    public var folder: String { (path as NSString).deletingLastPathComponent }
    public var include: [Glob] = []
    public var exclude: [Glob] = []
    /// Extra rules files, absolute.
    public var rulesFiles: [String] = []
    public var builtInRules = true
    /// nil switches a rule off.
    public var severities: [String: Severity?] = [:]
    /// Where the `severity` entries are, to report unknown rule ids at their line.
    public var severityLines: [String: Int] = [:]
    /// Absolute.
    public var baseline: String?
    /// nil means `never`.
    public var failOn: Severity?? = nil

    public init(path: String) {
        self.path = path
    }

    /// The config for a scan of `start`: the nearest `.loadaudit.yml` at or above it, if any.
    public static func find(from start: String) -> String? {
        var isDirectory: ObjCBool = false
        var folder = URL(fileURLWithPath: start).standardizedFileURL
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            folder.deleteLastPathComponent()
        }
        while true {
            let candidate = folder.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    public static func load(_ path: String) throws -> ProjectConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RulesFileError(file: path, line: nil, problem: "cannot read the configuration file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RulesFileError(file: path, line: nil, problem: "the configuration file is not UTF-8 text")
        }
        var config = ProjectConfig(path: path)
        let reader = YAMLReader(file: path)
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return config }
        let fields = try reader.mapping(try reader.compose(text), "the configuration", allowed: keys)
        func resolve(_ relative: String) -> String {
            relative.hasPrefix("/") ? relative : URL(fileURLWithPath: config.folder).appendingPathComponent(relative).standardizedFileURL.path
        }
        func globs(_ key: String) throws -> [Glob] {
            guard let node = fields[key] else { return [] }
            return try reader.stringList(node, key).map { pattern in
                do { return try Glob(pattern) } catch { throw reader.error(node, "\(key): invalid pattern '\(pattern)'") }
            }
        }
        config.include = try globs("include")
        config.exclude = try globs("exclude")
        config.rulesFiles = try fields["rules"].map { try reader.stringList($0, "rules").map(resolve) } ?? []
        config.builtInRules = try fields["built-in-rules"].map { try reader.bool($0, "built-in-rules") } ?? true
        if let node = fields["severity"] {
            guard let mapping = node.mapping else { throw reader.error(node, "severity must map rule ids to off, note, warning or error") }
            for (key, value) in mapping {
                let id = try reader.nonEmptyString(key, "a rule id")
                let level = try reader.string(value, "the severity of \(id)")
                config.severityLines[id] = key.mark?.line
                if level == "off" || level == "false" {
                    config.severities[id] = .some(nil)
                } else if let severity = Severity(rawValue: level) {
                    config.severities[id] = severity
                } else {
                    throw reader.error(value, "the severity of \(id) is '\(level)'; expected off, note, warning or error")
                }
            }
        }
        config.baseline = try fields["baseline"].map { resolve(try reader.nonEmptyString($0, "baseline")) }
        if let node = fields["fail-on"] {
            let value = try reader.string(node, "fail-on")
            if value == "never" { config.failOn = .some(nil) } else if let severity = Severity(rawValue: value) { config.failOn = severity } else {
                throw reader.error(node, "fail-on is '\(value)'; expected note, warning, error or never")
            }
        }
        return config
    }

    /// Applies the per-rule severities, rejecting ids no rules file defines.
    public func apply(to ruleSet: inout RuleSet) throws {
        for id in severities.keys.sorted() where !ruleSet.knownRuleIds.contains(id) {
            throw RulesFileError(file: path, line: severityLines[id],
                                 problem: "severity names '\(id)', which is not a rule (known: \(ruleSet.knownRuleIds.sorted().joined(separator: ", ")))")
        }
        ruleSet.apply(severities: severities)
    }

    /// Whether a walked file (absolute path) is in scope: included (or no include list) and not excluded.
    public func admits(_ absolutePath: String) -> Bool {
        let relative = RelativePaths.relative(absolutePath, to: folder)
        if !include.isEmpty, !include.contains(where: { $0.matches(relative) }) { return false }
        return !exclude.contains { $0.matches(relative) }
    }

    public static func == (lhs: ProjectConfig, rhs: ProjectConfig) -> Bool {
        lhs.path == rhs.path
    }
}

enum RelativePaths {
    static func relative(_ path: String, to folder: String) -> String {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// A path pattern: `*` and `?` within a path component, `**` across components. A pattern without a
/// slash matches a file or folder name at any depth; a pattern that matches a folder matches all in it.
public struct Glob: Equatable {
    public let pattern: String
    private let regex: NSRegularExpression

    public init(_ pattern: String) throws {
        self.pattern = pattern
        var body = pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
        if !body.contains("/") { body = "**/" + body }
        if body.hasPrefix("/") { body.removeFirst() }
        var regex = "^"
        var characters = Array(body)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*":
                if characters.first == "*" {
                    characters.removeFirst()
                    if characters.first == "/" {
                        characters.removeFirst()
                        regex += "(?:.*/)?"
                    } else {
                        regex += ".*"
                    }
                } else {
                    regex += "[^/]*"
                }
            case "?": regex += "[^/]"
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        regex += "(?:/.*)?$"
        self.regex = try NSRegularExpression(pattern: regex)
    }

    public func matches(_ relativePath: String) -> Bool {
        regex.firstMatch(in: relativePath, range: NSRange(relativePath.startIndex..., in: relativePath)) != nil
    }

    public static func == (lhs: Glob, rhs: Glob) -> Bool { lhs.pattern == rhs.pattern }
}
