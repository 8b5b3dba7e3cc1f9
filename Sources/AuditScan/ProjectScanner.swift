// AuditScan: the scan's pipeline over files. It owns discover (SourceDiscovery: the walk, .gitignore,
// the project root's scope), reading (SourceReader), the workers that parse in parallel (an arena
// each), the per-file cache, and the order of the steps: discover -> select (asks AuditSelect) ->
// parse -> match (asks the rule engine) -> resolve (the engine, across files). It must not know
// what the rules look for or how files are selected, print, or write anything but its cache.

import AuditModel
import AuditProject
import AuditRules
import AuditSelect
import Dispatch
import Foundation
import TreeSitter

/// Runs the rules over source trees: discover files, read and parse each, match, settle across files.
public struct ProjectScanner {
    public let engine: RuleEngine
    /// The select step: which files are parsed, now and in later rounds (built from the engine's rules).
    public let selector: FileSelector
    public let discovery: SourceDiscovery
    /// How many files are parsed at once (each worker parses in its own arena, with a parser per file).
    public let jobs: Int
    /// Skip parsing files that contain none of the rules' trigger words. It never changes results:
    /// such files cannot hold a finding (tests compare full reports with and without it).
    public let prefilter: Bool
    /// Where per-file results are kept between runs, when caching.
    public let cache: ResultCache?
    /// Told what the prefilter's rounds pick and what each parse costs (`LOADAUDIT_TRACE=1` in the
    /// CLI; for profiling, see benchmarks/README.md). Called from the workers.
    public var trace: (@Sendable (String) -> Void)?
    /// Larger files are reported and skipped: tree-sitter's offsets are 32-bit, and such files are generated.
    public static let maximumFileSize = 64 << 20

    public init(
        engine: RuleEngine, discovery: SourceDiscovery = SourceDiscovery(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        prefilter: Bool = true, cache: ResultCache? = nil
    ) {
        self.engine = engine
        selector = FileSelector(engine)
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

    /// Lets go of `value` on another thread: freeing every file's outcome, analysis and name index of a
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
    /// reads every file and parses those the select step (`FileSelector`) finds relevant on sight;
    /// then, for rules that follow names across files, later rounds (`RotationFollower`) pick more
    /// files from the relevant files' facts and every file's name index; last, the analyses are
    /// resolved against each other. Only relevant files report syntax errors, with or without the
    /// prefilter; without it every file is parsed in the first pass and the rounds only decide
    /// relevance, so the two must give the same report.
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
        followRotatingText(files, &outcomes, clock: clock)
        let collected = collect(files, outcomes, inputs: inputs, walkProblems: read.walk.problems, keepSources: keepSources)
        trace?("rounds done at \(clock.elapsed())")
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

    /// The first pass: the walk finds files while the workers read each, screen its words, index its
    /// names and parse it when the select step says so. The files in report (path) order, each one's
    /// outcome at the same index, and the walk's problems. A file reached twice (a link, a path named
    /// too) counts where the walk first reached it.
    private func readEveryFile(
        _ inputs: SourceDiscovery.Inputs, clock: ScanClock, progress: ((Int, Int) -> Void)?
    ) -> (files: [SourceFileReference], outcomes: [Outcome?], walk: SourceDiscovery.Result) {
        let feed = FileFeed()
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
        let firstPass = FirstPass(selector, prefilter: prefilter)
        var first = analyze(workers: jobs, tick: tick, take: feed.take, decide: firstPass.decide)
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
            var screenedOut = 0, deferred = 0, lexed = 0, parsed = 0
            for case .analyzed(let analyzed)? in outcomes {
                if analyzed.deferred != nil { deferred += 1 } else if analyzed.lexed { lexed += 1 } else { screenedOut += 1 }
                if analyzed.parsed { parsed += 1 }
            }
            trace("read every file (\(screenedOut) irrelevant by the word screen, \(deferred) deferred, \(lexed) lexed, \(parsed) parsed) at \(clock.elapsed())")
        }
        return (order.map { found[$0] }, outcomes, walk)
    }

    /// The later rounds, for rules that follow rotating text across files: each round the select
    /// step picks, from the relevant files' facts, the files not yet relevant that may take part, and
    /// those are parsed (largest first) and become relevant, until a round picks none.
    private func followRotatingText(_ files: [SourceFileReference], _ outcomes: inout [Outcome?], clock: ScanClock) {
        guard var follower = selector.rotationFollower() else { return }
        // What the rounds read of the outcomes, kept apart and updated as files become relevant:
        // going through every outcome each round copied each analysis's many collections. The
        // relevant files' rotation facts (nil for the others), and the files not yet relevant.
        var relevantFacts = [RotationFacts?](repeating: nil, count: files.count)
        var pending: [Int] = []
        var deferred: [Int] = []
        for index in files.indices {
            guard case .analyzed(let analyzed)? = outcomes[index] else { continue }
            if analyzed.deferred != nil {
                deferred.append(index)
            } else if analyzed.relevant {
                relevantFacts[index] = analyzed.analysis.rotation
            } else if analyzed.nameIndex != nil {
                pending.append(index)
            }
        }
        if !deferred.isEmpty {
            follower.textEnumsLeftOut = indexDeferredFiles(deferred, files, &outcomes, pending: pending.compactMap { outcomes[$0]?.nameIndex },
                                                           facts: relevantFacts.compactMap { $0 })
            // Those indexed now wait for the rounds like the others, in the same order.
            pending = (pending + deferred.filter { outcomes[$0]?.nameIndex != nil }).sorted()
        }
        let nameIndexes = outcomes.map { $0?.nameIndex }
        let all = nameIndexes.compactMap { $0 }
        var round = 0
        while let chosen = follower.nextRound(facts: relevantFacts.compactMap { $0 }, pending: pending.map { nameIndexes[$0]! }, all: all) {
            round += 1
            trace?("round \(round): \(chosen.filter { $0 }.count) of \(pending.count) files not yet relevant (at \(clock.elapsed()))")
            var toParse: [Int] = []
            var stillPending: [Int] = []
            for (index, isChosen) in zip(pending, chosen) {
                guard isChosen else {
                    stillPending.append(index)
                    continue
                }
                if case .analyzed(let analyzed)? = outcomes[index], analyzed.parsed {
                    analyzed.relevant = true
                    relevantFacts[index] = analyzed.analysis.rotation
                } else {
                    toParse.append(index)
                }
            }
            pending = stillPending
            // Largest first: a round ends when its last file is parsed, and a large file taken last
            // would leave the other workers idle until it is done.
            toParse.sort { (nameIndexes[$0]?.byteCount ?? 0, $1) > (nameIndexes[$1]?.byteCount ?? 0, $0) }
            var parsed = analyzeAll(files, indices: toParse, tick: nil, decide: { _, _ in .parse })
            while let (index, outcome, _) = parsed.popLast() {
                outcomes[index] = outcome
                // Parsed as relevant; a file that can no longer be read is neither relevant nor pending.
                if case .analyzed(let analyzed) = outcome { relevantFacts[index] = analyzed.analysis.rotation }
            }
            trace?("round \(round): parsed (at \(clock.elapsed()))")
        }
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
                if inScope, analyzed.relevant, let first = analysis.syntaxErrors.first {
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
            var low = 0, high = files.count
            while low < high {
                let middle = (low + high) / 2
                if files[middle].displayPath.precedesInUTF8(name) { low = middle + 1 } else { high = middle }
            }
            if low < files.count, files[low].displayPath == name { paths[name] = files[low].absolutePath }
        }
        return paths
    }
}
