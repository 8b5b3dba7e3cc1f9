import Foundation

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
        } catch let error as GitError {
            if error.problem.contains("not a git repository") {
                throw GitError(problem: "--diff-base needs a git work tree, and \(folder) is not in one")
            }
            // git's own words: not installed, `detected dubious ownership in repository at ...`.
            throw GitError(problem: "--diff-base: \(error.problem.split(separator: "\n").first.map(String.init) ?? error.problem)")
        }
        guard !top.isEmpty else { throw GitError(problem: "--diff-base needs a git work tree, and \(folder) is not in one") }
        guard (try? Git.run(["rev-parse", "--verify", "--quiet", "\(reference)^{commit}"], in: top)) != nil else {
            throw GitError(problem: "--diff-base: no commit named '\(reference)' in \(top)")
        }
        let base: String
        do {
            base = try Git.run(["merge-base", reference, "HEAD"], in: top).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw GitError(problem: "--diff-base: '\(reference)' and HEAD have no common ancestor")
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
    public static func parse(_ diff: String, top: String) -> [String: Set<Int>] {
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

    public static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// The text of a file (absolute path in the work tree) at the merge base; nil when it did not exist there.
    public func textAtMergeBase(of path: String) -> String? {
        let folder = Self.standardized(top), file = Self.standardized(path)
        // Only a file in the work tree was there.
        guard file.hasPrefix(folder == "/" ? "/" : folder + "/"), file.count > folder.count else { return nil }
        let relative = String(file.dropFirst(folder == "/" ? 1 : folder.count + 1))
        return try? Git.run(["show", "\(mergeBase):\(relative)"], in: top)
    }
}
