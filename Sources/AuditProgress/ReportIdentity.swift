import Foundation

/// Which repository a report is of, at which commit, made with which rules: what `fleet` needs to
/// put reports of many repositories side by side, and to refuse to add up counts made with
/// different rules. `progress --format json` and `scan --format json` carry it (top-level keys
/// `repository`, `commit`, `date`, `rulesIdentity`).
public struct ReportIdentity: Codable, Equatable, Sendable {
    /// `--name`, else the `origin` remote reduced to owner/name, else the folder's name.
    public var repository: String
    /// HEAD's full hash; nil outside git.
    public var commit: String?
    /// HEAD's committer date (`YYYY-MM-DD`, UTC); outside git, the day of the run.
    public var date: String
    public var rulesIdentity: RulesIdentity

    public init(repository: String, commit: String?, date: String, rulesIdentity: RulesIdentity) {
        self.repository = repository
        self.commit = commit
        self.date = date
        self.rulesIdentity = rulesIdentity
    }

    /// `owner/name` of a remote URL: `https://github.com/owner/name(.git)(/)`,
    /// `git@github.com:owner/name.git`, `ssh://git@host:22/owner/name.git`, a local path (its last two
    /// folders); the last two parts of the path, `.git` and trailing slashes left out. Nil when
    /// nothing is left.
    public static func repositoryName(fromRemote url: String) -> String? {
        var text = url.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix(".git") { text.removeLast(4) }
        while text.hasSuffix("/") { text.removeLast() }
        if let scheme = text.range(of: "://") {
            // scheme://[user@]host[:port]/path: the path.
            let rest = text[scheme.upperBound...]
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            text = String(rest[rest.index(after: slash)...])
        } else if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
            // scp-like: [user@]host:path.
            text = String(text[text.index(after: colon)...])
        }
        let parts = text.split(separator: "/").filter { !$0.isEmpty && $0 != "." && $0 != ".." }
        guard let name = parts.last else { return nil }
        return parts.count >= 2 ? "\(parts[parts.count - 2])/\(name)" : String(name)
    }
}

/// The rules a report was made with: a hash of everything that decides what the rules find (every
/// property of every rule in force, the protected names, the severities) and the names of the
/// rules files (`built-in` for the bundled rules). Two reports with the same hash counted the same
/// way; with different hashes their counts are not comparable.
public struct RulesIdentity: Codable, Equatable, Hashable, Sendable {
    /// 16 hexadecimal digits.
    public var hash: String
    public var files: [String]

    public init(hash: String, files: [String]) {
        self.hash = hash
        self.files = files
    }

    /// "1a2b3c4d (built-in, team.yml)".
    public var shortDescription: String { "\(hash.prefix(8)) (\(files.isEmpty ? "no rules file" : files.joined(separator: ", ")))" }
}
