// AuditScan: the scan's pipeline over files. It owns discover (SourceDiscovery: the walk, .gitignore
// through AuditGit's GitIgnored, the project root's scope), reading (SourceReader), the per-file step
// (screen, then parse in the worker's arena and analyze; `progress` takes its blobs through it too),
// the workers that run it in parallel, the per-file cache, and the order of the steps: discover ->
// select (asks AuditSelect) -> parse -> match (asks the rule engine) -> resolve (the engine, across
// files). It must not know what the rules look for or how files are selected, start git itself,
// print, or write anything but its cache.

import AuditModel
import AuditProject
import AuditRotation
import AuditRules
import AuditSelect
import Dispatch
import Foundation
import TreeSitter

/// Runs the rules over source trees: discover files, read and parse each, match, settle across files.
public struct ProjectScanner {
    public let engine: RuleEngine
    /// The select step: which files are parsed (built from the engine's rules).
    public let selector: FileSelector
    public let discovery: SourceDiscovery
    /// How many files are parsed at once (each worker parses in its own arena, with a parser per file).
    public let jobs: Int
    /// Skip parsing files that contain none of the rules' trigger words. It never changes results:
    /// such files cannot hold a finding (tests compare full reports with and without it).
    public let prefilter: Bool
    /// Where per-file results are kept between runs, when caching.
    public let cache: ResultCache?
    /// Told what the select step picks and what each parse costs (`LOADAUDIT_TRACE=1` in the CLI; for
    /// profiling, see benchmarks/README.md). Called from the workers.
    public var trace: (@Sendable (String) -> Void)?
    /// Whether a file chosen only as a possible rotating-text anchor is first parsed in part (the anchor
    /// cut, docs/speed.md) and left for later when the part cannot make it one. Off: the whole file is
    /// parsed and chosen, as before the cut (for comparing the two).
    public var cutsPossibleAnchors = true
    /// Told of every file the anchor cut leaves for later whose whole parse makes it an anchor (none,
    /// if the cut is sound): each such file is also parsed whole to check (`LOADAUDIT_CHECK_ANCHOR_CUT=1`).
    public var anchorCutCheck: (@Sendable (String) -> Void)?
    /// Files read from elsewhere (absolute path in the project -> the file holding its text): a stand-in
    /// for standard input (`--stdin-filename`) is judged in its place in the project.
    public var readsInstead: [String: String] = [:]
    /// Files (absolute paths) whose analyses the cache does not keep: an editor's buffer being typed
    /// in, whose text is never read again.
    public var uncached: Set<String> = []
    /// Larger files are reported and skipped: tree-sitter's offsets are 32-bit, and such files are generated.
    public static let maximumFileSize = 64 << 20

    public init(
        engine: RuleEngine, discovery: SourceDiscovery = SourceDiscovery(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        prefilter: Bool = true, cache: ResultCache? = nil
    ) {
        self.engine = engine
        selector = FileSelector(engine.selectionNeeds)
        self.discovery = discovery
        self.jobs = max(1, jobs)
        self.prefilter = prefilter
        self.cache = cache
    }

    public func scan(_ paths: [String], within root: String? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> ScanResult {
        let (result, files, _) = try scanFiles(paths, within: root, keepSources: false, progress: progress)
        Self.releaseInBackground(files)
        return result
    }

    /// Lets go of `value` on another thread: freeing every file's outcome and analysis of a
    /// large tree takes milliseconds that the report need not wait for.
    static func releaseInBackground<Value>(_ value: Value) {
        let released = ReleasedInBackground(value)
        DispatchQueue.global(qos: .utility).async { released.value = nil }
    }

    private final class ReleasedInBackground<Value>: @unchecked Sendable {
        var value: Value?
        init(_ value: Value) { self.value = value }
    }

    /// A scanned file with what a fix needs: its path, its text and the engine's analysis.
    public struct ScannedFile {
        public let reference: SourceFileReference
        public let source: SourceText?
        public let analysis: FileAnalysis
        /// False for a file read only for the project's facts (outside the paths asked for).
        public var inScope = true
    }

    /// Scans and, with `keepSources`, keeps each file's analysis and the text of the files that have
    /// candidate findings, for a fix (without it, `files` is empty); with the project context the
    /// findings were resolved in.
    ///
    /// The steps: discover the files (`SourceDiscovery`, a walk beside the first pass); the first pass
    /// reads every file and parses those the select step (`FileSelector`) chooses from their words,
    /// leaving for later those that may matter only through another file's clock; the follow-up
    /// parses the files left that mention what the chosen files' clocks link by; last, the analyses
    /// are resolved against each other in the project model. Only chosen files report syntax errors,
    /// with or without the prefilter; without it every file is parsed in the first pass (the select
    /// step then only chooses), so the two must give the same report.
    /// Scans `paths`; with `root` (the project folder around them), the whole project is read so that
    /// facts from every file count, and what is reported keeps to `paths` (see `SourceDiscovery`).
    public func scanFiles(
        _ paths: [String], within root: String? = nil, keepSources: Bool, progress: ((Int, Int) -> Void)? = nil
    ) throws -> (result: ScanResult, files: [ScannedFile], context: ProjectContext) {
        let clock = ScanClock()
        let inputs = try root.flatMap { try discovery.resolve(paths, within: $0) } ?? discovery.resolve(paths)
        let read = readEveryFile(inputs, clock: clock, progress: progress)
        let files = read.files
        var outcomes = read.outcomes
        followUp(files, &outcomes, walk: read.walk, clock: clock)
        let collected = collect(files, outcomes, inputs: inputs, walkProblems: read.walk.problems, keepSources: keepSources)
        trace?("files parsed at \(clock.elapsed())")
        let model = Self.projectModel(collected.analyses, at: collected.analysisPaths, walk: read.walk)
        trace?("project model: \(model.modules.count) modules at \(clock.elapsed())")
        var (findings, context) = engine.resolveWithContext(collected.analyses, model: model)
        if root != nil {
            let paths = Self.absolutePaths(of: findings, in: files)
            findings.removeAll { !inputs.isInScope(paths[$0.file] ?? inputs.absolutePath(ofDisplayed: $0.file)) }
        }
        for index in findings.indices {
            guard let source = collected.sources[findings[index].file] else { continue }
            findings[index].shownLine = ShownLine(line: source.lineText(findings[index].start.line), start: findings[index].start, end: findings[index].end)
        }
        let result = ScanResult(
            findings: findings,
            problems: collected.problems,
            filesScanned: collected.filesScanned,
            filesWithParseErrors: collected.filesWithParseErrors,
            ruleIds: engine.ruleSet.rules.map(\.id) + (engine.ruleSet.unusedSuppressionSeverity == nil ? [] : [UnusedSuppressionRule.id]),
            absolutePaths: Self.absolutePaths(of: findings, in: files)
        )
        trace?("findings resolved at \(clock.elapsed())")
        Self.releaseInBackground(outcomes)
        return (result, collected.scannedFiles, context)
    }

    /// Milliseconds since the scan started, for the trace.
    struct ScanClock: Sendable {
        private let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> String { "\((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000) ms" }
    }

    /// The first pass: the walk finds files while the workers read each, ask the select step about it
    /// and parse it when it says so. The files in report (path) order, each one's
    /// outcome at the same index, and the walk's problems. A file reached twice (a link, a path named
    /// too) counts where the walk first reached it.
    private func readEveryFile(
        _ inputs: SourceDiscovery.Inputs, clock: ScanClock, progress: ((Int, Int) -> Void)?
    ) -> (files: [SourceFileReference], outcomes: [Outcome?], walk: SourceDiscovery.Result) {
        let feed = FileFeed(named: inputs.namedFiles)
        let trace = self.trace
        let walker = Thread { [discovery] in
            let walked = discovery.walk(inputs, found: feed.add)
            trace?("found \(walked.files.count) files at \(clock.elapsed())")
            feed.finish(walked)
        }
        walker.stackSize = 8 << 20  // The walk recurses once per folder level.
        walker.start()
        var done = 0
        let progressLock = NSLock()
        let tick: () -> Void = {
            guard let progress else { return }
            progressLock.lock()
            done += 1
            let count = done
            progressLock.unlock()
            progress(count, feed.count)
        }
        let scanner = self, prefilter = self.prefilter
        var first = analyze(workers: jobs, tick: tick, take: feed.take, treat: { bytes, file in
            let decision = scanner.decision(bytes, path: file.displayPath)
            return Treatment(parse: decision == .parse || decision == .manifest || !prefilter,
                             choice: decision == .parse ? .chosen : decision == .later ? .later : .notChosen,
                             sketch: decision == .later ? NameSketch(bytes) : nil)
        })
        // Found in walk order; reported in path order.
        let (found, walk) = feed.finished()
        var identities = [SourceDiscovery.FileIdentity?](repeating: nil, count: found.count)
        for (index, _, identity) in first { identities[index] = identity }
        let firstReached = SourceDiscovery.FileIdentity.firstOfEach(identities)
        let order = found.indices.filter { firstReached[$0] }.sorted { SourceDiscovery.inReportOrder(found[$0], found[$1]) }
        var outcomes = [Outcome?](repeating: nil, count: order.count)
        var position = [Int?](repeating: nil, count: found.count)
        for (sorted, index) in order.enumerated() { position[index] = sorted }
        while let (index, outcome, _) = first.popLast() {
            if let sorted = position[index] { outcomes[sorted] = outcome }
        }
        if let trace {
            var skipped = 0, later = 0, parsed = 0, manifests = 0
            for case .analyzed(let analyzed)? in outcomes {
                switch analyzed.choice {
                case .chosen: parsed += 1
                case .later: later += 1
                case .notChosen: if analyzed.parsed { manifests += 1 } else { skipped += 1 }
                }
            }
            trace("read every file (\(skipped) skipped by their words, \(later) left for later, \(parsed) chosen and parsed, \(manifests) manifests parsed for their modules) at \(clock.elapsed())")
        }
        return (order.map { found[$0] }, outcomes, walk)
    }

    /// The files left for later (`FileDecision.later`): once the files chosen at first are parsed,
    /// the names their clocks link by (`RotationLinks`) are known, and each file left in a workspace
    /// with links is read again and parsed when it mentions one (`FileSelector.wants`). One decision per file; the links come from
    /// the chosen files only, with the prefilter or without (then every file is parsed already, and
    /// this decides only which are chosen).
    private func followUp(_ files: [SourceFileReference], _ outcomes: inout [Outcome?], walk: SourceDiscovery.Result, clock: ScanClock) {
        var analyses: [FileAnalysis] = [], paths: [String] = [], later: [Int] = []
        for index in files.indices {
            guard case .analyzed(let analyzed)? = outcomes[index] else { continue }
            if analyzed.choice == .chosen {
                analyses.append(analyzed.analysis)
                paths.append(files[index].absolutePath)
            }
            if analyzed.choice == .later { later.append(index) }
        }
        guard !later.isEmpty else { return }
        let model = Self.projectModel(analyses, at: paths, walk: walk)
        let links = RotationLinks(analyses, model: model)
        guard !links.isEmpty else { return }
        if let trace {
            for (workspace, names) in links.byWorkspace.sorted(by: { $0.key < $1.key }) { trace("links in \(workspace): \(names.sorted().joined(separator: " "))") }
        }
        // A file's workspace is a folder around it: a file outside every workspace with links is not
        // looked up (nor read again).
        let linkedWorkspaces = links.byWorkspace.compactMap { $0.value.isEmpty ? nil : $0.key }
        let reachable = later.filter { index in linkedWorkspaces.contains { ProjectModel.path(files[index].absolutePath, isInside: $0) } }
        var followUps: [String: FileSelector.FollowUp] = [:]
        var asked: [(index: Int, followUp: FileSelector.FollowUp)] = []
        let laterModules = model.modules(containing: reachable.map { files[$0].absolutePath })
        for (index, module) in zip(reachable, laterModules) {
            guard let module else { continue }
            let workspace = model.modules[module].workspace
            let followUp = followUps[workspace] ?? FileSelector.FollowUp(links.byWorkspace[workspace] ?? [])
            followUps[workspace] = followUp
            if !followUp.isEmpty { asked.append((index, followUp)) }
        }
        let selector = self.selector, readsInstead = self.readsInstead
        // A file whose sketch from the first look holds none of the names is not read again.
        let toRead = asked.indices.filter { item in
            guard case .analyzed(let analyzed)? = outcomes[asked[item].index], let sketch = analyzed.sketch else { return true }
            return selector.mayWant(sketch, asked[item].followUp)
        }
        let wanted = ParallelMap.map(count: toRead.count, contexts: Array(repeating: (), count: jobs)) { _, position -> Bool in
            let item = toRead[position]
            // The first look found the bytes Swift text already: read, not checked again (a file
            // changed since is checked when it is parsed).
            let path = files[asked[item].index].absolutePath
            guard case .success(let bytes) = SourceReader.readBytes(readsInstead[path] ?? path, maximumSize: Self.maximumFileSize) else { return false }
            return selector.wants(bytes, asked[item].followUp)
        }
        var chosen: [Int] = []
        for (position, wants) in wanted.enumerated() where wants == true { chosen.append(asked[toRead[position]].index) }
        trace?("\(chosen.count) of \(later.count) files left for later mention what the clocks link by (\(asked.count) asked, \(toRead.count) read again, the rest ruled out by their sketches, at \(clock.elapsed()))")
        guard prefilter else {
            for index in chosen { if case .analyzed(let analyzed)? = outcomes[index] { analyzed.choice = .chosen } }
            return
        }
        // Largest first: the step ends when its last file is parsed, and a large file taken last would
        // leave the other workers idle until it is done.
        let sizes = chosen.map { index -> Int in
            var info = stat()
            return stat(files[index].absolutePath, &info) == 0 ? Int(info.st_size) : 0
        }
        let order = chosen.indices.sorted { (sizes[$0], chosen[$1]) > (sizes[$1], chosen[$0]) }.map { chosen[$0] }
        var parsed = analyzeAll(files, indices: order, tick: nil, treat: { _, _ in Treatment(parse: true, choice: .chosen) })
        while let (index, outcome, _) = parsed.popLast() { outcomes[index] = outcome }
    }

    /// What the passes leave for the resolve step and the result.
    private struct Collected {
        /// The parsed files' analyses: a file left unparsed has an empty one, which settles nothing
        /// (copying every file's took milliseconds that the report waited for).
        var analyses: [FileAnalysis] = []
        /// The absolute path of each of `analyses`.
        var analysisPaths: [String] = []
        /// The text of the files that may hold findings, for the lines reports show.
        var sources: [String: SourceText] = [:]
        var scannedFiles: [ScannedFile] = []
        var problems: [FileProblem] = []
        var filesScanned = 0
        var filesWithParseErrors = 0
    }

    /// The analyses, texts and problems of the files in scope (outside the paths asked for, in a scan
    /// within the project: facts only, nothing reported), and for a fix every file read.
    private func collect(
        _ files: [SourceFileReference], _ outcomes: [Outcome?], inputs: SourceDiscovery.Inputs, walkProblems: [FileProblem], keepSources: Bool
    ) -> Collected {
        var collected = Collected()
        collected.problems = walkProblems.filter { inputs.isInScope(inputs.absolutePath(ofDisplayed: $0.file)) }
        for (index, reference) in files.enumerated() {
            let inScope = inputs.isInScope(reference.absolutePath)
            switch outcomes[index] {
            case .analyzed(let analyzed)?:
                if inScope { collected.filesScanned += 1 }
                if let source = analyzed.source { collected.sources[reference.displayPath] = source }
                // Only a fix asks for the files (a copy of each analysis otherwise thrown away).
                if keepSources {
                    let source = analyzed.analysis.candidates.isEmpty ? nil : analyzed.source
                    var file = ScannedFile(reference: reference, source: source, analysis: analyzed.analysis)
                    file.inScope = inScope
                    collected.scannedFiles.append(file)
                }
                guard analyzed.parsed else { continue }
                let analysis = analyzed.analysis
                collected.analyses.append(analysis)
                collected.analysisPaths.append(reference.absolutePath)
                if inScope, analyzed.choice == .chosen, let first = analysis.syntaxErrors.first {
                    collected.filesWithParseErrors += 1
                    let more = analysis.syntaxErrors.count > 1 ? " (and \(analysis.syntaxErrors.count - 1) more)" : ""
                    collected.problems.append(FileProblem(file: analysis.file, kind: .syntaxError, line: first.line, column: first.column,
                                                          detail: "syntax error\(more); scanned outside the broken region"))
                }
            case .skipped(let problem)?:
                if inScope { collected.problems.append(problem) }
            case nil:
                break
            }
        }
        collected.problems.sort { $0.file.precedesInUTF8($1.file) || ($0.file == $1.file && ($0.line ?? 0) < ($1.line ?? 0)) }
        return collected
    }

    /// The project model of the files read: modules from the walk's project folders and the parsed
    /// manifests, each file's facts from its analysis.
    static func projectModel(_ analyses: [FileAnalysis], at paths: [String], walk: SourceDiscovery.Result) -> ProjectModel {
        var manifests: [String: PackageManifest] = [:]
        var facts: [String: ModuleFileFacts] = [:]
        for (analysis, path) in zip(analyses, paths) {
            if let manifest = analysis.manifest { manifests[(path as NSString).deletingLastPathComponent] = manifest }
            facts[analysis.file] = analysis.moduleFacts
        }
        return ProjectModel(roots: walk.roots, files: zip(analyses, paths).map { ProjectModel.File(displayPath: $0.file, absolutePath: $1) },
                            folders: walk.projectFolders, manifests: manifests, facts: facts)
    }

    /// The absolute paths of the files the findings name (their own and their related places'), which
    /// reports and baselines look up; `files` is in report order. Not every scanned file's: building and
    /// freeing a dictionary of a large tree's paths took milliseconds that the report waited for.
    static func absolutePaths(of findings: [Finding], in files: [SourceFileReference]) -> [String: String] {
        var paths: [String: String] = [:]
        for name in findings.lazy.flatMap({ [$0.file] + $0.related.map(\.file) }) where paths[name] == nil {
            let low = files.partitioningIndex { !$0.displayPath.precedesInUTF8(name) }
            if low < files.count, files[low].displayPath == name { paths[name] = files[low].absolutePath }
        }
        return paths
    }
}
