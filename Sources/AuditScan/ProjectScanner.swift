import AuditModel
import AuditRules
import Dispatch
import Foundation
import TreeSitter
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Runs the rules over source trees: discover files, read and parse each, match, settle across files.
public struct ProjectScanner {
    public let engine: RuleEngine
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
        self.discovery = discovery
        self.jobs = max(1, jobs)
        self.prefilter = prefilter
        self.cache = cache
    }

    public func scan(_ paths: [String], within root: String? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> ScanResult {
        let (result, files) = try scanFiles(paths, within: root, keepSources: false, progress: progress)
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
    /// candidate findings, for a fix (without it, `files` is empty).
    ///
    /// A file is relevant when it uses a trigger word in code (`RuleEngine.isRelevantOnSight`);
    /// then, for rules that follow names across files, a `RotationFollower` picks more files round
    /// after round from the relevant files' facts and every file's name index. Only relevant files report
    /// syntax errors, with or without the prefilter; without it every file is parsed in the first
    /// round and the rounds only decide relevance, so the two must give the same report.
    /// Scans `paths`; with `root` (the project folder around them), the whole project is read so that
    /// facts from every file count, and what is reported keeps to `paths` (see `SourceDiscovery`).
    public func scanFiles(
        _ paths: [String], within root: String? = nil, keepSources: Bool, progress: ((Int, Int) -> Void)? = nil
    ) throws -> (result: ScanResult, files: [ScannedFile]) {
        let started = DispatchTime.now().uptimeNanoseconds
        @Sendable func elapsed() -> String { "\((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000) ms" }
        // The walk runs beside the first round: workers read the files it has found while it goes on.
        let inputs = try root.flatMap { try discovery.resolve(paths, within: $0) } ?? discovery.resolve(paths)
        let feed = FileFeed()
        let trace = self.trace
        let walker = Thread { [discovery] in
            let walked = discovery.walk(inputs, found: feed.add)
            trace?("found \(walked.files.count) files at \(elapsed())")
            feed.finish(problems: walked.problems)
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
        let roundsExpected = SharedFlag()
        // Set once a clock may assign any case: every put-off file will need its name index.
        let indexEveryTextEnum = SharedFlag()
        var first = analyze(workers: jobs, tick: tick, take: feed.take) { nameIndex, bytes in
            guard let nameIndex else {
                // Only `enum` and `switch` (`RuleEngine.WordScreen.onlyTextEnumWords`): a possible text enum,
                // which may start the rounds; its name index waits for the end of this pass.
                if !roundsExpected.isSet { roundsExpected.set() }
                if indexEveryTextEnum.isSet { return .index }
                return prefilter ? .skip : .parseIrrelevant
            }
            if !roundsExpected.isSet, engine.mayStartRounds(nameIndex) { roundsExpected.set() }
            if engine.isRelevantOnSight(nameIndex, bytes: bytes) { return .parse }
            // Once the rounds are sure to run, the second asks every clock file left unparsed what
            // its clocks may do: answered here, on every core, with the bytes in hand, rather than
            // read again then. (Before that, and in trees where no round runs, the look waits.)
            if roundsExpected.isSet {
                nameIndex.takeClockBodyNames(from: bytes)
                if !indexEveryTextEnum.isSet, RotationFollower.TextEnumFilter.mayAssignAnyCase(nameIndex) { indexEveryTextEnum.set() }
            }
            return prefilter ? .skip : .parseIrrelevant
        }
        // Found in walk order; reported in path order. A file reached twice (a link, a path named too)
        // counts where the walk first reached it.
        let (found, walkProblems) = feed.finished()
        var identities = [SourceDiscovery.FileIdentity?](repeating: nil, count: found.count)
        for (index, _, identity) in first { identities[index] = identity }
        let firstReached = SourceDiscovery.FileIdentity.firstOfEach(identities)
        let order = found.indices.filter { firstReached[$0] }.sorted { SourceDiscovery.inReportOrder(found[$0], found[$1]) }
        let files = order.map { found[$0] }
        var outcomes = [Outcome?](repeating: nil, count: files.count)
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
            trace("read every file (\(screenedOut) irrelevant by the word screen, \(deferred) deferred, \(lexed) lexed, \(parsed) parsed) at \(elapsed())")
        }
        var round = 0
        if var follower = engine.rotationFollower() {
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
            while true {
                let facts = relevantFacts.compactMap { $0 }
                guard let chosen = follower.nextRound(facts: facts, pending: pending.map { nameIndexes[$0]! }, all: all) else { break }
                round += 1
                trace?("round \(round): \(chosen.filter { $0 }.count) of \(pending.count) files not yet relevant (at \(elapsed()))")
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
                trace?("round \(round): parsed (at \(elapsed()))")
            }
        }

        // Outside the paths asked for (a scan within the project): facts only, nothing reported.
        var problems = walkProblems.filter { inputs.isInScope(inputs.absolutePath(ofDisplayed: $0.file)) }
        // The parsed files' analyses: a file left unparsed has an empty one, which settles nothing
        // (copying every file's took milliseconds that the report waited for).
        var analyses: [FileAnalysis] = []
        var sources: [String: SourceText] = [:]
        var scannedFiles: [ScannedFile] = []
        var filesScanned = 0
        var filesWithParseErrors = 0
        for (index, reference) in files.enumerated() {
            let inScope = inputs.isInScope(reference.absolutePath)
            switch outcomes[index] {
            case .analyzed(let analyzed)?:
                if inScope { filesScanned += 1 }
                // Only a fix asks for the files (a copy of each analysis otherwise thrown away).
                if let source = analyzed.source { sources[reference.displayPath] = source }
                if keepSources {
                    let source = analyzed.analysis.candidates.isEmpty ? nil : analyzed.source
                    var file = ScannedFile(reference: reference, source: source, analysis: analyzed.analysis)
                    file.inScope = inScope
                    scannedFiles.append(file)
                }
                guard analyzed.parsed else { continue }
                let analysis = analyzed.analysis
                analyses.append(analysis)
                if inScope, analyzed.relevant, let first = analysis.syntaxErrors.first {
                    filesWithParseErrors += 1
                    let more = analysis.syntaxErrors.count > 1 ? " (and \(analysis.syntaxErrors.count - 1) more)" : ""
                    problems.append(FileProblem(file: analysis.file, kind: .syntaxError, line: first.line, column: first.column,
                                                detail: "syntax error\(more); scanned outside the broken region"))
                }
            case .skipped(let problem)?:
                if inScope { problems.append(problem) }
            case nil:
                break
            }
        }
        problems.sort { $0.file.precedesInUTF8($1.file) || ($0.file == $1.file && ($0.line ?? 0) < ($1.line ?? 0)) }
        trace?("rounds done at \(elapsed())")
        var findings = engine.resolve(analyses)
        if root != nil {
            let paths = Self.absolutePaths(of: findings, in: files)
            findings.removeAll { !inputs.isInScope(paths[$0.file] ?? inputs.absolutePath(ofDisplayed: $0.file)) }
        }
        for index in findings.indices {
            guard let source = sources[findings[index].file] else { continue }
            findings[index].shownLine = ShownLine(line: source.lineText(findings[index].start.line), start: findings[index].start, end: findings[index].end)
        }
        let result = ScanResult(
            findings: findings,
            problems: problems,
            filesScanned: filesScanned,
            filesWithParseErrors: filesWithParseErrors,
            ruleIds: engine.ruleSet.rules.map(\.id) + (engine.ruleSet.unusedSuppressionSeverity == nil ? [] : [UnusedSuppressionRule.id]),
            absolutePaths: Self.absolutePaths(of: findings, in: files)
        )
        trace?("findings resolved at \(elapsed())")
        Self.releaseInBackground(outcomes)
        return (result, scannedFiles)
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

    /// Indexes, on every core, the files at `indices`, whose name index was deferred by the word screen, that a
    /// round may ask about (`RotationFollower.TextEnumFilter`, from the `pending` files' name indexes and
    /// the relevant files' `facts`), and lets go of their bytes. Whether some stay unsigned (then the
    /// rounds are told: `RotationFollower.textEnumsLeftOut`).
    private func indexDeferredFiles(
        _ indices: [Int], _ files: [SourceFileReference], _ outcomes: inout [Outcome?], pending: [FileNameIndex], facts: [RotationFacts]
    ) -> Bool {
        let deferred = indices.compactMap { index -> (index: Int, bytes: [UInt8])? in
            guard case .analyzed(let analyzed)? = outcomes[index], let bytes = analyzed.deferred else { return nil }
            return (index, bytes)
        }
        let filter = RotationFollower.TextEnumFilter(pending: pending, facts: facts)
        let indexed = UnsafeMutableBufferPointer<Result<FileNameIndex, SourceReader.Failure>?>.allocate(capacity: deferred.count)
        indexed.initialize(repeating: nil)
        defer {
            indexed.deinitialize()
            indexed.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: deferred.count) { item in
            let (index, bytes) = deferred[item]
            guard filter.needsSignature(bytes) else { return }
            indexed[item] = SourceReader.indexNames(bytes, path: files[index].absolutePath, maximumSize: Self.maximumFileSize)
        }
        var leftOut = 0
        for (item, (index, _)) in deferred.enumerated() {
            guard case .analyzed(let analyzed)? = outcomes[index] else { continue }
            analyzed.deferred = nil
            switch indexed[item] {
            case .success(let nameIndex)?:
                analyzed.nameIndex = kept(nameIndex)
                analyzed.lexed = true
            case .failure(let failure)?:
                // Not expected: the word screen found UTF-8 text without NUL, as the name index checks.
                outcomes[index] = .skipped(FileProblem(file: files[index].displayPath, kind: failure.kind, detail: failure.detail))
            case nil:
                leftOut += 1
            }
        }
        trace?("\(deferred.count) files with only enum and switch deferred by the word screen, \(deferred.count - leftOut) indexed now")
        return leftOut > 0
    }

    /// A file read and analyzed (parsed, or standing in with an empty analysis).
    /// A class: the passes after the first look at every file's outcome, and each look at a struct
    /// this size copied (retained and released) its many collections.
    final class Analyzed {
        var analysis: FileAnalysis
        /// Its text, kept when it may hold findings: for the lines reports show, and for a fix.
        var source: SourceText?
        /// Whether its findings and syntax errors count (see `scanFiles`).
        var relevant: Bool
        /// Whether `analysis` comes from a parse (with the prefilter off, irrelevant files are parsed too).
        var parsed: Bool
        /// What the rounds that follow names across files ask about it.
        var nameIndex: FileNameIndex?
        /// Whether its bytes went through the lexer (not for a file irrelevant by the word screen).
        var lexed = true
        /// The bytes of a file whose name index is deferred (`RuleEngine.WordScreen.onlyTextEnumWords`),
        /// until the first pass tells whether a round may ask about it.
        var deferred: [UInt8]?

        init(analysis: FileAnalysis, source: SourceText?, relevant: Bool, parsed: Bool, nameIndex: FileNameIndex?, lexed: Bool, deferred: [UInt8]?) {
            self.analysis = analysis
            self.source = source
            self.relevant = relevant
            self.parsed = parsed
            self.nameIndex = nameIndex
            self.lexed = lexed
            self.deferred = deferred
        }
    }

    enum Outcome {
        case analyzed(Analyzed)
        case skipped(FileProblem)

        var nameIndex: FileNameIndex? { if case .analyzed(let analyzed) = self { return analyzed.nameIndex } else { return nil } }
    }

    /// What to do with a file, decided from its name index (and its bytes, for a closer look). Asked
    /// with no name index of a file whose only asked words are `enum` and `switch`
    /// (`RuleEngine.WordScreen.onlyTextEnumWords`): `.skip` or `.parseIrrelevant` put its name index off
    /// (`indexDeferredFiles`), `.index` indexes it and asks again, `.parse` indexes and parses it now.
    enum Decision {
        /// Parse and analyze it: it is relevant.
        case parse
        /// Parse it although it is not relevant (the prefilter is off).
        case parseIrrelevant
        /// Do not parse it: an empty analysis stands for it.
        case skip
        /// For a file asked about with no nameIndex: index it now and ask again.
        case index
    }

    /// Reads and analyzes the files at `indices` on `jobs` workers (see `analyze(workers:…)`).
    func analyzeAll(
        _ files: [SourceFileReference], indices: [Int], tick: (() -> Void)?, decide: @escaping (FileNameIndex?, [UInt8]) -> Decision
    ) -> [(Int, Outcome, SourceDiscovery.FileIdentity?)] {
        let positions = IndexDispenser(count: indices.count)
        return analyze(workers: min(jobs, max(1, indices.count)), tick: tick, take: {
            positions.take().map { (indices[$0], files[indices[$0]]) }
        }, decide: decide)
    }

    /// Reads and analyzes the files `take` hands out (with their indices; nil when there are no more)
    /// on `workers` threads, each parsing in its own arena (`ArenaParse`). Results are keyed by index,
    /// in no particular order: callers place each by its index, so the output does not depend on the
    /// workers. (Moved, not copied: a copy of an outcome retains each of its analysis's collections.)
    /// Each with the file's identity.
    func analyze(
        workers: Int, tick: (() -> Void)?, take: @escaping () -> (Int, SourceFileReference)?,
        decide: @escaping (FileNameIndex?, [UInt8]) -> Decision
    ) -> [(Int, Outcome, SourceDiscovery.FileIdentity?)] {
        let results = UnsafeMutableBufferPointer<[(Int, Outcome, SourceDiscovery.FileIdentity?)]>.allocate(capacity: workers)
        results.initialize(repeating: [])
        defer {
            // The outcomes hold arrays: release them before the memory goes (found by AddressSanitizer).
            results.deinitialize()
            results.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var mine: [(Int, Outcome, SourceDiscovery.FileIdentity?)] = []
            while let (index, file) = take() {
                let (outcome, identity) = analyze(file, decide: decide)
                mine.append((index, outcome, identity))
                tick?()
            }
            results[worker] = mine
        }
        var all: [(Int, Outcome, SourceDiscovery.FileIdentity?)] = []
        all.reserveCapacity(results.reduce(0) { $0 + $1.count })
        for worker in results.indices { while let result = results[worker].popLast() { all.append(result) } }
        return all
    }

    /// The name index, when a round that follows names across files may ask about this file; the
    /// others' are let go at once (most of the memory a scan of a large tree holds).
    func kept(_ nameIndex: FileNameIndex) -> FileNameIndex? {
        engine.mayFollow(nameIndex) ? nameIndex : nil
    }

    /// Reads, indexes and, if it is to be, parses and analyzes one file; with its identity (nil when it
    /// cannot be found out), which tells a file reached twice.
    func analyze(
        _ file: SourceFileReference, decide: (FileNameIndex?, [UInt8]) -> Decision
    ) -> (Outcome, SourceDiscovery.FileIdentity?) {
        switch SourceReader.readFile(file.absolutePath, maximumSize: Self.maximumFileSize) {
        case .failure(let failure):
            return (.skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail)), SourceDiscovery.FileIdentity(path: file.absolutePath))
        case .success(let read):
            return (analyze(file, bytes: read.bytes, decide: decide), read.identity)
        }
    }

    private func analyze(
        _ file: SourceFileReference, bytes: [UInt8], decide: (FileNameIndex?, [UInt8]) -> Decision
    ) -> Outcome {
        let nameIndex: FileNameIndex?
        let skipped = { (nameIndex: FileNameIndex?, lexed: Bool, deferred: [UInt8]?) in
            Outcome.analyzed(Analyzed(analysis: engine.emptyAnalysis(file: file.displayPath), source: nil, relevant: false, parsed: false,
                                      nameIndex: nameIndex, lexed: lexed, deferred: deferred))
        }
        // Most files: no word any rule or round asks about. Such a file is not relevant and no round
        // follows it, with or without the prefilter (its name index might say otherwise, as Bloom
        // filters answer "yes" wrongly); the prefilter skips its lexer and its parse.
        let wordScreen = engine.wordScreen(bytes)
        let irrelevantByItsWords = wordScreen == .irrelevant
        if irrelevantByItsWords, prefilter { return skipped(nil, false, nil) }
        // A file whose only asked words are `enum` and `switch` cannot be relevant on sight: the first
        // pass (`decide` without a nameIndex: `.skip` or `.parseIrrelevant`) puts its name index off
        // until it is known whether a round may ask about it (`indexDeferredFiles`); a round parses it.
        var deferred = false
        if wordScreen == .onlyTextEnumWords {
            switch decide(nil, bytes) {
            case .skip:
                return skipped(nil, false, bytes)
            case .parseIrrelevant:
                deferred = true
            case .parse, .index:
                break
            }
        }
        if deferred {
            nameIndex = nil
        } else {
            switch SourceReader.indexNames(bytes, path: file.absolutePath, maximumSize: Self.maximumFileSize) {
            case .failure(let failure):
                return .skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail))
            case .success(let read):
                nameIndex = read
            }
        }
        let decision = irrelevantByItsWords || deferred ? .parseIrrelevant : decide(nameIndex!, bytes)
        if decision == .skip { return skipped(kept(nameIndex!), true, nil) }
        let relevant = decision == .parse
        // The line index only for a file that is parsed: most are not.
        let source = SourceText(bytes: bytes)
        let analysis: FileAnalysis
        if let cached = cache?.load(file, bytes: source.bytes) {
            analysis = cached
        } else {
            do {
                let started = DispatchTime.now().uptimeNanoseconds
                var parsed = started
                analysis = try ArenaParse.withTree(of: source) { tree in
                    parsed = DispatchTime.now().uptimeNanoseconds
                    return engine.analyze(tree: tree, file: file.displayPath, nameIndex: nameIndex)
                }
                if let trace {
                    let analyzed = DispatchTime.now().uptimeNanoseconds
                    let memory = ArenaParse.lastParseBytes
                    trace("parsed \(relevant ? "relevant" : "irrelevant") \((parsed - started) / 1000) µs, analyzed \((analyzed - parsed) / 1000) µs, arena \(memory.requested >> 10) KB asked, \(memory.peak >> 10) KB at most, \(source.bytes.count) bytes: \(file.displayPath)")
                }
                cache?.store(analysis, for: file, bytes: source.bytes)
            } catch {
                return .skipped(FileProblem(file: file.displayPath, kind: .syntaxError, detail: "could not be parsed: \(error)"))
            }
        }
        return .analyzed(Analyzed(analysis: analysis, source: analysis.mayHoldFindings ? source : nil,
                                  relevant: relevant, parsed: true, nameIndex: irrelevantByItsWords ? nil : nameIndex.flatMap(kept),
                                  lexed: nameIndex != nil, deferred: deferred ? bytes : nil))
    }
}

/// Hands out 0, 1, 2, … up to a count, one at a time, to whichever worker asks next.
public final class IndexDispenser: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var next = 0

    public init(count: Int) { self.count = count }

    /// The next index, or nil once all are handed out.
    public func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// A flag any worker may raise and every worker may read.
final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func set() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }
}

/// The files the walk has found so far, handed to the first round's workers one at a time: a worker
/// that catches up with the walk waits for the next file, or for the walk's end.
final class FileFeed: @unchecked Sendable {
    private let condition = NSCondition()
    private var files: [SourceFileReference] = []
    private var next = 0
    private var done = false
    private var problems: [FileProblem] = []

    func add(_ file: SourceFileReference) {
        condition.lock()
        files.append(file)
        condition.signal()
        condition.unlock()
    }

    func finish(problems: [FileProblem]) {
        condition.lock()
        self.problems = problems
        done = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next file and its index in walk order; nil once every file is handed out and the walk is over.
    func take() -> (Int, SourceFileReference)? {
        condition.lock()
        defer { condition.unlock() }
        while next == files.count, !done { condition.wait() }
        guard next < files.count else { return nil }
        next += 1
        return (next - 1, files[next - 1])
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return files.count
    }

    /// Every file in walk order and the walk's problems; waits for the walk's end.
    func finished() -> (files: [SourceFileReference], problems: [FileProblem]) {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return (files, problems)
    }
}

/// Reads a file as UTF-8 source, refusing what is not Swift text, and takes its name index on the way.
public enum SourceReader {
    public struct Failure: Error {
        public let kind: FileProblem.Kind
        public let detail: String
    }

    /// The file's bytes, checked (binary, not UTF-8), and its name index.
    public static func read(_ path: String, maximumSize: Int) -> Result<([UInt8], FileNameIndex), Failure> {
        readBytes(path, maximumSize: maximumSize).flatMap { bytes in indexNames(bytes, path: path, maximumSize: maximumSize).map { (bytes, $0) } }
    }

    /// The name index of `bytes`, read from `path` (its closer readings read it again when asked), or why
    /// the file is not Swift text.
    static func indexNames(_ bytes: [UInt8], path: String, maximumSize: Int) -> Result<FileNameIndex, Failure> {
        let nameIndex = FileNameIndex(bytes: bytes) {
            if case .success(let again) = readBytes(path, maximumSize: maximumSize) { return again } else { return nil }
        }
        if let offset = nameIndex.firstNULOffset, offset < 8192 {
            return .failure(Failure(kind: .binary, detail: "binary content (NUL bytes), not Swift source: skipped"))
        }
        if let offset = nameIndex.firstInvalidUTF8Offset {
            return .failure(Failure(kind: .notUTF8, detail: "not valid UTF-8 (first bad byte at offset \(offset)): skipped"))
        }
        return .success(nameIndex)
    }

    /// Reads into `base` from `start` until `end` or the file's end, again after a signal: how far it
    /// got, and the error that stopped it (0: none).
    static func fill(_ descriptor: Int32, _ base: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int) -> (Int, Int32) {
        var position = start
        while position < end {
            let got = systemRead(descriptor, base + position, end - position)
            if got < 0 {
                if errno == EINTR { continue }
                return (position, errno)
            }
            if got == 0 { break }
            position += got
        }
        return (position, 0)
    }

    static func readBytes(_ path: String, maximumSize: Int) -> Result<[UInt8], Failure> {
        readFile(path, maximumSize: maximumSize).map(\.bytes)
    }

    /// The whole file in one buffer: open, fstat for the size, read that many bytes (a file that grew
    /// since counts as it was at the fstat; one that gave no size, or fewer bytes, is read to its end).
    /// With the file's identity, from the same fstat.
    static func readFile(_ path: String, maximumSize: Int) -> Result<(bytes: [UInt8], identity: SourceDiscovery.FileIdentity), Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == EACCES ? "permission denied?" : String(cString: strerror(errno))
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (\(reason))"))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (\(String(cString: strerror(errno))))"))
        }
        let tooLarge = { (size: Int) in
            Failure(kind: .tooLarge, detail: "\(size / (1 << 20)) MB is over the \(maximumSize >> 20) MB limit: skipped")
        }
        if Int(status.st_size) > maximumSize { return .failure(tooLarge(Int(status.st_size))) }
        // The expected size and one byte more, read into uninitialized memory (no zero-filling first):
        // the array counts only what `read` wrote. The size `fstat` gave, read in full, is the file as
        // it was then: no second `read` to hear the end (one system call fewer for each of thousands of
        // files). A file with no size (those of /proc) is read to its end.
        let size = max(Int(status.st_size), 0)
        let capacity = size + 1
        var readError: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            (count, readError) = fill(descriptor, buffer.baseAddress!, from: 0, to: size > 0 ? size : capacity)
        }
        var filled = bytes.count
        if size > 0, filled == size, readError == 0 { return .success((bytes, SourceDiscovery.FileIdentity(status))) }
        // A full buffer: the file grew since `fstat` (or, like a file of /proc, gave no size); read on to the end.
        var full = filled == capacity
        while readError == 0, full {
            if filled > maximumSize { return .failure(tooLarge(filled)) }
            bytes.append(contentsOf: repeatElement(0, count: max(4096, filled)))
            let end = bytes.count
            (filled, readError) = bytes.withUnsafeMutableBufferPointer { fill(descriptor, $0.baseAddress!, from: filled, to: end) }
            full = filled == end
        }
        if readError != 0 {
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (\(String(cString: strerror(readError))))"))
        }
        if filled > maximumSize { return .failure(tooLarge(filled)) }
        bytes.removeLast(bytes.count - filled)
        return .success((bytes, SourceDiscovery.FileIdentity(status)))
    }
}
