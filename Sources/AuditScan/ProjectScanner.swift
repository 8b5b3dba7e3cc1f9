import AuditModel
import AuditRules
import Dispatch
import Foundation
import TreeSitter

/// Runs the rules over source trees: discover files, read and parse each, match, settle across files.
public struct ProjectScanner {
    public let engine: RuleEngine
    public let discovery: SourceDiscovery
    /// How many files are parsed at once (one parser per worker).
    public let jobs: Int
    /// Larger files are reported and skipped: tree-sitter's offsets are 32-bit, and such files are generated.
    public static let maximumFileSize = 64 << 20

    public init(engine: RuleEngine, discovery: SourceDiscovery = SourceDiscovery(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.engine = engine
        self.discovery = discovery
        self.jobs = max(1, jobs)
    }

    public func scan(_ paths: [String]) throws -> ScanResult {
        try scanFiles(paths, keepSources: false).result
    }

    /// A scanned file with what a fix needs: its path, its text and the engine's analysis.
    public struct ScannedFile {
        public let reference: SourceFileReference
        public let source: SourceText?
        public let analysis: FileAnalysis
    }

    /// Scans and keeps each file's analysis (and, with `keepSources`, its text) for a fix.
    public func scanFiles(_ paths: [String], keepSources: Bool) throws -> (result: ScanResult, files: [ScannedFile]) {
        let discovered = try discovery.discover(paths)
        let outcomes = analyzeAll(discovered.files, keepSources: keepSources)
        var problems = discovered.problems
        var analyses: [FileAnalysis] = []
        var scannedFiles: [ScannedFile] = []
        var filesWithParseErrors = 0
        for (reference, outcome) in zip(discovered.files, outcomes) {
            switch outcome {
            case .analyzed(let analysis, let source):
                analyses.append(analysis)
                scannedFiles.append(ScannedFile(reference: reference, source: source, analysis: analysis))
                if let first = analysis.syntaxErrors.first {
                    filesWithParseErrors += 1
                    let more = analysis.syntaxErrors.count > 1 ? " (and \(analysis.syntaxErrors.count - 1) more)" : ""
                    problems.append(FileProblem(file: analysis.file, kind: .syntaxError, line: first.line, column: first.column,
                                                detail: "syntax error\(more); scanned outside the broken region"))
                }
            case .skipped(let problem):
                problems.append(problem)
            }
        }
        problems.sort { ($0.file.utf8.lexicographicallyPrecedes($1.file.utf8)) || ($0.file == $1.file && ($0.line ?? 0) < ($1.line ?? 0)) }
        let result = ScanResult(
            findings: engine.resolve(analyses),
            problems: problems,
            filesScanned: analyses.count,
            filesWithParseErrors: filesWithParseErrors,
            ruleIds: engine.ruleSet.rules.map(\.id) + (engine.ruleSet.unusedSuppressionSeverity == nil ? [] : [UnusedSuppressionRule.id]),
            absolutePaths: Dictionary(discovered.files.map { ($0.displayPath, $0.absolutePath) }, uniquingKeysWith: { first, _ in first })
        )
        return (result, scannedFiles)
    }

    enum Outcome {
        case analyzed(FileAnalysis, SourceText?)
        case skipped(FileProblem)
    }

    /// Parses files on `jobs` workers, each with its own parser, handing files out one at a time.
    /// Results land at their file's index, so the output does not depend on the number of workers.
    func analyzeAll(_ files: [SourceFileReference], keepSources: Bool) -> [Outcome] {
        let results = UnsafeMutableBufferPointer<Outcome?>.allocate(capacity: files.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let lock = NSLock()
        var next = 0
        let workers = min(jobs, max(1, files.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            guard let parser = try? Parser() else { return }
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < files.count else { return }
                results[index] = analyze(files[index], parser: parser, keepSource: keepSources)
            }
        }
        return files.indices.map { index in
            results[index] ?? .skipped(FileProblem(file: files[index].displayPath, kind: .unreadable, detail: "the Swift grammar could not be loaded"))
        }
    }

    func analyze(_ file: SourceFileReference, parser: Parser, keepSource: Bool) -> Outcome {
        switch SourceReader.read(file.absolutePath, maximumSize: Self.maximumFileSize) {
        case .failure(let failure):
            return .skipped(FileProblem(file: file.displayPath, kind: failure.kind, detail: failure.detail))
        case .success(let source):
            do {
                let tree = try parser.parse(source)
                return .analyzed(engine.analyze(tree: tree, file: file.displayPath), keepSource ? source : nil)
            } catch {
                return .skipped(FileProblem(file: file.displayPath, kind: .syntaxError, detail: "could not be parsed: \(error)"))
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
