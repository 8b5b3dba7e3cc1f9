import AuditModel
import AuditRules
import AuditSelect
import Dispatch
import Foundation
import SwiftGrammar
import TreeSitter

/// The scan's workers: reading, screening, indexing and parsing files on every core, each file's
/// outcome, and the feeds that hand files out.
extension ProjectScanner {
    /// Indexes, on every core, the files at `indices`, whose name index was deferred by the word screen, that a
    /// round may ask about (`RotationFollower.TextEnumFilter`, from the `pending` files' name indexes and
    /// the relevant files' `facts`), and lets go of their bytes. Whether some stay unsigned (then the
    /// rounds are told: `RotationFollower.textEnumsLeftOut`).
    func indexDeferredFiles(
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
            indexed[item] = SourceReader.indexNames(bytes, path: files[index].absolutePath, maximumSize: Self.maximumFileSize, clocks: selector.clockWords)
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
        /// The bytes of a file whose name index is deferred (`FileSelector.WordScreen.onlyTextEnumWords`),
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

    /// Reads and analyzes the files at `indices` on `jobs` workers (see `analyze(workers:…)`).
    func analyzeAll(
        _ files: [SourceFileReference], indices: [Int], tick: (() -> Void)?, decide: @escaping (FileNameIndex?, [UInt8]) -> ParseDecision
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
        decide: @escaping (FileNameIndex?, [UInt8]) -> ParseDecision
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
        selector.keepsIndex(nameIndex) ? nameIndex : nil
    }

    /// Reads, indexes and, if it is to be, parses and analyzes one file; with its identity (nil when it
    /// cannot be found out), which tells a file reached twice.
    func analyze(
        _ file: SourceFileReference, decide: (FileNameIndex?, [UInt8]) -> ParseDecision
    ) -> (Outcome, SourceDiscovery.FileIdentity?) {
        switch SourceReader.readFile(file.absolutePath, maximumSize: Self.maximumFileSize) {
        case .failure(let failure):
            return (.skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail)), SourceDiscovery.FileIdentity(path: file.absolutePath))
        case .success(let read):
            return (analyze(file, bytes: read.bytes, decide: decide), read.identity)
        }
    }

    private func analyze(
        _ file: SourceFileReference, bytes: [UInt8], decide: (FileNameIndex?, [UInt8]) -> ParseDecision
    ) -> Outcome {
        let nameIndex: FileNameIndex?
        let skipped = { (nameIndex: FileNameIndex?, lexed: Bool, deferred: [UInt8]?) in
            Outcome.analyzed(Analyzed(analysis: engine.emptyAnalysis(file: file.displayPath), source: nil, relevant: false, parsed: false,
                                      nameIndex: nameIndex, lexed: lexed, deferred: deferred))
        }
        // A package manifest is always read: it says which modules the project has.
        let isManifest = SwiftPackageManifest.isManifest(path: file.displayPath)
        // Most files: no word any rule or round asks about. Such a file is not relevant and no round
        // follows it, with or without the prefilter (its name index might say otherwise, as Bloom
        // filters answer "yes" wrongly); the prefilter skips its lexer and its parse.
        let wordScreen = isManifest ? .needsIndex : selector.screen(bytes)
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
            switch SourceReader.indexNames(bytes, path: file.absolutePath, maximumSize: Self.maximumFileSize, clocks: selector.clockWords) {
            case .failure(let failure):
                return .skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail))
            case .success(let read):
                nameIndex = read
            }
        }
        let decision = isManifest ? .parse : irrelevantByItsWords || deferred ? .parseIrrelevant : decide(nameIndex!, bytes)
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
                    return engine.analyze(tree: tree, file: file.displayPath, hints: selector.hints(for: nameIndex))
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

    func add(_ file: SourceFileReference) {
        condition.lock()
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
