import AuditModel
import Foundation

/// A repository's CODEOWNERS file, read as GitHub reads it: the first of `.github/CODEOWNERS`,
/// `CODEOWNERS`, `docs/CODEOWNERS`; one pattern and its owners per line; the last matching line wins;
/// a line GitHub would reject (a `!` negation, a `[...]` character range, an owner that is neither
/// `@user`, `@org/team` nor an e-mail address) is skipped and reported with its line number.
/// Patterns are `PathGlob`s of the `.codeOwners` dialect (gitignore's rules as GitHub applies them).
public struct CodeOwners {
    public struct Rule {
        public let pattern: String
        public let glob: PathGlob
        public let owners: [String]
    }

    public let file: String
    public let rules: [Rule]
    /// One line each: `CODEOWNERS:7: ...`, for lines skipped.
    public let problems: [String]

    /// The CODEOWNERS file of the work tree at `top`, nil when there is none.
    public static func load(top: String) -> CodeOwners? {
        for candidate in [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"] {
            if let text = try? String(contentsOfFile: top + "/" + candidate, encoding: .utf8) { return CodeOwners(text: text, file: candidate) }
        }
        return nil
    }

    public init(text: String, file: String) {
        self.file = file
        var rules: [Rule] = []
        var problems: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = Self.fields(line)
            let pattern = fields[0]
            let owners = fields.dropFirst().prefix { !$0.hasPrefix("#") }
            if let problem = Self.problem(pattern: pattern, owners: Array(owners)) {
                problems.append("\(file):\(index + 1): \(problem): line skipped")
                continue
            }
            let glob: PathGlob
            do { glob = try PathGlob(pattern, syntax: .codeOwners) } catch {
                problems.append("\(file):\(index + 1): the pattern '\(pattern)' cannot be read (\(error)): line skipped")
                continue
            }
            rules.append(Rule(pattern: pattern, glob: glob, owners: Array(owners)))
        }
        self.rules = rules
        self.problems = problems
    }

    /// A line's fields, split at spaces and tabs; `\\ ` is a space inside a path (as GitLab and
    /// Gitea document it).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", escaped = false
        for character in line {
            if escaped {
                if character != " " { field.append("\\") }
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == " " || character == "\t" {
                if !field.isEmpty { fields.append(field) }
                field = ""
            } else {
                field.append(character)
            }
        }
        if escaped { field.append("\\") }
        if !field.isEmpty { fields.append(field) }
        return fields
    }

    static func problem(pattern: String, owners: [String]) -> String? {
        if pattern.hasPrefix("!") { return "'\(pattern)': negation ('!') is not supported in CODEOWNERS" }
        if pattern.contains("[") { return "'\(pattern)': character ranges ('[...]') are not supported in CODEOWNERS" }
        if let bad = owners.first(where: { owner in !(owner.hasPrefix("@") && owner.count > 1) && !(owner.contains("@") && owner.contains(".")) }) {
            return "'\(bad)' is not an owner (@user, @org/team or an e-mail address)"
        }
        return nil
    }

    /// The owners of a repository-relative path: those of the last line that matches (none: unowned).
    /// Who owns a path, as reports name the group: its owners joined by a space, `(no owner)` when
    /// no line owns it or its line names no owner (`progress`'s findings by owner, `fix --split-by owner`).
    public func group(of path: String) -> String {
        let owners = owners(of: path) ?? []
        return owners.isEmpty ? Self.noOwner : owners.joined(separator: " ")
    }

    public static let noOwner = "(no owner)"

    public func owners(of path: String) -> [String]? {
        rules.last { $0.glob.matches(path) }?.owners
    }
}
