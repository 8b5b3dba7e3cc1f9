import AuditBaseline
import AuditGit
import AuditConfig
import AuditModel
import AuditRules
import Foundation
import TreeSitter

/// With `--diff-base`: what the change under review does to the gate itself. CI reads `.loadaudit.yml`,
/// the rules files and the baseline from the change, so a pull request could switch a rule off
/// (there or in a rules file), lower it, narrow its match, weaken `fail-on`, exclude the folder it
/// touches, or accept its own new findings into the baseline, and pass. Each such change, against the merge base's versions of the two files, is a finding of its
/// own (`gate-weakened`, error), which fails the run unless `--allow-gate-changes` is given.
/// Owns the comparison only; reading files at the merge base is `GitChanges`'s.
public struct GateChanges {
    public static let ruleId = "gate-weakened"
    public static let description = RuleDescription(
        id: ruleId, severity: .error, fix: .manual,
        message: "This change weakens the loadaudit gate it is checked by.",
        help: "With --diff-base, .loadaudit.yml, the rules files it and the command line name, and the baseline are compared with their versions at the merge base: a rule switched off or lowered, a rule whose match no longer finds what it found, a weaker fail-on, a wider exclude or narrower include, and baseline entries added are reported. Pass --allow-gate-changes where that is intended.",
        helpURI: nil)

    /// One weakening: the file (absolute) and line where it shows, and what it is.
    struct Change: Equatable {
        let file: String
        let line: Int
        let message: String
    }

    /// The weakenings of the rules that run (every rules file the configuration or the command line
    /// names, the built-in ones, and the configuration's severities): a rule switched off or
    /// lowered. Each is shown where it is written now: the configuration's line that names the rule,
    /// else the rule's `id:` line in its rules file (`texts`: the files' texts by absolute path).
    static func ruleChanges(old oldRules: RuleSet, new newRules: RuleSet, configPath: String?, texts: [String: String]) -> [Change] {
        var changes: [Change] = []
        func place(of id: String, definedAt origin: String, key: String) -> (String, Int) {
            if let configPath, let text = texts[configPath], let line = lineNumberIfPresent(of: id, in: text) { return (configPath, line) }
            let file = String(origin[..<(origin.lastIndex(of: ":") ?? origin.endIndex)])
            if let text = texts[file] {
                guard let idLine = lineNumberIfPresent(of: "id: \(id)", in: text) else { return (file, lineNumber(of: id, in: text)) }
                return (file, keyLine(key, ofRuleAt: idLine, in: text) ?? idLine)
            }
            return (configPath ?? file, 1)
        }
        for rule in oldRules.rules {
            guard let now = newRules.rules.first(where: { $0.id == rule.id }) else {
                let (file, line) = place(of: rule.id, definedAt: rule.origin, key: "enabled")
                changes.append(Change(file: file, line: line, message: "the rule \(rule.id) is switched off"))
                continue
            }
            if now.severity < rule.severity {
                let (file, line) = place(of: rule.id, definedAt: now.origin, key: "severity")
                changes.append(Change(file: file, line: line, message: "the rule \(rule.id) is lowered from \(rule.severity.rawValue) to \(now.severity.rawValue)"))
            }
        }
        if let before = oldRules.unusedSuppressionSeverity, let configPath {
            let line = lineNumber(of: UnusedSuppressionRule.id, in: texts[configPath] ?? "")
            if let after = newRules.unusedSuppressionSeverity {
                if after < before {
                    changes.append(Change(file: configPath, line: line,
                                          message: "the rule \(UnusedSuppressionRule.id) is lowered from \(before.rawValue) to \(after.rawValue)"))
                }
            } else {
                changes.append(Change(file: configPath, line: line, message: "the rule \(UnusedSuppressionRule.id) is switched off"))
            }
        }
        return changes
    }

    /// Rules whose new version no longer finds what the old one found here (`lost`: the old version's
    /// findings the new scan does not have), one change per rule, at its `id:` line.
    static func narrowedRules(_ lost: [Finding], new newRules: RuleSet, texts: [String: String]) -> [Change] {
        Dictionary(grouping: lost, by: \.ruleId).sorted { $0.key < $1.key }.compactMap { id, findings in
            guard let rule = newRules.rules.first(where: { $0.id == id }) else { return nil }
            let file = String(rule.origin[..<(rule.origin.lastIndex(of: ":") ?? rule.origin.endIndex)])
            let line = texts[file].flatMap { lineNumberIfPresent(of: "id: \(id)", in: $0) } ?? Int(rule.origin.split(separator: ":").last ?? "") ?? 1
            let first = findings.sorted(by: Finding.reportOrder)[0]
            let more = findings.count > 1 ? " and \(findings.count - 1) more" : ""
            return Change(file: file, line: line,
                          message: "the rule \(id) changed and no longer reports what it reported at the merge base: \(first.file):\(first.start.line)\(more)")
        }
    }

    /// The weakenings of the configuration itself: the failing severity (unless `--fail-on` decides
    /// it), and what it includes and excludes.
    static func configChanges(old: ProjectConfig?, new: ProjectConfig?, failOnGiven: Bool, path: String, text: String) -> [Change] {
        var changes: [Change] = []
        func line(of word: String) -> Int { lineNumber(of: word, in: text) }
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

    /// The line (1-based) of `key:` in the rules-file rule whose `id:` is on line `idLine`: the rule's
    /// lines are those of its list item (from its `- ` line to the next line as little indented).
    static func keyLine(_ key: String, ofRuleAt idLine: Int, in text: String) -> Int? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard idLine >= 1, idLine <= lines.count else { return nil }
        func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
        func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " } || line.drop { $0 == " " }.hasPrefix("#") }
        // The item's dash: the id line itself (`- id:`), else the nearest line above that starts one.
        var start = idLine - 1
        while start > 0, !lines[start].drop(while: { $0 == " " }).hasPrefix("- ") { start -= 1 }
        let itemIndent = indent(lines[start])
        // The item's own keys are as indented as its first one (after the dash); deeper ones are not its.
        let keyIndent = itemIndent + 1 + lines[start].dropFirst(itemIndent + 1).prefix { $0 == " " }.count
        var index = start
        repeat {
            let line = lines[index]
            let body = line.dropFirst(keyIndent)
            if index == start || indent(line) == keyIndent, body.hasPrefix("\(key):") { return index + 1 }
            index += 1
        } while index < lines.count && (isBlank(lines[index]) || indent(lines[index]) > itemIndent)
        return nil
    }

    /// The first line (1-based) holding `word`, or 1.
    static func lineNumber(of word: String, in text: String) -> Int {
        lineNumberIfPresent(of: word, in: text) ?? 1
    }

    static func lineNumberIfPresent(of word: String, in text: String) -> Int? {
        guard let range = text.range(of: word) else { return nil }
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
