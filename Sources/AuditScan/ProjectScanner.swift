import AuditModel
import AuditRules
import Dispatch
import Foundation
import TreeSitter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the rules over source trees: discover files, read and parse each, match, settle across files.
public struct ProjectScanner {
    public let engine: RuleEngine
    public let discovery: SourceDiscovery
    /// How many files are parsed at once (one parser per worker).
    public let jobs: Int
    /// Skip parsing files that contain none of the rules' trigger words. It never changes results:
    /// such files cannot hold a finding (tests compare full reports with and without it).
    public let prefilter: Bool
    /// Where per-file results are kept between runs, when caching.
    public let cache: ResultCache?
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

    public func scan(_ paths: [String], progress: ((Int, Int) -> Void)? = nil) throws -> ScanResult {
        try scanFiles(paths, keepSources: false, progress: progress).result
    }

    /// A scanned file with what a fix needs: its path, its text and the engine's analysis.
    public struct ScannedFile {
        public let reference: SourceFileReference
        public let source: SourceText?
        public let analysis: FileAnalysis
    }

    /// Scans and keeps each file's analysis (and, with `keepSources`, its text) for a fix.
    ///
    /// A file is relevant when it contains a trigger word, or (for rules that follow names across
    /// files) a name that a relevant file's rotating text depends on; the second test repeats until no
    /// new file becomes relevant. Only relevant files report syntax errors, with or without the prefilter.
    public func scanFiles(_ paths: [String], keepSources: Bool, progress: ((Int, Int) -> Void)? = nil) throws -> (result: ScanResult, files: [ScannedFile]) {
        let discovered = try discovery.discover(paths)
        let files = discovered.files
        let triggers = engine.triggerWords.map { Array($0.utf8) }
        var outcomes = [Outcome?](repeating: nil, count: files.count)
        var relevant = [Bool](repeating: false, count: files.count)
        var done = 0
        let progressLock = NSLock()
        let tick: () -> Void = {
            guard let progress else { return }
            progressLock.lock()
            done += 1
            let count = done
            progressLock.unlock()
            progress(count, files.count)
        }

        let first = analyzeAll(files, indices: Array(files.indices), keepSources: keepSources, tick: tick) { bytes in
            ByteSearch.containsAny(bytes, triggers) ? .parse : (prefilter ? .skip : .parseIrrelevant)
        }
        for (index, outcome) in first {
            outcomes[index] = outcome
            if case .analyzed(_, _, true) = outcome { relevant[index] = true }
        }
        if engine.followsNamesAcrossFiles {
            var followed = Set<String>()
            while true {
                var timedStates = Set<String>()
                var facts: [RotationFacts] = []
                for index in files.indices where relevant[index] {
                    if case .analyzed(let analysis, _, _)? = outcomes[index], let rotation = analysis.rotation {
                        facts.append(rotation)
                        timedStates.formUnion(rotation.timedStates)
                    }
                }
                var names = Set<String>()
                for rotation in facts { names.formUnion(rotation.namesOfInterest(timedStates: timedStates)) }
                names.subtract(followed)
                if names.isEmpty { break }
                followed.formUnion(names)
                let words = names.sorted().map { Array($0.utf8) }
                let candidates = files.indices.filter { !relevant[$0] && outcomes[$0]?.isAnalyzed == true }
                let more = analyzeAll(files, indices: candidates, keepSources: keepSources, tick: nil) { bytes in
                    ByteSearch.containsAnyWord(bytes, words) ? .parse : .keep
                }
                var grew = false
                for (index, outcome) in more where outcome.isRelevant {
                    outcomes[index] = outcome
                    relevant[index] = true
                    grew = true
                }
                if !grew { break }
            }
        }

        var problems = discovered.problems
        var analyses: [FileAnalysis] = []
        var scannedFiles: [ScannedFile] = []
        var filesWithParseErrors = 0
        for (index, reference) in files.enumerated() {
            switch outcomes[index] {
            case .analyzed(let analysis, let source, let isRelevant)?:
                analyses.append(analysis)
                scannedFiles.append(ScannedFile(reference: reference, source: source, analysis: analysis))
                if isRelevant, let first = analysis.syntaxErrors.first {
                    filesWithParseErrors += 1
                    let more = analysis.syntaxErrors.count > 1 ? " (and \(analysis.syntaxErrors.count - 1) more)" : ""
                    problems.append(FileProblem(file: analysis.file, kind: .syntaxError, line: first.line, column: first.column,
                                                detail: "syntax error\(more); scanned outside the broken region"))
                }
            case .skipped(let problem)?:
                problems.append(problem)
            case nil:
                break
            }
        }
        problems.sort { ($0.file.utf8.lexicographicallyPrecedes($1.file.utf8)) || ($0.file == $1.file && ($0.line ?? 0) < ($1.line ?? 0)) }
        let result = ScanResult(
            findings: engine.resolve(analyses),
            problems: problems,
            filesScanned: analyses.count,
            filesWithParseErrors: filesWithParseErrors,
            ruleIds: engine.ruleSet.rules.map(\.id) + (engine.ruleSet.unusedSuppressionSeverity == nil ? [] : [UnusedSuppressionRule.id]),
            absolutePaths: Dictionary(files.map { ($0.displayPath, $0.absolutePath) }, uniquingKeysWith: { first, _ in first })
        )
        return (result, scannedFiles)
    }

    enum Outcome {
        /// The file's analysis; its text when asked for; whether it is relevant.
        case analyzed(FileAnalysis, SourceText?, Bool)
        case skipped(FileProblem)

        var isAnalyzed: Bool { if case .analyzed = self { return true } else { return false } }
        var isRelevant: Bool { if case .analyzed(_, _, true) = self { return true } else { return false } }
    }

    /// What to do with a file, decided from its bytes.
    enum Decision {
        /// Parse and analyze it: it is relevant.
        case parse
        /// Parse it although it is not relevant (the prefilter is off).
        case parseIrrelevant
        /// Do not parse it: an empty analysis stands for it.
        case skip
        /// Leave its earlier outcome as it is.
        case keep
    }

    /// Reads and analyzes the files at `indices` on `jobs` workers, each with its own parser, handing
    /// files out one at a time. Results are keyed by index, so the output does not depend on the workers.
    func analyzeAll(
        _ files: [SourceFileReference], indices: [Int], keepSources: Bool, tick: (() -> Void)?, decide: @escaping ([UInt8]) -> Decision
    ) -> [(Int, Outcome)] {
        let results = UnsafeMutableBufferPointer<Outcome?>.allocate(capacity: indices.count)
        results.initialize(repeating: nil)
        defer {
            // The outcomes hold arrays: release them before the memory goes (found by AddressSanitizer).
            results.deinitialize()
            results.deallocate()
        }
        let lock = NSLock()
        var next = 0
        let workers = min(jobs, max(1, indices.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            var parser: Parser?
            while true {
                lock.lock()
                let slot = next
                next += 1
                lock.unlock()
                guard slot < indices.count else { return }
                results[slot] = analyze(files[indices[slot]], parser: &parser, keepSource: keepSources, decide: decide)
                tick?()
            }
        }
        return indices.enumerated().compactMap { slot, index in results[slot].map { (index, $0) } }
    }

    func analyze(_ file: SourceFileReference, parser: inout Parser?, keepSource: Bool, decide: ([UInt8]) -> Decision) -> Outcome? {
        let source: SourceText
        switch SourceReader.read(file.absolutePath, maximumSize: Self.maximumFileSize) {
        case .failure(let failure):
            return .skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail))
        case .success(let text):
            source = text
        }
        let decision = decide(source.bytes)
        switch decision {
        case .keep:
            return nil
        case .skip:
            return .analyzed(engine.emptyAnalysis(file: file.displayPath), keepSource ? source : nil, false)
        case .parse, .parseIrrelevant:
            let relevant = decision == .parse
            if let cached = cache?.load(file, bytes: source.bytes) {
                return .analyzed(cached, keepSource ? source : nil, relevant)
            }
            do {
                if parser == nil { parser = try Parser() }
                let tree = try parser!.parse(source)
                let analysis = engine.analyze(tree: tree, file: file.displayPath)
                cache?.store(analysis, for: file, bytes: source.bytes)
                return .analyzed(analysis, keepSource ? source : nil, relevant)
            } catch {
                return .skipped(FileProblem(file: file.displayPath, kind: .syntaxError, detail: "could not be parsed: \(error)"))
            }
        }
    }
}

/// Byte searches that decide, before parsing, whether a file can matter.
public enum ByteSearch {
    public static func containsAny(_ bytes: [UInt8], _ needles: [[UInt8]]) -> Bool {
        needles.contains { firstIndex(of: $0, in: bytes, from: 0) != nil }
    }

    /// Like `containsAny`, but a needle must stand as a whole identifier (`tips`, not `tooltips`).
    public static func containsAnyWord(_ bytes: [UInt8], _ needles: [[UInt8]]) -> Bool {
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
        }
        for needle in needles {
            var from = 0
            while let found = firstIndex(of: needle, in: bytes, from: from) {
                let before = found == 0 || !isIdentifier(bytes[found - 1])
                let afterIndex = found + needle.count
                let after = afterIndex >= bytes.count || !isIdentifier(bytes[afterIndex])
                if before && after { return true }
                from = found + 1
            }
        }
        return false
    }

    /// memchr for the first byte, then memcmp: glibc's memmem is not visible to Swift without _GNU_SOURCE.
    static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let head = needle.first, start + needle.count <= bytes.count else { return nil }
        return bytes.withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { pattern -> Int? in
                guard let base = haystack.baseAddress else { return nil }
                var position = start
                let last = haystack.count - needle.count
                while position <= last {
                    guard let hit = memchr(base + position, Int32(head), last - position + 1) else { return nil }
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + offset, pattern.baseAddress!, pattern.count) == 0 { return offset }
                    position = offset + 1
                }
                return nil
            }
        }
    }
}

/// Reads a file as UTF-8 source, refusing what is not Swift text.
public enum SourceReader {
    public struct Failure: Error {
        public let kind: FileProblem.Kind
        public let detail: String
    }

    public static func read(_ path: String, maximumSize: Int) -> Result<SourceText, Failure> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (permission denied?)"))
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            return .failure(Failure(kind: .unreadable, detail: "cannot read the file (\(error.localizedDescription))"))
        }
        if data.count > maximumSize {
            return .failure(Failure(kind: .tooLarge, detail: "\(data.count / (1 << 20)) MB is over the \(maximumSize >> 20) MB limit: skipped"))
        }
        let bytes = [UInt8](data)
        if bytes.prefix(8192).contains(0) {
            return .failure(Failure(kind: .binary, detail: "binary content (NUL bytes), not Swift source: skipped"))
        }
        if let offset = firstInvalidUTF8Offset(bytes) {
            return .failure(Failure(kind: .notUTF8, detail: "not valid UTF-8 (first bad byte at offset \(offset)): skipped"))
        }
        return .success(SourceText(bytes: bytes))
    }

    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}
