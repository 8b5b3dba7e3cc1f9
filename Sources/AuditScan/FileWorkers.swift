import AuditModel
import AuditRules
import AuditSelect
import Dispatch
import Foundation
import TreeSitter

/// The scan's workers: reading, selecting and parsing files on every core, each file's outcome, and
/// the feeds that hand files out.
extension ProjectScanner {
    /// A file read and analyzed (parsed, or standing in with an empty analysis).
    /// A class: the steps after the first look at every file's outcome, and each look at a struct
    /// this size copied (retained and released) its many collections.
    final class Analyzed {
        var analysis: FileAnalysis
        /// Its text, kept when it may hold findings: for the lines reports show, and for a fix.
        var source: SourceText?
        /// Where the select step has put it; the follow-up moves a file from `later` to `chosen`.
        var choice: Choice
        /// Whether `analysis` comes from a parse (with the prefilter off, every file is parsed).
        var parsed: Bool
        /// For a file left for later, its names sketched (`NameSketch`): the follow-up reads it again
        /// only when the sketch may hold a name it asks about.
        var sketch: NameSketch?

        init(analysis: FileAnalysis, source: SourceText?, choice: Choice, parsed: Bool, sketch: NameSketch? = nil) {
            self.analysis = analysis
            self.source = source
            self.choice = choice
            self.parsed = parsed
            self.sketch = sketch
        }
    }

    /// The select step's verdict on a file as the passes keep it.
    enum Choice {
        /// Chosen (by its words, or by the follow-up): its syntax errors are reported (see `scanFiles`).
        case chosen
        /// Left for later: decided once the first files are parsed (`followUp`).
        case later
        /// Neither: not parsed, or parsed only for what it declares (a manifest, or every file with
        /// the prefilter off).
        case notChosen
    }

    enum Outcome {
        case analyzed(Analyzed)
        case skipped(FileProblem)
    }

    /// How a file is to be treated: parsed or not, and the select step's verdict.
    struct Treatment {
        let parse: Bool
        let choice: Choice
        /// The file's names sketched, for a file left for later.
        var sketch: NameSketch? = nil
    }

    /// Reads and analyzes the files at `indices` on `jobs` workers (see `analyze(workers:…)`).
    func analyzeAll(
        _ files: [SourceFileReference], indices: [Int], tick: (() -> Void)?, treat: @escaping ([UInt8], SourceFileReference) -> Treatment
    ) -> [(Int, Outcome, SourceDiscovery.FileIdentity?)] {
        let positions = IndexDispenser(count: indices.count)
        return analyze(workers: min(jobs, max(1, indices.count)), tick: tick, take: {
            positions.take().map { (indices[$0], files[indices[$0]]) }
        }, treat: treat)
    }

    /// Reads and analyzes the files `take` hands out (with their indices; nil when there are no more)
    /// on `workers` threads, each parsing in its own arena (`ArenaParse`). Results are keyed by index,
    /// in no particular order: callers place each by its index, so the output does not depend on the
    /// workers. (Moved, not copied: a copy of an outcome retains each of its analysis's collections.)
    /// Each with the file's identity.
    func analyze(
        workers: Int, tick: (() -> Void)?, take: @escaping () -> (Int, SourceFileReference)?,
        treat: @escaping ([UInt8], SourceFileReference) -> Treatment
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
                let (outcome, identity) = analyze(file, treat: treat)
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

    /// Reads and, if it is to be, parses and analyzes one file; with its identity (nil when it cannot
    /// be found out), which tells a file reached twice.
    func analyze(_ file: SourceFileReference, treat: ([UInt8], SourceFileReference) -> Treatment) -> (Outcome, SourceDiscovery.FileIdentity?) {
        switch SourceReader.readFile(readsInstead[file.absolutePath] ?? file.absolutePath, maximumSize: Self.maximumFileSize) {
        case .failure(let failure):
            return (.skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail)), SourceDiscovery.FileIdentity(path: file.absolutePath))
        case .success(let read):
            return (analyze(file, bytes: read.bytes, treat: treat), read.identity)
        }
    }

    /// The per-file step once a file's bytes are read: refused unless Swift text; treated as `treat`
    /// says (the select step's decision); when parsed, analyzed (`parse(_:path:alsoRead:)`), or taken
    /// from the cache.
    private func analyze(_ file: SourceFileReference, bytes: [UInt8], treat: ([UInt8], SourceFileReference) -> Treatment) -> Outcome {
        if let failure = SourceReader.refusal(of: bytes) {
            return .skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail))
        }
        let treatment = treat(bytes, file)
        guard treatment.parse else {
            return .analyzed(Analyzed(analysis: engine.emptyAnalysis(file: file.displayPath), source: nil,
                                      choice: treatment.choice == .later ? .later : .notChosen, parsed: false, sketch: treatment.sketch))
        }
        // The line index only for a file that is parsed: most are not.
        let source = SourceText(bytes: bytes)
        let analysis: FileAnalysis
        if let cached = cache?.load(file, bytes: source.bytes) {
            analysis = cached
        } else {
            do {
                let started = DispatchTime.now().uptimeNanoseconds
                var parsed = started
                analysis = try parse(source, path: file.displayPath) { _ in parsed = DispatchTime.now().uptimeNanoseconds }.analysis
                if let trace {
                    let analyzed = DispatchTime.now().uptimeNanoseconds
                    let memory = ArenaParse.lastParseBytes
                    trace("parsed \(treatment.choice == .chosen ? "relevant" : "irrelevant") \((parsed - started) / 1000) µs, analyzed \((analyzed - parsed) / 1000) µs, arena \(memory.requested >> 10) KB asked, \(memory.peak >> 10) KB at most, \(source.bytes.count) bytes: \(file.displayPath)")
                }
                if !uncached.contains(file.absolutePath) { cache?.store(analysis, for: file, bytes: source.bytes) }
            } catch {
                return .skipped(FileProblem(file: file.displayPath, kind: .syntaxError, detail: "could not be parsed: \(error)"))
            }
        }
        return .analyzed(Analyzed(analysis: analysis, source: analysis.mayHoldFindings ? source : nil, choice: treatment.choice, parsed: true,
                                  sketch: treatment.sketch))
    }

    /// Whether the part `cut` of a possible anchor may make it an anchor (`RuleEngine.mayAnchor` on the
    /// part alone, parsed in this thread's arena); yes when the part cannot be parsed. With
    /// `anchorCutCheck`, a no is checked against the whole file's parse.
    private func mayAnchor(_ path: String, bytes: [UInt8], cut: [Range<Int>]) -> Bool {
        let source = SourceText(bytes: bytes)
        let started = DispatchTime.now().uptimeNanoseconds
        let may = (try? ArenaParse.withTree(of: source, includedRanges: cut) { engine.mayAnchor(tree: $0) }) ?? true
        if let trace {
            let done = DispatchTime.now().uptimeNanoseconds
            trace("parsed part \((done - started) / 1000) µs, \(cut.reduce(0) { $0 + $1.count }) of \(bytes.count) bytes, \(may ? "may anchor" : "no anchor: left for later"): \(path)")
        }
        if !may, let anchorCutCheck,
           (try? ArenaParse.withTree(of: source) { engine.analyze(tree: $0, file: path).rotation?.isAnchor ?? false }) == true {
            anchorCutCheck("the anchor cut says no anchor, the whole file's parse says anchor: \(path)")
        }
        return may
    }

    /// The per-file step's screen, for text already in memory (`progress`'s blobs; `scan` reads its
    /// files with the same checks): why the text is refused (over the size limit, or not Swift text:
    /// `SourceReader.refusal`), else the select step's decision (`decision`: the word screen first,
    /// the closer reading only of a file it lets through, the anchor cut).
    public func screen(_ bytes: [UInt8], path: String) -> Result<FileDecision, SourceReader.Failure> {
        if bytes.count > Self.maximumFileSize { return .failure(.tooLarge(bytes.count, limit: Self.maximumFileSize)) }
        if let failure = SourceReader.refusal(of: bytes) { return .failure(failure) }
        return .success(decision(bytes, path: path))
    }

    /// The select step's decision for text that is Swift (`scan`'s first look and `progress`'s blobs
    /// alike), with the anchor cut when `cutsPossibleAnchors`: a file parsed only as a possible
    /// rotating-text anchor (`FileSelector.decideCutting`) has its part parsed first, and is left for
    /// later when the part cannot make it one.
    func decision(_ bytes: [UInt8], path: String) -> FileDecision {
        guard cutsPossibleAnchors else { return selector.decide(bytes, path: path) }
        let (decision, cut) = selector.decideCutting(bytes, path: path)
        if let cut, !mayAnchor(path, bytes: bytes, cut: cut) { return .later }
        return decision
    }

    /// The per-file step's parse, for `scan` and `progress` alike: the text parsed in this thread's
    /// arena (`ArenaParse`) and analyzed by the engine; `alsoRead` reads the tree before the arena
    /// takes it back (progress counts the new components' uses there). Throws when the parser gives up.
    public func parse<Extra>(_ source: SourceText, path: String, alsoRead: (Tree) -> Extra) throws -> (analysis: FileAnalysis, extra: Extra) {
        try ArenaParse.withTree(of: source) { tree in
            let extra = alsoRead(tree)
            return (engine.analyze(tree: tree, file: path), extra)
        }
    }
}

/// Work on every core: `body` runs for each index below `count` on one of `contexts.count` threads,
/// each with its own context (a parser), and the results come back in index order whatever the threads.
public enum ParallelMap {
    public static func map<Context, Result>(count: Int, contexts: [Context], _ body: (Context, Int) -> Result) -> [Result?] {
        let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            // The results may hold arrays: release them before the memory goes.
            results.deinitialize()
            results.deallocate()
        }
        let next = IndexDispenser(count: count)
        DispatchQueue.concurrentPerform(iterations: contexts.count) { worker in
            while let index = next.take() { results[index] = body(contexts[worker], index) }
        }
        return Array(results)
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

/// The files the walk has found so far, handed to the first round's workers one at a time: a worker
/// that catches up with the walk waits for the next file, or for the walk's end.
final class FileFeed: @unchecked Sendable {
    private let condition = NSCondition()
    private var files: [SourceFileReference] = []
    private var next = 0
    private var done = false
    private var walk = SourceDiscovery.Result()
    /// The files named (absolute paths), and those of them handed out already.
    private let named: Set<String>
    private var namedAdded: Set<String> = []

    /// `named`: the files named as well as walked to (`SourceDiscovery.Inputs.namedFiles`).
    init(named: Set<String> = []) { self.named = named }

    /// A file the walk reached; a named file reached again by the same path is left out (it counts
    /// once, where first reached: reading and parsing it twice doubled the cost of judging an editor's
    /// buffer, `--stdin-filename`). One reached by another path (a link) is told by its identity later.
    func add(_ file: SourceFileReference) {
        condition.lock()
        if !named.isEmpty, named.contains(file.absolutePath), !namedAdded.insert(file.absolutePath).inserted {
            condition.unlock()
            return
        }
        files.append(file)
        condition.signal()
        condition.unlock()
    }

    /// The walk is over: its problems and project folders (its files came one by one).
    func finish(_ walk: SourceDiscovery.Result) {
        condition.lock()
        self.walk = walk
        self.walk.files = []
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

    /// Every file in walk order and the rest of the walk's result; waits for the walk's end.
    func finished() -> (files: [SourceFileReference], walk: SourceDiscovery.Result) {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return (files, walk)
    }
}
