import AuditGit
import AuditProgress
import AuditProject
import Foundation

/// What `progress` makes of the history AuditGit reads: which commits, which samples, which of a
/// commit's files are under the scanned folder, and how they are grouped.
extension GitHistory {
    /// Opens the history of `folder` for `progress`, with its errors in the command's words.
    public static func forProgress(_ folder: String) throws -> GitHistory {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw HistoryError("\(folder): no such folder")
        }
        do {
            return try GitHistory(folder: folder)
        } catch GitHistory.Refusal.shallow(let oldest) {
            throw HistoryError("\(folder): a shallow clone, whose history reaches back to \(oldest) only: fetch the whole history first (git fetch --unshallow)")
        } catch {
            throw HistoryError("\(folder): not in a git work tree (progress reads its history)")
        }
    }

    /// Whether a path (from the top) is under the scanned folder.
    public func isInScope(_ path: String) -> Bool { prefix.isEmpty || path.hasPrefix(prefix) }

    /// The first folder of a path below the scanned folder (`.` for a file right in it).
    public func topFolder(of path: String) -> String {
        let below = path.dropFirst(prefix.count)
        return below.split(separator: "/").count > 1 ? String(below.split(separator: "/")[0]) : "."
    }

    /// The folder of a path's module below the scanned folder (`Sources/AppCore`, a package target's
    /// folder in the project model), for a path deeper than the top-level folder; else the first two
    /// folders of the path below the scanned folder (`Sources/Generated`), or its first folder.
    public func moduleFolder(of path: String, in model: ProjectModel) -> String {
        let below = path.dropFirst(prefix.count)
        let parts = below.split(separator: "/").dropLast()
        guard let first = parts.first else { return "." }
        let scanned = top + "/" + prefix
        if let module = model.module(of: path) {
            let folder = model.modules[module].folder
            if folder.hasPrefix(scanned + first + "/") { return String(folder.dropFirst(scanned.count)) }
        }
        return parts.prefix(2).joined(separator: "/")
    }

    /// The first-parent commits of HEAD since `since` (a day or a ref; nil: all), oldest first, each
    /// with the Swift files it changed (against its first parent).
    public func commits(since: String?) throws -> [Commit] {
        var boundary: String?
        var notBefore: Int?
        if let since {
            if let day = ProgressHistoryDay.parse(since) {
                guard day <= Int(Date().timeIntervalSince1970) else { throw HistoryError("--since \(since): a date in the future") }
                notBefore = day
            } else {
                guard isCommit(since) else { throw HistoryError("--since \(since): not a date (YYYY-MM-DD) nor a commit git knows") }
                // The commits after it, and it.
                boundary = since
            }
        }
        var commits = try firstParentCommits(after: boundary) { $0.hasSuffix(".swift") }
        if let notBefore { commits = commits.filter { $0.time >= notBefore } }
        guard !commits.isEmpty else { throw HistoryError("--since \(since ?? ""): no commit in that range") }
        return commits.reversed()
    }

    /// The sampled commits among `commits` (oldest first): the newest commit of each period (or
    /// every Nth), every tagged commit, and HEAD (the last).
    public func samples(of commits: [Commit], every: ProgressEvery) -> [Commit] {
        var chosen: [Commit] = []
        switch every {
        case .commits(let count):
            chosen = commits.enumerated().filter { $0.offset % count == 0 }.map(\.element)
        default:
            // The newest commit of each period.
            var lastKey: String?
            for commit in commits {
                let key = ProgressHistoryDay.period(commit.time, every)
                if key == lastKey, !chosen.isEmpty { chosen.removeLast() }
                chosen.append(commit)
                lastKey = key
            }
        }
        if chosen.last?.id != commits.last?.id, let head = commits.last { chosen.append(head) }
        // Tagged commits (releases) are always samples.
        let tagged = taggedCommits()
        let picked = Set(chosen.map(\.id))
        return commits.filter { picked.contains($0.id) || tagged.contains($0.id) }
    }
}

extension GitHistory.Commit {
    /// Its day, as the report shows it.
    public var day: String { ProgressHistoryDay.format(time) }
}

/// Dates of commits as the progress report shows them: days in UTC.
public enum ProgressHistoryDay {
    public static func format(_ time: Int) -> String { ProgressHistory.format(Double(time)) }

    public static func parse(_ text: String) -> Int? {
        guard text.count == 10, let seconds = ProgressHistory.day(text) else { return nil }
        return Int(seconds)
    }

    /// The period a time falls in: its day, its ISO week, or its month.
    public static func period(_ time: Int, _ every: ProgressEvery) -> String {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: TimeInterval(time))
        switch every {
        case .day: return format(time)
        case .month: return String(format(time).prefix(7))
        case .week, .commits:
            let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
            return "\(parts.yearForWeekOfYear ?? 0)-W\(parts.weekOfYear ?? 0)"
        }
    }
}
