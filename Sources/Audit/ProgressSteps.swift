import AuditGit
import AuditHistory
import AuditModel
import AuditProject
import AuditProgress
import AuditRules
import Foundation
import TreeSitter

/// What `progress` is asked: a folder of a git work tree, from when, how often.
public struct ProgressRequest {
    public var path: String
    /// A date (`YYYY-MM-DD`) or a git ref; nil: the whole first-parent history.
    public var since: String?
    public var every: ProgressEvery = .week

    public init(path: String) { self.path = path }
}

/// What `progress` found: the history, the findings at HEAD (for the page's current findings),
/// and the warnings to show (CODEOWNERS lines skipped).
public struct ProgressResult {
    public var history: ProgressHistory
    /// The findings in the last sample (HEAD), named relative to the current folder like `scan`'s,
    /// with their lines.
    public var current: ScanResult
    public var warnings: [String]
}

extension Audit {
    /// The migration's progress over the first-parent history of HEAD: at each sampled commit, the
    /// findings `scan` would give (the whole repository's facts, findings under `path`) and the uses
    /// of the new components, and the commits in between that changed them most. Reads blobs with
    /// one `git cat-file --batch` (never a checkout), and analyses each file version once, however
    /// many samples hold it.
    public func progress(_ request: ProgressRequest) throws -> ProgressResult {
        do {
            return try progress(request, in: GitHistory.forProgress(URL(fileURLWithPath: setup.absolute(request.path)).standardizedFileURL.path))
        } catch let error as GitError {
            throw AuditError(error.description)
        } catch let error as HistoryError {
            throw AuditError(error.description)
        }
    }

    private func progress(_ request: ProgressRequest, in git: GitHistory) throws -> ProgressResult {
        // The files that decide the rules (.loadaudit.yml, its rules files): a change between two
        // samples is an event (the current rules still judge every sample).
        var ruleFiles = Set<String>()
        if let config { ruleFiles.insert(config.path) ; ruleFiles.formUnion(config.rulesFiles) }
        ruleFiles.formUnion(setup.rulesFiles.map(setup.absolute))
        let ruleFilePaths = Set(ruleFiles.compactMap { path -> String? in
            let prefix = git.top + "/"
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
        })
        let admits = { (path: String) in path.hasSuffix(".swift") && (self.config?.admits(git.top + "/" + path) ?? true) }
        // A file whose findings and uses are counted: admitted and under the scanned folder.
        let counted = { (path: String) in admits(path) && git.isInScope(path) }
        // The samples' trees and the commits between them, read from git (AuditHistory).
        let started = DispatchTime.now().uptimeNanoseconds
        let elapsed = { "\((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000) ms" }
        let read = try HistorySamples(git, since: request.since, every: request.every, admits: admits, ruleFiles: ruleFilePaths)
        setup.trace?("progress: \(read.samples.count) samples, \(read.versions.count) file versions read at \(elapsed())")
        let listings = read.samples.map { (commit: $0.commit, files: $0.files) }
        let ruleBlobs = read.samples.map(\.ruleBlobs)
        let projectFolders = read.samples.map(\.projectFolders)
        let between = read.samples.map(\.between)
        let versions = read.versions, blobs = read.blobs
        let analysed = analyse(versions, blobs: blobs)
        setup.trace?("progress: file versions analysed at \(elapsed())")
        let newComponents = ruleSet.newComponents.sorted()
        let replacementModules = ruleSet.replacementModules
        // Owners as the work tree's CODEOWNERS says today, for every sample.
        let codeOwners = CodeOwners.load(top: git.top)
        var headFindings: [Finding] = []
        // Per sample, the findings by module folder: the grouping when the findings are all in one
        // top-level folder (a package's `Sources`), where a count per top-level folder says nothing.
        var findingsByModule: [[String: Int]] = []
        var history = listings.enumerated().map { index, listing -> ProgressHistory.Sample in
            let (commit, files) = listing
            var analyses: [FileAnalysis] = []
            var adoption: [String: Int] = [:]
            var usesByFile: [(file: String, uses: [String: Int])] = []
            var incomplete: [String] = []
            for file in files {
                switch analysed[file] {
                case .analysed(let analysis, let uses)?:
                    analyses.append(analysis)
                    if git.isInScope(file.path) { usesByFile.append((analysis.file, uses)) }
                case .skipped?, nil:
                    if git.isInScope(file.path) { incomplete.append(file.path) }
                case .nothing?:
                    break
                }
            }
            let model = ProjectModel(
                roots: [git.top], files: analyses.map { ProjectModel.File(displayPath: $0.file, absolutePath: git.top + "/" + $0.file) },
                folders: projectFolders[index],
                manifests: Dictionary(analyses.compactMap { analysis in analysis.manifest.map { (((git.top + "/" + analysis.file) as NSString).deletingLastPathComponent, $0) } },
                                      uniquingKeysWith: { first, _ in first }),
                facts: Dictionary(analyses.map { ($0.file, $0.moduleFacts) }, uniquingKeysWith: { first, _ in first }))
            // The replacement module's own code (its declarations, its internal uses) is not
            // adoption, as the old module's own code is not a finding.
            let isReplacementModule = { (file: String) in
                (model.module(of: file) ?? model.module(containing: git.top + "/" + file)).map { replacementModules.contains(model.modules[$0].name) } ?? false
            }
            for (file, uses) in usesByFile where !isReplacementModule(file) { adoption.merge(uses, uniquingKeysWith: +) }
            let resolved = scanner.engine.resolveWithContext(analyses, model: model)
            let findings = resolved.findings.filter { git.isInScope($0.file) }
            var sample = ProgressHistory.Sample(
                commit: commit.id, date: commit.day, files: files.filter { git.isInScope($0.path) }.count,
                findingsByRule: findings.reduce(into: [:]) { $0[$1.ruleId, default: 0] += 1 },
                findingsByFolder: findings.reduce(into: [:]) { $0[git.topFolder(of: $1.file), default: 0] += 1 },
                adoption: adoption, incomplete: incomplete.sorted())
            findingsByModule.append(findings.reduce(into: [:]) { $0[git.moduleFolder(of: $1.file, in: model), default: 0] += 1 })
            if index > 0 {
                let before = ruleBlobs[index - 1], now = ruleBlobs[index]
                sample.events = ruleFilePaths.sorted().filter { before[$0] != now[$0] }.map { path in
                    before[path] == nil ? "\(path) added" : now[path] == nil ? "\(path) removed" : "\(path) changed"
                }
            }
            sample.biggestChanges = biggestChanges(between[index], analysed: analysed, context: resolved.context,
                                                   counted: counted, isReplacementModule: isReplacementModule)
            if let codeOwners {
                sample.findingsByOwner = findings.reduce(into: [:]) { $0[codeOwners.group(of: $1.file), default: 0] += 1 }
            }
            if index == listings.count - 1 { headFindings = findings }
            return sample
        }
        setup.trace?("progress: samples judged at \(elapsed())")
        let topFolders = Set(history.flatMap(\.findingsByFolder.keys))
        if topFolders.count == 1, topFolders.first != "." {
            for index in history.indices { history[index].findingsByFolder = findingsByModule[index] }
        }
        let current = currentFindings(headFindings, files: listings.last?.files ?? [], blobs: blobs, git: git)
        let progress = ProgressHistory(path: request.path, every: request.every.description, rules: ruleSet.rules.map(\.id),
                                       newComponents: newComponents, samples: history)
        return ProgressResult(history: progress, current: current, warnings: codeOwners?.problems ?? [])
    }

    /// The commits that changed the counts most: for each, the findings and adopted uses of the files
    /// it changed, after minus before, each version judged with the project facts of the sample.
    private func biggestChanges(
        _ commits: ArraySlice<GitHistory.Commit>, analysed: [GitHistory.Entry: FileVersion], context: ProjectContext,
        counted: (String) -> Bool, isReplacementModule: (String) -> Bool
    ) -> [ProgressHistory.CommitChange] {
        func counts(_ path: String, _ blob: String?) -> (findings: Int, adopted: Int) {
            guard let blob, case .analysed(let analysis, let uses)? = analysed[GitHistory.Entry(path: path, blob: blob)] else { return (0, 0) }
            return (scanner.engine.resolve(analysis, in: context).count, isReplacementModule(analysis.file) ? 0 : uses.values.reduce(0, +))
        }
        let changes = commits.compactMap { commit -> ProgressHistory.CommitChange? in
            var findings = 0, adopted = 0
            for change in commit.changes where counted(change.path) {
                let before = counts(change.path, change.old), after = counts(change.path, change.new)
                findings += after.findings - before.findings
                adopted += after.adopted - before.adopted
            }
            guard findings != 0 || adopted != 0 else { return nil }
            return ProgressHistory.CommitChange(commit: commit.id, date: commit.day, author: commit.author, subject: commit.subject,
                                                findings: findings, adopted: adopted)
        }
        return Array(changes.sorted { (abs($0.findings), abs($0.adopted)) > (abs($1.findings), abs($1.adopted)) }.prefix(3))
    }

    /// The findings at HEAD as `scan` names them (relative to the current folder), with their lines.
    private func currentFindings(_ findings: [Finding], files: [GitHistory.Entry], blobs: [String: [UInt8]], git: GitHistory) -> ScanResult {
        let blobOf = Dictionary(files.map { ($0.path, $0.blob) }, uniquingKeysWith: { first, _ in first })
        var absolutePaths: [String: String] = [:]
        var sources: [String: SourceText] = [:]
        let shown = findings.map { finding -> Finding in
            var finding = finding
            absolutePaths[finding.file] = git.top + "/" + finding.file
            if sources[finding.file] == nil, let blob = blobOf[finding.file], let bytes = blobs[blob] { sources[finding.file] = SourceText(bytes: bytes) }
            if let source = sources[finding.file] {
                finding.shownLine = ShownLine(line: source.lineText(finding.start.line), start: finding.start, end: finding.end)
            }
            return finding
        }
        return ScanResult(findings: shown, problems: [], filesScanned: files.filter { git.isInScope($0.path) }.count, filesWithParseErrors: 0,
                          ruleIds: ruleSet.rules.map(\.id), absolutePaths: absolutePaths)
    }
}
