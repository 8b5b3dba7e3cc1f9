import AuditModel
import ChildProcess
import Foundation

/// Why the diff base cannot be used.
public struct GitChangesError: Error, Equatable, CustomStringConvertible {
    public let problem: String
    public var description: String { problem }
}

/// The lines added or changed since the merge base of a git ref and HEAD, working-tree changes and
/// untracked files included: what a pull request adds.
public struct GitChanges {
    /// Changed line numbers (1-based) by absolute path.
    public let changedLines: [String: Set<Int>]
    /// Files git does not track yet: every line is new.
    public let untrackedFiles: Set<String>
    public let mergeBase: String
    /// The work tree's top folder.
    public let top: String

    public static func since(_ reference: String, in folder: String) throws -> GitChanges {
        let top: String
        do {
            top = try Git.run(["rev-parse", "--show-toplevel"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch let error as GitChangesError {
            if error.problem.contains("not a git repository") {
                throw GitChangesError(problem: "--diff-base needs a git work tree, and \(folder) is not in one")
            }
            // git's own words: not installed, `detected dubious ownership in repository at ...`.
            throw GitChangesError(problem: "--diff-base: \(error.problem.split(separator: "\n").first.map(String.init) ?? error.problem)")
        }
        guard !top.isEmpty else { throw GitChangesError(problem: "--diff-base needs a git work tree, and \(folder) is not in one") }
        guard (try? Git.run(["rev-parse", "--verify", "--quiet", "\(reference)^{commit}"], in: top)) != nil else {
            throw GitChangesError(problem: "--diff-base: no commit named '\(reference)' in \(top)")
        }
        let base: String
        do {
            base = try Git.run(["merge-base", reference, "HEAD"], in: top).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw GitChangesError(problem: "--diff-base: '\(reference)' and HEAD have no common ancestor")
        }
        let diff = try Git.run(["diff", "--no-color", "--no-ext-diff", "--unified=0", "--no-renames", base, "--", "."], in: top)
        let untracked = try Git.run(["ls-files", "-z", "--others", "--exclude-standard"], in: top)
        return GitChanges(
            changedLines: parse(diff, top: top),
            untrackedFiles: Set(untracked.split(separator: "\0").map { standardized(top + "/" + $0) }),
            mergeBase: base,
            top: top
        )
    }

    /// `+++ b/path` then `@@ -a,b +c,d @@`: lines c ..< c+d of the new file changed.
    static func parse(_ diff: String, top: String) -> [String: Set<Int>] {
        var result: [String: Set<Int>] = [:]
        var current: String?
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("+++ ") {
                let name = line.dropFirst(4)
                current = name == "/dev/null" ? nil : standardized(top + "/" + unquote(String(name.hasPrefix("b/") ? name.dropFirst(2) : name)))
            } else if line.hasPrefix("@@"), let current, let plus = line.split(separator: " ").first(where: { $0.hasPrefix("+") }) {
                let numbers = plus.dropFirst().split(separator: ",")
                guard let start = Int(numbers[0]) else { continue }
                let count = numbers.count > 1 ? Int(numbers[1]) ?? 1 : 1
                if count > 0 { result[current, default: []].formUnion(start..<(start + count)) }
            }
        }
        return result
    }

    /// git quotes unusual names C-style (`"a\tb"`); plain names with spaces come as they are.
    private static func unquote(_ name: String) -> String {
        guard name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 else { return name.trimmingCharacters(in: CharacterSet(charactersIn: "\t")) }
        return String(name.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
    }

    static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// The text of a file (absolute path in the work tree) at the merge base; nil when it did not exist there.
    public func textAtMergeBase(of path: String) -> String? {
        let relative = RelativePath.from(Self.standardized(top), to: Self.standardized(path))
        guard !relative.hasPrefix("../") else { return nil }
        return try? Git.run(["show", "\(mergeBase):\(relative)"], in: top)
    }

    /// Marks findings on unchanged lines as existing (a finding is new if any of its lines changed).
    public func classify(_ findings: inout [Finding], absolutePaths: [String: String]) {
        for index in findings.indices {
            guard let path = absolutePaths[findings[index].file].map(Self.standardized) else { continue }
            if untrackedFiles.contains(path) { continue }
            let lines = changedLines[path] ?? []
            let span = findings[index].start.line...max(findings[index].start.line, findings[index].end.line)
            if !span.contains(where: lines.contains) { findings[index].baseline = .existing }
        }
    }
}

/// Runs git and returns its standard output, or throws with its standard error.
public enum Git {
    public static var executable: String? { ChildProcess.executable(named: "git") }

    @discardableResult
    public static func run(_ arguments: [String], in folder: String) throws -> String {
        guard let git = executable else { throw GitChangesError(problem: "git is not installed (not on PATH)") }
        let outcome = try ChildProcess.run(git, ["-C", folder] + arguments)
        guard outcome.status == 0 else {
            throw GitChangesError(problem: String(decoding: outcome.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return String(decoding: outcome.output, as: UTF8.self)
    }
}
