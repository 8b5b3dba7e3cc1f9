import AuditBaseline
import AuditConfig
import AuditModel
import AuditRules
import Foundation
import TreeSitter

/// With `--diff-base`: what the change under review does to the gate itself. CI reads `.loadaudit.yml`
/// and the baseline from the change, so a pull request could switch a rule off, lower it, weaken
/// `fail-on`, exclude the folder it touches, or accept its own new findings into the baseline, and
/// pass. Each such change, against the merge base's versions of the two files, is a finding of its
/// own (`gate-weakened`, error), which fails the run unless `--allow-gate-changes` is given.
/// Owns the comparison only; reading files at the merge base is `GitChanges`'s.
public struct GateChanges {
    public static let ruleId = "gate-weakened"
    public static let description = RuleDescription(
        id: ruleId, severity: .error, fix: .manual,
        message: "This change weakens the loadaudit gate it is checked by.",
        help: "With --diff-base, .loadaudit.yml and the baseline are compared with their versions at the merge base: a rule switched off or lowered, a weaker fail-on, a wider exclude or narrower include, and baseline entries added are reported. Pass --allow-gate-changes where that is intended.",
        helpURI: nil)

    /// One weakening: the file (absolute) and line where it shows, and what it is.
    struct Change: Equatable {
        let file: String
        let line: Int
        let message: String
    }

    /// The weakenings of the configuration: the rules it leaves running and their severities, the
    /// failing severity (unless `--fail-on` decides it), and what it includes and excludes.
    static func configChanges(
        old: ProjectConfig?, new: ProjectConfig?, oldRules: RuleSet, newRules: RuleSet, failOnGiven: Bool, path: String, text: String
    ) -> [Change] {
        var changes: [Change] = []
        func line(of word: String) -> Int { lineNumber(of: word, in: text) }
        for rule in oldRules.rules {
            guard let now = newRules.rules.first(where: { $0.id == rule.id }) else {
                changes.append(Change(file: path, line: line(of: rule.id), message: "the rule \(rule.id) is switched off"))
                continue
            }
            if now.severity < rule.severity {
                changes.append(Change(file: path, line: line(of: rule.id),
                                      message: "the rule \(rule.id) is lowered from \(rule.severity.rawValue) to \(now.severity.rawValue)"))
            }
        }
        if let before = oldRules.unusedSuppressionSeverity {
            if let after = newRules.unusedSuppressionSeverity {
                if after < before {
                    changes.append(Change(file: path, line: line(of: UnusedSuppressionRule.id),
                                          message: "the rule \(UnusedSuppressionRule.id) is lowered from \(before.rawValue) to \(after.rawValue)"))
                }
            } else {
                changes.append(Change(file: path, line: line(of: UnusedSuppressionRule.id), message: "the rule \(UnusedSuppressionRule.id) is switched off"))
            }
        }
        if !failOnGiven {
            let before = old?.failOn ?? .some(.warning), after = new?.failOn ?? .some(.warning)
            if let before, after.map({ $0 > before }) ?? true {
                changes.append(Change(file: path, line: line(of: "fail-on"),
                                      message: "fail-on is weakened from \(before.rawValue) to \(after?.rawValue ?? "never")"))
            }
        }
        let oldExcludes = Set((old?.exclude ?? []).map(\.pattern)), oldIncludes = Set((old?.include ?? []).map(\.pattern))
        for pattern in (new?.exclude ?? []).map(\.pattern) where !oldExcludes.contains(pattern) {
            changes.append(Change(file: path, line: line(of: pattern), message: "exclude gains '\(pattern)'"))
        }
        // Include patterns added widen the scan; a first include list, or a pattern dropped, narrows it.
        let newIncludes = (new?.include ?? []).map(\.pattern)
        if oldIncludes.isEmpty, !newIncludes.isEmpty {
            changes.append(Change(file: path, line: line(of: "include"), message: "include narrows what is scanned to \(newIncludes.map { "'\($0)'" }.joined(separator: ", "))"))
        } else if !oldIncludes.isEmpty, case let lost = oldIncludes.subtracting(newIncludes), !lost.isEmpty {
            changes.append(Change(file: path, line: line(of: "include"), message: "include loses \(lost.sorted().map { "'\($0)'" }.joined(separator: ", "))"))
        }
        return changes
    }

    /// Entries the baseline gains: findings the change accepts instead of fixing.
    static func baselineChanges(old: BaselineFile?, new: BaselineFile, path: String, text: String) -> [Change] {
        let before = Set((old?.findings ?? []).map { "\($0.ruleId)|\($0.file)|\($0.fingerprint)" })
        return new.findings.filter { !before.contains("\($0.ruleId)|\($0.file)|\($0.fingerprint)") }.map { entry in
            Change(file: path, line: lineNumber(of: entry.fingerprint, in: text),
                   message: "the baseline gains an entry: \(entry.ruleId) in \(entry.file) (\(entry.snippet))")
        }
    }

    /// The first line (1-based) holding `word`, or 1.
    static func lineNumber(of word: String, in text: String) -> Int {
        guard let range = text.range(of: word) else { return 1 }
        return text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }

    /// The changes as findings, named relative to `base` (the folder reports name files from), with
    /// the line of `texts` (each file's text by its absolute path) they point at.
    static func findings(_ changes: [Change], base: String, texts: [String: String]) -> (findings: [Finding], absolutePaths: [String: String]) {
        var paths: [String: String] = [:]
        let sources = texts.mapValues { SourceText(bytes: Array($0.utf8)) }
        let findings = changes.map { change -> Finding in
            let file = RelativePath.from(base, to: change.file)
            paths[file] = change.file
            let point = SourcePoint(line: change.line, column: 1, byteOffset: 0)
            var finding = Finding(ruleId: ruleId, severity: .error, file: file, start: point, end: point, symbol: (change.file as NSString).lastPathComponent,
                                  message: "\(description.message) (\(change.message); --allow-gate-changes if intended)", replacement: nil, fix: .manual)
            finding.shownLine = sources[change.file].map { ShownLine(line: $0.lineText(change.line), start: point, end: point) }
            return finding
        }
        return (findings, paths)
    }
}
