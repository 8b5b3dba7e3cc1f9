import ChildProcess
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What git ignores below a folder, when the folder is inside a git work tree.
public enum GitIgnored {
    /// Why git could not say: it is not installed, or it refused (`detected dubious ownership`, a
    /// broken repository), in its own words.
    public struct Failure: Error {
        public let reason: String
    }

    /// Paths relative to `folder`; ignored folders end with `/`. Empty outside a work tree; throws
    /// inside one when git cannot be asked. The folder itself is not ignored, nor are the folders
    /// above it (it was named to be scanned, as ripgrep does with a path it is given): below it, the
    /// ignore files apply as usual (the repository's patterns, its own `.gitignore`).
    public static func paths(in folder: String) throws -> Set<String> {
        guard case .inside(let knownPrefix) = place(of: folder) else { return [] }
        guard let git = ChildProcess.executable(named: "git") else {
            throw Failure(reason: "it is in a git work tree but git is not installed (not on PATH)")
        }
        let outcome: ChildProcess.Outcome
        do {
            // Patterns given with `--exclude` take precedence over every ignore file; each negates one
            // folder on the way from the top of the work tree (git ignores all that is below an ignored
            // folder, and stops with "directory entry not superset of prefix" inside one).
            let prefix = try knownPrefix ?? askedPrefix(of: folder, git: git)
            var reincluded = "!/"
            let negations = prefix.split(separator: "/").map { name in
                reincluded += escapedForGitignore(name) + "/"
                return "--exclude=" + reincluded
            }
            outcome = try ChildProcess.run(git, ["-C", folder, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"] + negations)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(reason: "\(error)")
        }
        guard outcome.status == 0 else {
            let message = String(decoding: outcome.errors, as: UTF8.self)
            // A `.git` above that is no repository (an empty folder, a stale file): not a work tree.
            if message.contains("not a git repository") { return [] }
            let first = message.split(separator: "\n").first.map(String.init) ?? "exit status \(outcome.status)"
            throw Failure(reason: "git says: \(first)")
        }
        return Set(outcome.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Git finds the work tree of a folder by a `.git` (folder or file) in it or in a folder above
    /// (unless `GIT_DIR` names one), going up from the folder's real path (a symbolic link into a
    /// work tree is in it): with none, nothing is ignored, and starting git only to hear so would
    /// hold up the walk for milliseconds.
    public static func mayBeInWorkTree(_ folder: String) -> Bool {
        if case .outside = place(of: folder) { return false }
        return true
    }

    /// Where a folder is, as git would find it.
    enum Place: Equatable {
        case outside
        /// In a work tree, at this path from its top (`Pods/Lib/`, empty at the top); nil when git must
        /// be asked (`GIT_DIR` set, or a path that cannot be resolved).
        case inside(prefix: String?)
    }

    static func place(of folder: String) -> Place {
        if ProcessInfo.processInfo.environment["GIT_DIR"] != nil { return .inside(prefix: nil) }
        guard let resolved = realpath(folder, nil) else { return .inside(prefix: nil) }
        let start = String(cString: resolved)
        free(resolved)
        var path = start
        var info = stat()
        while true {
            if lstat(path == "/" ? "/.git" : path + "/.git", &info) == 0 {
                let below = start.dropFirst(path == "/" ? 1 : path.count + 1)
                return .inside(prefix: below.isEmpty ? "" : below + "/")
            }
            guard path != "/", !path.isEmpty else { return .outside }
            path = (path as NSString).deletingLastPathComponent
        }
    }

    /// `folder`'s path from the top of its work tree, from git (`rev-parse --show-prefix`).
    private static func askedPrefix(of folder: String, git: String) throws -> String {
        let outcome = try ChildProcess.run(git, ["-C", folder, "rev-parse", "--show-prefix"])
        guard outcome.status == 0 else {
            let message = String(decoding: outcome.errors, as: UTF8.self)
            throw Failure(reason: "git says: " + (message.split(separator: "\n").first.map(String.init) ?? "exit status \(outcome.status)"))
        }
        return String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// A file or folder name as a pattern of an ignore file that matches that name only.
    static func escapedForGitignore<Name: StringProtocol>(_ name: Name) -> String {
        var escaped = ""
        for character in name {
            if "\\*?[".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        // Trailing blanks are dropped from a pattern unless escaped.
        if escaped.hasSuffix(" ") { escaped.insert("\\", at: escaped.index(before: escaped.endIndex)) }
        return escaped
    }
}
