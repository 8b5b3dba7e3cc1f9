// AuditHistory: what a repository's history and ownership say, for `progress`, `fleet` and
// `fix --split-by owner`: which first-parent commits and samples to read (ProgressHistoryReading),
// how often (ProgressEvery), each sample's tree and the file versions to read (HistorySamples), which
// of a commit's files are in scope and how they are grouped, and who
// owns a path (CodeOwners). It reads git through AuditGit only, and must not scan, decide findings,
// print or write: the Audit layer runs the scan at each sample and builds the `ProgressHistory`.

/// Bad input found in the history (no such folder, not a work tree, a shallow clone, a `--since` that
/// is no date nor commit): one line, which the Audit layer passes on as its own error.
public struct HistoryError: Error, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
