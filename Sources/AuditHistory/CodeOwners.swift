import Foundation

/// A repository's CODEOWNERS file, read as GitHub reads it: the first of `.github/CODEOWNERS`,
/// `CODEOWNERS`, `docs/CODEOWNERS`; one pattern and its owners per line; the last matching line wins;
/// a line GitHub would reject (a `!` negation, a `[...]` character range, an owner that is neither
/// `@user`, `@org/team` nor an e-mail address) is skipped and reported with its line number.
public struct CodeOwners {
    public struct Rule {
        public let pattern: String
        public let regex: NSRegularExpression
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
            guard let regex = try? NSRegularExpression(pattern: Self.regex(for: pattern)) else {
                problems.append("\(file):\(index + 1): the pattern '\(pattern)' cannot be read: line skipped")
                continue
            }
            rules.append(Rule(pattern: pattern, regex: regex, owners: Array(owners)))
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

    /// The pattern as a regular expression over repository-relative paths (gitignore's rules as
    /// GitHub applies them: anchored with a leading or inner `/`, at any depth otherwise; a folder's
    /// pattern covers all in it).
    static func regex(for pattern: String) -> String {
        var body = pattern
        let directory = body.hasSuffix("/")
        if directory { body.removeLast() }
        let anchored = body.hasPrefix("/") || body.dropFirst().contains("/")
        if body.hasPrefix("/") { body.removeFirst() }
        var regex = ""
        let characters = Array(body)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "*", index + 1 < characters.count, characters[index + 1] == "*" {
                regex += ".*"
                index += 2
                if index < characters.count, characters[index] == "/" { index += 1; regex += "(?:/)?" }
                continue
            }
            switch character {
            case "*": regex += "[^/]*"
            case "?": regex += "[^/]"
            case "\\":
                index += 1
                if index < characters.count { regex += NSRegularExpression.escapedPattern(for: String(characters[index])) }
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
            index += 1
        }
        let start = anchored ? "^" : "^(?:.*/)?"
        // `docs/*` owns the files right in docs, not those further down (GitHub's documented exception).
        let end = directory ? "/.*$" : pattern.hasSuffix("/*") ? "$" : "(?:/.*)?$"
        return start + regex + end
    }

    /// The owners of a repository-relative path: those of the last line that matches (none: unowned).
    public func owners(of path: String) -> [String]? {
        let range = NSRange(path.startIndex..., in: path)
        return rules.last { $0.regex.firstMatch(in: path, range: range) != nil }?.owners
    }
}
