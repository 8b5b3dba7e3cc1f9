// AuditConfig: .loadaudit.yml: scope globs, extra rules files, per-rule severities, the baseline's
// path, the failing severity. It must not scan or decide findings; it changes a RuleSet and says
// which paths are in scope.

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
    /// Which include and exclude patterns have matched a file so far.
    private let patternUse = PatternUse()

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
        return try parse(text, path: path)
    }

    /// The configuration in `text`, as if read from `path` (paths in it are relative to its folder):
    /// for another version of the file, such as the one at a git commit.
    public static func parse(_ text: String, path: String) throws -> ProjectConfig {
        var config = ProjectConfig(path: path)
        let reader = YAMLReader(file: path, text: text)
        // Nothing but blanks and comments: the defaults.
        let content = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        if content.allSatisfy({ $0.isEmpty || $0.hasPrefix("#") }) { return config }
        let fields = try reader.mapping(try reader.compose(text), "the configuration", allowed: keys)
        func resolve(_ relative: String) -> String {
            relative.hasPrefix("/") ? relative : URL(fileURLWithPath: config.folder).appendingPathComponent(relative).standardizedFileURL.path
        }
        func globs(_ key: String) throws -> [Glob] {
            guard let node = fields[key] else { return [] }
            return try reader.stringList(node, key).map { pattern in
                do { return try Glob(pattern) } catch {
                    throw reader.error(node, "\(key): invalid pattern '\(pattern)'\((error as? Glob.SyntaxError).map { ": \($0)" } ?? "")")
                }
            }
        }
        config.include = try globs("include")
        config.exclude = try globs("exclude")
        // A built-in rules file's name (`swiftui-deprecations`) stays a name, unless such a file is there.
        config.rulesFiles = try fields["rules"].map { try reader.stringList($0, "rules").map { name in
            RuleSet.builtInNames.contains(name) && !FileManager.default.fileExists(atPath: resolve(name)) ? name : resolve(name)
        } } ?? []
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
    /// Notes which patterns matched a file (`unmatchedPatterns`); safe to call from several threads.
    public func admits(_ absolutePath: String) -> Bool {
        let (included, excluded) = matchingPatterns(absolutePath)
        if !include.isEmpty, included.isEmpty { return false }
        patternUse.note(included: included, excluded: excluded)
        return excluded.isEmpty
    }

    /// Whether the configuration leaves a file (absolute path) in scope, without noting pattern use:
    /// for files no walk reached, such as a baseline's.
    public func includes(_ absolutePath: String) -> Bool {
        let (included, excluded) = matchingPatterns(absolutePath)
        return (include.isEmpty || !included.isEmpty) && excluded.isEmpty
    }

    /// The indices of the include patterns a file matches, and of the exclude patterns (asked only
    /// of a file some include, or no include list, lets in).
    private func matchingPatterns(_ absolutePath: String) -> (included: [Int], excluded: [Int]) {
        let relative = RelativePaths.relative(absolutePath, to: folder)
        let included = include.indices.filter { include[$0].matches(relative) }
        guard include.isEmpty || !included.isEmpty else { return (included, []) }
        return (included, exclude.indices.filter { exclude[$0].matches(relative) })
    }

    /// The include and exclude patterns that no walked file matched (an exclude: no included file), as
    /// "include: 'pattern'": a pattern that matches nothing is a mistake, not a choice. Meaningful after
    /// a walk of the configuration's whole folder.
    public var unmatchedPatterns: [String] {
        let (included, excluded) = patternUse.matched
        return include.indices.filter { !included.contains($0) }.map { "include: '\(include[$0].pattern)'" }
            + exclude.indices.filter { !excluded.contains($0) }.map { "exclude: '\(exclude[$0].pattern)'" }
    }

    public static func == (lhs: ProjectConfig, rhs: ProjectConfig) -> Bool {
        lhs.path == rhs.path
    }
}

/// The indices of the patterns that matched, noted from the threads that walk folders.
private final class PatternUse: @unchecked Sendable {
    private let lock = NSLock()
    private var included: Set<Int> = []
    private var excluded: Set<Int> = []

    func note(included newlyIncluded: [Int], excluded newlyExcluded: [Int]) {
        guard !newlyIncluded.isEmpty || !newlyExcluded.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        included.formUnion(newlyIncluded)
        excluded.formUnion(newlyExcluded)
    }

    var matched: (included: Set<Int>, excluded: Set<Int>) {
        lock.lock()
        defer { lock.unlock() }
        return (included, excluded)
    }
}

enum RelativePaths {
    static func relative(_ path: String, to folder: String) -> String {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// A path pattern, relative to the configuration's folder (a leading `./` or `/` changes nothing):
/// `PathGlob`'s `.configuration` dialect (its comment has the syntax: `*`, `?`, `**`, classes, braces,
/// escapes; no slash inside: at any depth; a folder's match covers all in it). Negation (`!pattern`) is
/// not supported: it is rejected, never ignored.
public struct Glob: Equatable {
    public let pattern: String
    private let glob: PathGlob

    public typealias SyntaxError = PathGlob.SyntaxError

    public init(_ pattern: String) throws {
        self.pattern = pattern
        if pattern.hasPrefix("!") {
            throw SyntaxError("negation ('!') is not supported: list what to scan in include and what to leave out in exclude")
        }
        glob = try PathGlob(pattern, syntax: .configuration)
    }

    public func matches(_ relativePath: String) -> Bool { glob.matches(relativePath) }

    public static func == (lhs: Glob, rhs: Glob) -> Bool { lhs.pattern == rhs.pattern }
}
