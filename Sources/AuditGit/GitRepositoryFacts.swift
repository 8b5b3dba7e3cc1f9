import Foundation

/// What names a work tree for reports: its top folder, the `origin` remote's URL, HEAD's hash and
/// committer time. Every answer is nil where git has none (not a work tree, no remote, no commit).
public enum GitRepositoryFacts {
    /// The work tree's top folder holding `folder`.
    public static func top(of folder: String) -> String? {
        answer(["rev-parse", "--show-toplevel"], in: folder)
    }

    /// The URL of the `origin` remote.
    public static func originURL(in folder: String) -> String? {
        answer(["config", "--get", "remote.origin.url"], in: folder)
    }

    /// HEAD's hash and committer time (seconds since 1970).
    public static func head(in folder: String) -> (commit: String, time: Int)? {
        guard let line = answer(["log", "-1", "--format=%H %ct", "HEAD"], in: folder) else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 2, let time = Int(parts[1]) else { return nil }
        return (String(parts[0]), time)
    }

    private static func answer(_ arguments: [String], in folder: String) -> String? {
        guard let text = try? Git.run(arguments, in: folder) else { return nil }
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.isEmpty ? nil : line
    }
}
