import AuditGit
import AuditProject
import Dispatch
import Foundation

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
        // Each sample's tree, two `git ls-tree` at a time (the listing waits on git, the reading of
        // one on the other's).
        let trees = try Self.trees(of: chosen.map(\.id), in: git)
        var samples: [Sample] = []
        var lastPaths: [String] = [], lastFolders: ProjectFolders?
        for (index, commit) in chosen.enumerated() {
            let files = trees[index]
            var between: ArraySlice<GitHistory.Commit> = []
            if index > 0, let from = position[chosen[index - 1].id], let to = position[commit.id] { between = commits[(from + 1)...to] }
            // The project folders follow from the paths alone: most samples list the same paths as the
            // one before (only contents changed), whose folders serve again.
            let paths = files.map(\.path)
            let projectFolders = lastFolders.flatMap { paths == lastPaths ? $0 : nil } ?? ProjectFolders.fromPaths(paths, root: git.top)
            lastPaths = paths
            lastFolders = projectFolders
            samples.append(Sample(
                commit: commit, files: files.filter { admits($0.path) },
                ruleBlobs: Dictionary(uniqueKeysWithValues: files.filter { ruleFiles.contains($0.path) }.map { ($0.path, $0.blob) }),
                projectFolders: projectFolders, between: between))
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

    /// Every file of each commit (`GitHistory.files(at:)`), in the commits' order; listed on two
    /// threads, the first error thrown.
    private static func trees(of commits: [String], in git: GitHistory) throws -> [[GitHistory.Entry]] {
        let results = UnsafeMutableBufferPointer<Result<[GitHistory.Entry], Error>?>.allocate(capacity: commits.count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let lock = NSLock()
        var next = 0
        DispatchQueue.concurrentPerform(iterations: min(2, max(1, commits.count))) { _ in
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < commits.count else { return }
                results[index] = Result { try git.files(at: commits[index]) }
            }
        }
        return try results.map { try $0!.get() }
    }
}
