import AuditBaseline
import AuditModel
import AuditProject
import AuditProgress
import AuditRules
import AuditScan
import AuditSelect
import ChildProcess
import Foundation
import SwiftGrammar
import TreeSitter

/// How often `progress` samples the history.
public enum ProgressEvery: Equatable, Sendable, CustomStringConvertible {
    case day, week, month
    case commits(Int)

    /// `day`, `week`, `month` or `N-commits`.
    public init?(_ text: String) {
        switch text {
        case "day": self = .day
        case "week": self = .week
        case "month": self = .month
        default:
            guard text.hasSuffix("-commits"), let count = Int(text.dropLast("-commits".count)), count > 0 else { return nil }
            self = .commits(count)
        }
    }

    public var description: String {
        switch self {
        case .day: return "daily"
        case .week: return "weekly"
        case .month: return "monthly"
        case .commits(let count): return "every \(count) commits"
        }
    }
}

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
        let folder = URL(fileURLWithPath: setup.absolute(request.path)).standardizedFileURL.path
        let git = try HistoryReader(folder: folder)
        let commits = try git.commits(since: request.since)
        let samples = git.samples(of: commits, every: request.every)
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
        // Each sample's tree listed once: its Swift files in scope of the configuration, and the blobs
        // of the rules' files.
        var listings: [(commit: HistoryReader.Commit, files: [HistoryReader.Entry])] = []
        var ruleBlobs: [[String: String]] = []
        var projectFolders: [ProjectFolders] = []
        for commit in samples {
            let files = try git.files(at: commit.id)
            listings.append((commit, files.filter { admits($0.path) }))
            projectFolders.append(ProjectFolders.fromPaths(files.map(\.path), root: git.top))
            ruleBlobs.append(Dictionary(uniqueKeysWithValues: files.filter { ruleFilePaths.contains($0.path) }.map { ($0.path, $0.blob) }))
        }
        // The commits after each sample up to the next, with the file versions they changed in scope.
        let position = Dictionary(uniqueKeysWithValues: commits.enumerated().map { ($1.id, $0) })
        let between: [ArraySlice<HistoryReader.Commit>] = samples.indices.map { index in
            guard index > 0, let from = position[samples[index - 1].id], let to = position[samples[index].id] else { return [] }
            return commits[(from + 1)...to]
        }
        let changedVersions = between.flatMap { $0.flatMap { commit in
            commit.changes.filter { counted($0.path) }.flatMap { change in
                [change.old, change.new].compactMap { $0.map { HistoryReader.Entry(path: change.path, blob: $0) } }
            }
        } }
        let versions = Set(listings.flatMap(\.files)).union(changedVersions)
        let blobs = try git.contents(of: Set(versions.map(\.blob)))
        let analysed = analyse(versions, blobs: blobs)
        let newComponents = ruleSet.newComponents.sorted()
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
            var incomplete: [String] = []
            for file in files {
                switch analysed[file] {
                case .analysed(let analysis, let uses)?:
                    analyses.append(analysis)
                    if git.isInScope(file.path) { adoption.merge(uses, uniquingKeysWith: +) }
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
            sample.biggestChanges = biggestChanges(between[index], analysed: analysed, context: resolved.context, counted: counted)
            if let codeOwners {
                sample.findingsByOwner = findings.reduce(into: [:]) { counts, finding in
                    let owners = codeOwners.owners(of: finding.file) ?? []
                    counts[owners.isEmpty ? "(no owner)" : owners.joined(separator: " "), default: 0] += 1
                }
            }
            if index == listings.count - 1 { headFindings = findings }
            return sample
        }
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
        _ commits: ArraySlice<HistoryReader.Commit>, analysed: [HistoryReader.Entry: FileVersion], context: ProjectContext,
        counted: (String) -> Bool
    ) -> [ProgressHistory.CommitChange] {
        func counts(_ path: String, _ blob: String?) -> (findings: Int, adopted: Int) {
            guard let blob, case .analysed(let analysis, let uses)? = analysed[HistoryReader.Entry(path: path, blob: blob)] else { return (0, 0) }
            return (scanner.engine.resolve(analysis, in: context).count, uses.values.reduce(0, +))
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
    private func currentFindings(_ findings: [Finding], files: [HistoryReader.Entry], blobs: [String: [UInt8]], git: HistoryReader) -> ScanResult {
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

    /// What one file version gave: its analysis and its uses of the new components; nothing to parse
    /// (its words show no rule can find anything, and no new component is named); or not Swift text.
    enum FileVersion: Codable {
        case analysed(FileAnalysis, uses: [String: Int])
        case nothing
        case skipped
    }

    /// Every file version analysed once, on every core (a parser each). With `--cache`, versions
    /// analysed by an earlier run under the same rules and tool version are taken from the cache
    /// (keyed by path and blob id), and this run's are added to it.
    private func analyse(_ files: Set<HistoryReader.Entry>, blobs: [String: [UInt8]]) -> [HistoryReader.Entry: FileVersion] {
        let key = { (file: HistoryReader.Entry) in file.path + "\u{1F}" + file.blob }
        var cached = scanner.cache?.loadVersions(FileVersion.self) ?? [:]
        var map: [HistoryReader.Entry: FileVersion] = [:]
        var list: [HistoryReader.Entry] = []
        for file in files {
            if let version = cached[key(file)] { map[file] = version } else { list.append(file) }
        }
        let selector = scanner.selector
        let newComponents = Set(ruleSet.newComponents.map(WordHash.ofName))
        let parsers = (0..<max(1, min(setup.jobs, list.count))).compactMap { _ in try? Parser() }
        // As a scan does: the versions the select step chooses, then those left for later that mention
        // what a chosen version's clocks link by (any sample's: a version another sample does not need
        // is parsed for nothing, never missed), and every version that names a new component.
        var later: [Int] = []
        let parse = { (parser: Parser, index: Int, bytes: [UInt8], namesNew: Bool) -> FileVersion in
            let file = list[index]
            guard let tree = try? parser.parse(SourceText(bytes: bytes)) else { return .skipped }
            return .analysed(self.scanner.engine.analyze(tree: tree, file: file.path), uses: namesNew ? Self.uses(of: self.ruleSet.newComponents, in: tree) : [:])
        }
        let usable = { (file: HistoryReader.Entry) -> [UInt8]? in
            guard let bytes = blobs[file.blob], bytes.count <= ProjectScanner.maximumFileSize, SourceReader.refusal(of: bytes) == nil else { return nil }
            return bytes
        }
        let names = { (bytes: [UInt8]) in FileSelector.mentionsAny(of: newComponents, in: bytes) }
        var results = ParallelMap.map(count: list.count, contexts: parsers) { parser, index -> (FileVersion, Bool) in
            guard let bytes = usable(list[index]) else { return (.skipped, false) }
            let namesNew = names(bytes)
            let decision = selector.decide(bytes, path: list[index].path)
            guard decision == .parse || decision == .manifest || namesNew else { return (.nothing, decision == .later) }
            return (parse(parser, index, bytes, namesNew), false)
        }
        for (index, result) in results.enumerated() where result?.1 == true { later.append(index) }
        var links = Set<String>()
        for case (.analysed(let analysis, _), _)? in results {
            if let facts = analysis.rotation { links.formUnion(facts.linkingNames) }
        }
        let followUp = FileSelector.FollowUp(links)
        if !followUp.isEmpty, !later.isEmpty {
            let more = ParallelMap.map(count: later.count, contexts: parsers) { parser, item -> FileVersion in
                guard let bytes = usable(list[later[item]]), selector.wants(bytes, followUp) else { return .nothing }
                return parse(parser, later[item], bytes, false)
            }
            for (item, version) in more.enumerated() { results[later[item]] = (version ?? .skipped, false) }
        }
        for (index, file) in list.enumerated() { map[file] = results[index]?.0 ?? .skipped }
        if let cache = scanner.cache, !list.isEmpty {
            // An unreadable blob may read next time: not kept.
            for (index, file) in list.enumerated() {
                if case .skipped? = map[file], blobs[file.blob] == nil { continue }
                cached[key(file)] = map[file]
            }
            cache.storeVersions(cached)
        }
        return map
    }

    /// Uses of the new components in code: names in the tree (never comments or strings), as whole
    /// words, not their own declarations.
    static func uses(of components: Set<String>, in tree: Tree) -> [String: Int] {
        var uses: [String: Int] = [:]
        tree.rootNode.walk { node in
            guard node.type == "simple_identifier" || node.type == "type_identifier" else { return true }
            if components.contains(node.text), SwiftWords.isWholeWord(node.byteRange, in: tree.source.bytes) {
                if let parent = node.parent, parent.type.hasSuffix("_declaration"), parent.child(byField: "name") == node { return false }
                uses[node.text, default: 0] += 1
            }
            return false
        }
        return uses
    }
}

/// Reads a repository's history with git: the first-parent commits, the Swift files of a commit,
/// the contents of blobs (one `git cat-file --batch`). Never checks anything out.
struct HistoryReader {
    struct Commit {
        let id: String
        let time: Int
        let author: String
        let subject: String
        /// The Swift files it changed against its first parent.
        var changes: [Change] = []
        var day: String { ProgressHistoryDay.format(time) }
    }

    /// A file a commit changed: its blob before (nil: added) and after (nil: deleted).
    struct Change {
        let path: String
        let old: String?
        let new: String?
    }

    /// A file version: its path (from the repository's top) and blob.
    struct Entry: Hashable {
        let path: String
        let blob: String
    }

    let top: String
    /// The scanned folder, relative to the top ("" for the top itself).
    let prefix: String

    init(folder: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AuditError("\(folder): no such folder")
        }
        do {
            top = try Git.run(["rev-parse", "--show-toplevel"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
            prefix = try Git.run(["rev-parse", "--show-prefix"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw AuditError("\(folder): not in a git work tree (progress reads its history)")
        }
        if (try? Git.run(["rev-parse", "--is-shallow-repository"], in: folder).hasPrefix("true")) == true {
            let oldest = (try? Git.run(["log", "--first-parent", "--format=%cs", "--reverse", "HEAD"], in: folder))?.split(separator: "\n").first ?? "?"
            throw AuditError("\(folder): a shallow clone, whose history reaches back to \(oldest) only: fetch the whole history first (git fetch --unshallow)")
        }
    }

    private func git(_ arguments: [String]) throws -> String {
        do { return try Git.run(arguments, in: top) } catch let error as GitChangesError { throw AuditError(error.description) }
    }

    /// Whether a path (from the top) is under the scanned folder.
    func isInScope(_ path: String) -> Bool { prefix.isEmpty || path.hasPrefix(prefix) }

    /// The first folder of a path below the scanned folder (`.` for a file right in it).
    func topFolder(of path: String) -> String {
        let below = path.dropFirst(prefix.count)
        return below.split(separator: "/").count > 1 ? String(below.split(separator: "/")[0]) : "."
    }

    /// The folder of a path's module below the scanned folder (`Sources/AppCore`, a package target's
    /// folder in the project model), for a path deeper than the top-level folder; else the first two
    /// folders of the path below the scanned folder (`Sources/Generated`), or its first folder.
    func moduleFolder(of path: String, in model: ProjectModel) -> String {
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
    /// with the Swift files it changed (against its first parent), from one `git log`.
    func commits(since: String?) throws -> [Commit] {
        var range = ["HEAD"]
        var notBefore: Int?
        if let since {
            if let day = ProgressHistoryDay.parse(since) {
                guard day <= Int(Date().timeIntervalSince1970) else { throw AuditError("--since \(since): a date in the future") }
                notBefore = day
            } else {
                guard (try? git(["rev-parse", "--verify", "--quiet", since + "^{commit}"])) != nil else {
                    throw AuditError("--since \(since): not a date (YYYY-MM-DD) nor a commit git knows")
                }
                // The commits after it, and it (the boundary, marked "-" by git).
                range = ["--boundary", since + "..HEAD"]
            }
        }
        // `-z`: each header starts with \u{1}; then ":mode mode old new status" and the path, each
        // ended by NUL. (With --first-parent, a merge's changes are those against its first parent.)
        let log = try git(["log", "--first-parent", "--no-renames", "--raw", "--no-abbrev", "-z",
                           "--format=%x01%H %ct %an%x09%s"] + range)
        var commits: [Commit] = []
        var tokens = log.split(separator: "\0", omittingEmptySubsequences: false)[...]
        while let first = tokens.popFirst() {
            let token = first.drop { $0 == "\n" }
            if token.first == "\u{1}" {
                let header = token.dropFirst().drop { $0 == "-" }
                let tab = header.firstIndex(of: "\t") ?? header.endIndex
                let parts = header[..<tab].split(separator: " ", maxSplits: 2)
                guard parts.count == 3, let time = Int(parts[1]) else { continue }
                let subject = tab < header.endIndex ? String(header[header.index(after: tab)...]) : ""
                commits.append(Commit(id: String(parts[0]), time: time, author: String(parts[2]), subject: subject))
            } else if token.first == ":", let path = tokens.popFirst(), !commits.isEmpty {
                let meta = token.dropFirst().split(separator: " ")
                guard meta.count >= 4, path.hasSuffix(".swift") else { continue }
                commits[commits.count - 1].changes.append(Change(path: String(path), old: Self.blob(meta[2]), new: Self.blob(meta[3])))
            }
        }
        if let notBefore { commits = commits.filter { $0.time >= notBefore } }
        guard !commits.isEmpty else { throw AuditError("--since \(since ?? ""): no commit in that range") }
        return commits.reversed()
    }

    /// A blob id from `git log --raw`; nil for the zeros of a file that did not exist.
    private static func blob(_ text: Substring) -> String? { text.allSatisfy { $0 == "0" } ? nil : String(text) }

    /// The sampled commits among `commits` (oldest first): the newest commit of each period (or
    /// every Nth), every tagged commit, and HEAD (the last).
    func samples(of commits: [Commit], every: ProgressEvery) -> [Commit] {
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
        // (An annotated tag's commit is its peeled object, `%(*objectname)`; a light tag's, its own.)
        let refs = (try? git(["for-each-ref", "--merged", "HEAD", "--format=%(objectname) %(*objectname)", "refs/tags"])) ?? ""
        let tagged = Set(refs.split(separator: "\n").compactMap { line in line.split(separator: " ").last.map(String.init) })
        let picked = Set(chosen.map(\.id))
        return commits.filter { picked.contains($0.id) || tagged.contains($0.id) }
    }

    /// Every file of a commit (the whole repository: its facts count), with its blob.
    func files(at commit: String) throws -> [Entry] {
        try git(["ls-tree", "-r", "--full-tree", "-z", commit]).split(separator: "\0").compactMap { line in
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            let meta = line[..<tab].split(separator: " "), path = String(line[line.index(after: tab)...])
            guard meta.count == 3, meta[1] == "blob" else { return nil }
            return Entry(path: path, blob: String(meta[2]))
        }
    }

    /// The bytes of each blob, read with one `git cat-file --batch`.
    func contents(of blobs: Set<String>) throws -> [String: [UInt8]] {
        guard !blobs.isEmpty else { return [:] }
        guard let gitPath = ChildProcess.executable(named: "git") else { throw AuditError("git: not found on PATH") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gitPath)
        process.arguments = ["-C", top, "cat-file", "--batch"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let request = Data(blobs.sorted().map { $0 + "\n" }.joined().utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(request)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        var contents: [String: [UInt8]] = [:]
        var index = 0
        while index < data.count {
            guard let newline = data[index...].firstIndex(of: 0x0A) else { break }
            let header = String(decoding: data[index..<newline], as: UTF8.self).split(separator: " ")
            index = newline + 1
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]), index + size <= data.count else { continue }
            contents[String(header[0])] = Array(data[index..<(index + size)])
            index += size + 1
        }
        return contents
    }
}

/// Dates of commits as the progress report shows them: days in UTC.
enum ProgressHistoryDay {
    static func format(_ time: Int) -> String { ProgressHistory.format(Double(time)) }

    static func parse(_ text: String) -> Int? {
        guard text.count == 10, let seconds = ProgressHistory.day(text) else { return nil }
        return Int(seconds)
    }

    /// The period a time falls in: its day, its ISO week, or its month.
    static func period(_ time: Int, _ every: ProgressEvery) -> String {
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
