// AuditBaseline: which findings are new. It owns fingerprints (a stable hash: a file format), the
// baseline file, and marking the findings on lines unchanged since a git ref (from AuditGit's
// GitChanges). It must not scan, render, or start git itself.

import AuditModel
import Foundation

/// Why a baseline file cannot be used.
public struct BaselineError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let problem: String
    /// Where in the file, when known (`file:line:column: problem`, as for rules and configuration).
    public var line: Int?
    public var column: Int?

    public init(file: String, problem: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.problem = problem
        self.line = line
        self.column = column
    }

    public var description: String {
        guard let line, let column else { return "\(file): \(problem)" }
        return "\(file):\(line):\(column): \(problem)"
    }
}

/// The accepted findings of a codebase (`.loadaudit-baseline.json`): sorted, pretty, stable, meant to
/// be reviewed in pull requests. Paths are relative to the baseline's folder, so the file means the
/// same wherever the scan runs from. No line numbers and no timestamps: it changes only when findings do.
public struct BaselineFile: Codable, Equatable {
    public static let defaultName = ".loadaudit-baseline.json"

    public struct Entry: Codable, Hashable, Comparable {
        public let ruleId: String
        public let file: String
        public let fingerprint: String
        /// The code, for the reviewer; not used for matching.
        public let snippet: String

        public static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.file, lhs.ruleId, lhs.fingerprint) < (rhs.file, rhs.ruleId, rhs.fingerprint)
        }
    }

    public var version: Int
    public var tool: String
    public var findings: [Entry]

    public init(entries: [Entry]) {
        version = 1
        tool = "loadaudit"
        findings = entries.sorted()
    }

    /// The baseline of `findings` (fingerprinted), with paths made relative to `folder`.
    public init(findings: [Finding], absolutePaths: [String: String], folder: String) {
        self.init(entries: findings.map { finding in
            Entry(ruleId: finding.ruleId, file: RelativePath.from(folder, to: absolutePaths[finding.file] ?? finding.file),
                  fingerprint: finding.fingerprint, snippet: finding.snippet)
        })
    }

    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    public static func read(_ path: String) throws -> BaselineFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BaselineError(file: path, problem: FileManager.default.fileExists(atPath: path)
                ? "cannot read the baseline" : "no such baseline (create it with `loadaudit baseline`)")
        }
        let baseline: BaselineFile
        do {
            baseline = try JSONDecoder().decode(BaselineFile.self, from: data)
        } catch DecodingError.dataCorrupted(let context) {
            if let place = JSONLocator.syntaxError(in: [UInt8](data)) {
                throw BaselineError(file: path, problem: "not valid JSON: \(place.message)", line: place.line, column: place.column)
            }
            throw BaselineError(file: path, problem: "not valid JSON (\(context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription))")
        } catch DecodingError.keyNotFound(let key, let context) {
            throw located(BaselineError(file: path, problem: "missing '\(key.stringValue)' at \(codingPath(context.codingPath))"), context.codingPath, data)
        } catch DecodingError.typeMismatch(_, let context) {
            throw located(BaselineError(file: path, problem: "wrong type at \(codingPath(context.codingPath)): \(context.debugDescription)"),
                          context.codingPath, data)
        } catch DecodingError.valueNotFound(_, let context) {
            throw located(BaselineError(file: path, problem: "missing value at \(codingPath(context.codingPath))"), context.codingPath, data)
        } catch {
            throw BaselineError(file: path, problem: "not a loadaudit baseline (\(error))")
        }
        guard baseline.version == 1 else {
            throw BaselineError(file: path, problem: "unsupported baseline version \(baseline.version) (this loadaudit reads version 1)")
        }
        return baseline
    }

    /// The error with the line and column of the value the decoder stopped at, when it can be found.
    private static func located(_ error: BaselineError, _ path: [CodingKey], _ data: Data) -> BaselineError {
        let steps = path.map { key in key.intValue.map(JSONLocator.Step.index) ?? .key(key.stringValue) }
        guard let place = JSONLocator.place(of: steps, in: [UInt8](data)) else { return error }
        var located = error
        located.line = place.line
        located.column = place.column
        return located
    }

    private static func codingPath(_ path: [CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    /// Marks each finding new or existing, and returns the entries no finding matched among those in
    /// scope. `inScope` is asked with each entry's absolute path: an entry of a file the scan did not
    /// cover (a scan of a subfolder) is neither matched nor fixed. `checked` is asked with each entry's
    /// rule id: an entry of a rule that did not run (switched off, not selected) is neither either.
    public func compare(
        _ findings: inout [Finding], absolutePaths: [String: String], folder: String, inScope: (String) -> Bool = { _ in true },
        checked: (String) -> Bool = { _ in true }
    ) -> [StaleEntry] {
        func key(_ ruleId: String, _ file: String, _ fingerprint: String) -> String {
            [ruleId, file, fingerprint].joined(separator: "\u{1F}")
        }
        let scoped = self.findings.filter { checked($0.ruleId) && inScope(Self.absolutePath(of: $0, in: folder)) }
        var unmatched = Dictionary(scoped.map { (key($0.ruleId, $0.file, $0.fingerprint), $0) }, uniquingKeysWith: { first, _ in first })
        for index in findings.indices {
            let finding = findings[index]
            let file = RelativePath.from(folder, to: absolutePaths[finding.file] ?? finding.file)
            if unmatched.removeValue(forKey: key(finding.ruleId, file, finding.fingerprint)) != nil {
                findings[index].baseline = .existing
            }
        }
        return unmatched.values.sorted().map { StaleEntry(ruleId: $0.ruleId, file: $0.file, fingerprint: $0.fingerprint, snippet: $0.snippet) }
    }

    /// How many entries in scope (see `compare`) belong to rules that did not run, per rule id: the
    /// scan could not check them.
    public func notChecked(folder: String, inScope: (String) -> Bool = { _ in true }, checked: (String) -> Bool) -> [String: Int] {
        findings.filter { !checked($0.ruleId) && inScope(Self.absolutePath(of: $0, in: folder)) }
            .reduce(into: [:]) { $0[$1.ruleId, default: 0] += 1 }
    }

    /// The baseline of a scan that covered only part of the project, or ran only some rules: today's
    /// `findings` for the files in scope and the rules that ran (`checked`), and this baseline's other
    /// entries kept as they were (counted: outside the scope, and of rules that did not run).
    public func updated(
        with findings: [Finding], absolutePaths: [String: String], folder: String, inScope: (String) -> Bool,
        checked: (String) -> Bool = { _ in true }
    ) -> (baseline: BaselineFile, keptOutOfScope: Int, keptNotChecked: Int) {
        var outOfScope = 0, notChecked = 0
        let kept = self.findings.filter { entry in
            if !inScope(Self.absolutePath(of: entry, in: folder)) {
                outOfScope += 1
                return true
            }
            if !checked(entry.ruleId) {
                notChecked += 1
                return true
            }
            return false
        }
        let current = BaselineFile(findings: findings, absolutePaths: absolutePaths, folder: folder)
        return (BaselineFile(entries: kept + current.findings), outOfScope, notChecked)
    }

    /// Where an entry's file is (its path is relative to the baseline's folder).
    static func absolutePath(of entry: Entry, in folder: String) -> String {
        entry.file.hasPrefix("/") ? entry.file : URL(fileURLWithPath: folder).appendingPathComponent(entry.file).standardizedFileURL.path
    }
}

/// Relative paths between absolute ones, with `..` where needed.
public enum RelativePath {
    public static func from(_ folder: String, to path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let base = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < target.count, base[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }
}
