import AuditGit
import AuditProject

/// What `progress` reads of the history before any scan: the first-parent commits and the samples
/// among them, each sample's tree (its Swift files the configuration admits, the blobs of the files
/// that decide the rules, the project folders of its paths), the commits between one sample and the
/// next, and every distinct file version those hold, read once with one `git cat-file --batch`.
public struct HistorySamples {
    public struct Sample {
        public let commit: GitHistory.Commit
        /// Its Swift files the configuration admits (the whole repository: their facts count).
        public let files: [GitHistory.Entry]
        /// The blob of each rules file (`.loadaudit.yml`, rules files) in its tree, by path from the top.
        public let ruleBlobs: [String: String]
        public let projectFolders: ProjectFolders
        /// The commits after the previous sample up to this one (none for the first).
        public let between: ArraySlice<GitHistory.Commit>
    }

    public let samples: [Sample]
    /// Every file version of the samples' trees, and those the commits between them changed in scope.
    public let versions: Set<GitHistory.Entry>
    /// The contents of the versions' blobs, by blob id.
    public let blobs: [String: [UInt8]]

    /// Reads the history of `git` since `since` (a day or a ref; nil: all), sampled `every`;
    /// `admits` says which paths (from the top) are files the configuration scans, `ruleFiles` are
    /// the paths of the files that decide the rules.
    public init(_ git: GitHistory, since: String?, every: ProgressEvery, admits: (String) -> Bool, ruleFiles: Set<String>) throws {
        let commits = try git.commits(since: since)
        let chosen = git.samples(of: commits, every: every)
        // The commits after each sample up to the next.
        let position = Dictionary(uniqueKeysWithValues: commits.enumerated().map { ($1.id, $0) })
        var samples: [Sample] = []
        for (index, commit) in chosen.enumerated() {
            let files = try git.files(at: commit.id)
            var between: ArraySlice<GitHistory.Commit> = []
            if index > 0, let from = position[chosen[index - 1].id], let to = position[commit.id] { between = commits[(from + 1)...to] }
            samples.append(Sample(
                commit: commit, files: files.filter { admits($0.path) },
                ruleBlobs: Dictionary(uniqueKeysWithValues: files.filter { ruleFiles.contains($0.path) }.map { ($0.path, $0.blob) }),
                projectFolders: ProjectFolders.fromPaths(files.map(\.path), root: git.top), between: between))
        }
        // The file versions the commits in between changed in scope.
        let changed = samples.flatMap { $0.between.flatMap { commit in
            commit.changes.filter { admits($0.path) && git.isInScope($0.path) }.flatMap { change in
                [change.old, change.new].compactMap { $0.map { GitHistory.Entry(path: change.path, blob: $0) } }
            }
        } }
        self.samples = samples
        versions = Set(samples.flatMap(\.files)).union(changed)
        blobs = try git.contents(of: Set(versions.map(\.blob)))
    }
}
