// AuditGit: everything loadaudit asks git, and the only module that starts it (through ChildProcess;
// the blob reader, which writes its requests to git's standard input, through Foundation's Process):
// what git ignores below a folder (GitIgnored, for the walk), the lines changed since a merge base and
// the files at it (GitChanges, for --diff-base and the gate), and a repository's history read without
// a checkout (GitHistory: first-parent commits, a commit's files, blobs' bytes, for progress), and
// what names a work tree in reports (GitRepositoryFacts: its top, origin remote, HEAD).
// It must not know findings, rules or reports: it answers in paths, lines, commits and bytes, and
// its callers decide what they mean.

import ChildProcess
import Foundation

/// What git said when it failed (its standard error), or that it is not installed.
public struct GitError: Error, Equatable, CustomStringConvertible {
    public let problem: String
    public var description: String { problem }

    public init(problem: String) { self.problem = problem }
}

/// Runs git and returns its standard output, or throws with its standard error.
public enum Git {
    public static var executable: String? { ChildProcess.executable(named: "git") }

    /// What every git call says when there is no git to start.
    static let notInstalled = GitError(problem: "git is not installed (not on PATH)")

    @discardableResult
    public static func run(_ arguments: [String], in folder: String) throws -> String {
        String(decoding: try runBytes(arguments, in: folder), as: UTF8.self)
    }

    /// As `run`, the output's bytes.
    public static func runBytes(_ arguments: [String], in folder: String) throws -> [UInt8] {
        guard let git = executable else { throw notInstalled }
        let outcome = try ChildProcess.run(git, ["-C", folder] + arguments)
        guard outcome.status == 0 else {
            throw GitError(problem: String(decoding: outcome.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return outcome.output
    }
}
