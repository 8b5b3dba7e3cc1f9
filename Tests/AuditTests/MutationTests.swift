import Audit
import AuditModel
import AuditRules
import AuditSelect
import AuditScan
import Foundation
import SwiftGrammar
import TreeSitter
import LoadAuditTestSupport
import XCTest

/// Damaged Swift, made deterministically from the fixtures: flipped bytes, truncations, lost brackets,
/// a 200 KB line, thousands of nested parentheses or closures, bytes that are not UTF-8, a NUL, swapped
/// line endings. The scanner and the fixer must survive every mutant: findings stay inside the file, a
/// fix never adds a syntax error (or leaves the file byte for byte), and a second fix changes nothing.
/// Each failure names the mutant's index and kind; the seed below reproduces the whole run.
final class MutationTests: XCTestCase {
    static let seed: UInt64 = 0x10AD_A0D1_7000_0001
    /// About 300 mutants: every fixture file gets `perFile` of them, of kinds drawn from the generator.
    static let perFile = 10

    enum Kind: String, CaseIterable {
        case byteFlips, truncation, deletedBrackets, longLine, nestedParentheses, nestedClosures
        case invalidUTF8, nulByte, lineEndingSwap
    }

    struct Mutant {
        let index: Int
        let kind: Kind
        let source: String
        let bytes: [UInt8]
        var label: String { "mutant \(index) (\(kind.rawValue) of \(source))" }
    }

    // MARK: making mutants

    static func fixtureFiles() throws -> [(name: String, bytes: [UInt8])] {
        let root = RepositoryFolder.root
        var files: [(String, [UInt8])] = []
        for folder in ["fixtures/ExampleApp", "fixtures/FixCases"] {
            let base = root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let path = enumerator.nextObject() as? String {
                guard path.hasSuffix(".swift") else { continue }
                files.append(("\(folder)/\(path)", [UInt8](try Data(contentsOf: base.appendingPathComponent(path)))))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// Kinds that cost a second or more each in a debug build: every `heavyEvery`th mutant is one of
    /// them, in turn; the others are drawn from the cheap kinds.
    static let heavyKinds: [Kind] = [.longLine, .nestedParentheses, .nestedClosures]
    static let heavyEvery = 30

    static func mutants() throws -> [Mutant] {
        var random = SeededRandom(seed: seed)
        var result: [Mutant] = []
        let cheapKinds = Kind.allCases.filter { !heavyKinds.contains($0) }
        for file in try fixtureFiles() {
            for _ in 0..<perFile {
                let index = result.count
                let kind = index % heavyEvery == heavyEvery / 2
                    ? heavyKinds[(index / heavyEvery) % heavyKinds.count] : cheapKinds[random.below(cheapKinds.count)]
                let bytes = mutate(file.bytes, kind, &random)
                result.append(Mutant(index: result.count, kind: kind, source: file.name, bytes: bytes))
            }
        }
        return result
    }

    static func mutate(_ original: [UInt8], _ kind: Kind, _ random: inout SeededRandom) -> [UInt8] {
        var bytes = original
        let lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }.filter { $0 < bytes.count }
        func randomLineStart() -> Int { lineStarts[random.below(lineStarts.count)] }
        switch kind {
        case .byteFlips:
            for _ in 0..<(1 + random.below(8)) where !bytes.isEmpty {
                let offset = random.below(bytes.count)
                bytes[offset] ^= UInt8(truncatingIfNeeded: 1 + random.below(255))
            }
        case .truncation:
            bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
        case .deletedBrackets:
            let brackets: Set<UInt8> = [0x7B, 0x7D, 0x28, 0x29]
            for _ in 0..<(1 + random.below(4)) {
                let positions = bytes.indices.filter { brackets.contains(bytes[$0]) }
                guard !positions.isEmpty else { break }
                bytes.remove(at: positions[random.below(positions.count)])
            }
        case .longLine:
            // 200 KB on one line: a comment, a string literal, a chain of 20,000 modifiers, or a hundred
            // fixable uses spread over the line. (A chain that long on a *matched* call is a known
            // quadratic slowdown: see LongChainTests.)
            let line: [UInt8]
            switch random.below(4) {
            case 0: line = Array("// ".utf8) + [UInt8](repeating: 0x78, count: 200_000)
            case 1: line = Array("let long = \"".utf8) + [UInt8](repeating: 0x61, count: 200_000) + Array("\"".utf8)
            case 2: line = Array("let chain = Text(\"a\")".utf8) + Array(String(repeating: ".padding()", count: 20_000).utf8)
            default:
                line = Array("let many = [".utf8) + Array(String(repeating: "ProgressView(), ThemedSpinnerCompact(),", count: 50).utf8)
                    + [UInt8](repeating: 0x20, count: 200_000) + Array("]".utf8)
            }
            bytes.insert(contentsOf: line + [0x0A], at: randomLineStart())
        case .nestedParentheses:
            let depth = 3_000
            let expression = String(repeating: "(", count: depth) + "ProgressView()" + String(repeating: ")", count: depth)
            bytes.insert(contentsOf: Array("let deep = \(expression)\n".utf8), at: randomLineStart())
        case .nestedClosures:
            let depth = 3_000
            let expression = String(repeating: "{ ", count: depth) + "ThemedSpinnerCompact()" + String(repeating: " }", count: depth)
            bytes.insert(contentsOf: Array("let deep = \(expression)\n".utf8), at: randomLineStart())
        case .invalidUTF8:
            let junk: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80, 0x80]]
            for _ in 0..<(1 + random.below(3)) {
                bytes.insert(contentsOf: junk[random.below(junk.count)], at: random.below(bytes.count + 1))
            }
        case .nulByte:
            bytes.insert(0, at: random.below(bytes.count + 1))
        case .lineEndingSwap:
            if bytes.contains(0x0D) {
                bytes.removeAll { $0 == 0x0D }
            } else {
                var swapped: [UInt8] = []
                swapped.reserveCapacity(bytes.count + bytes.count / 20)
                // All line feeds, or only some of them (mixed endings are real too).
                let everyOther = random.below(2) == 0
                var count = 0
                for byte in bytes {
                    if byte == 0x0A {
                        count += 1
                        if !everyOther || count % 2 == 0 { swapped.append(0x0D) }
                    }
                    swapped.append(byte)
                }
                bytes = swapped
            }
        }
        return bytes
    }

    // MARK: checks

    /// Even mutants get `fix`, odd ones `fix --unsafe`.
    func fixer(_ mutant: Mutant) -> FixPlanner {
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(honourGitignore: false),
                                     jobs: 1, prefilter: false)
        let classes: Set<FixClass> = mutant.index % 2 == 0 ? [.safe] : [.safe, .unsafe]
        return FixPlanner(scanner: scanner, options: FixPlanner.Options(classes: classes))
    }

    /// Whether tree-sitter gives up on `bytes` within `seconds`. A guard, not a measurement: a normal
    /// mutant parses in milliseconds, but the pinned runtime and grammar loop forever (with growing
    /// memory) on some truncated files. loadaudit's Parser stops them after 10 s (see
    /// BadInputTests.testATruncatedFileTheParserCannotFinishIsSkippedNotHung); this pre-parse lists
    /// such a mutant in the log and leaves it out, so the suite does not wait for it (twice).
    static func parserHangs(_ bytes: [UInt8], seconds: Int = 10) -> Bool {
        do {
            _ = try Parser().parse(SourceText(bytes: bytes), timeLimit: seconds)
            return false
        } catch TreeSitterError.timedOut {
            return true
        } catch {
            return false
        }
    }

    func syntaxErrors(_ bytes: [UInt8]) throws -> Int {
        SwiftFileFacts(tree: try Parser().parse(SourceText(bytes: bytes))).syntaxErrors.count
    }

    /// Code points on a 1-based line (without its line break), counted as SourceText counts columns.
    func columns(onLine line: Int, of text: SourceText) -> Int {
        var slice = text.lineBytes(line)
        if line == 1, text.hasByteOrderMark { slice = slice.dropFirst(3) }
        return slice.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    func checkFindings(_ findings: [Finding], in bytes: [UInt8], _ label: String) {
        let text = SourceText(bytes: bytes)
        for finding in findings {
            let what = "\(label): \(finding.ruleId) at \(finding.start.line):\(finding.start.column)"
            XCTAssertTrue(0 <= finding.start.byteOffset && finding.start.byteOffset <= finding.end.byteOffset
                          && finding.end.byteOffset <= bytes.count, "\(what): byte range \(finding.start.byteOffset)..<\(finding.end.byteOffset) outside \(bytes.count) bytes")
            for point in [finding.start, finding.end] {
                XCTAssertTrue((1...text.lineCount).contains(point.line), "\(what): line \(point.line) outside 1...\(text.lineCount)")
                guard (1...text.lineCount).contains(point.line) else { continue }
                XCTAssertTrue(point.column >= 1 && point.column <= columns(onLine: point.line, of: text) + 1,
                              "\(what): column \(point.column) outside line \(point.line)")
                let expected = text.position(ofByte: point.byteOffset)
                XCTAssertEqual([expected.line, expected.column], [point.line, point.column], "\(what): line/column disagree with the byte offset")
            }
            for edit in finding.edits {
                XCTAssertTrue(edit.range.lowerBound >= 0 && edit.range.upperBound <= bytes.count, "\(what): edit \(edit.range) outside the file")
            }
        }
    }

    func testScannerAndFixerSurviveMutatedFixtures() throws {
        let mutants = try Self.mutants()
        XCTAssertGreaterThanOrEqual(mutants.count, 250)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mutation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Mutant.swift")
        var kinds: [Kind: Int] = [:]
        var changed = 0
        var skipped = 0
        var hangs: [String] = []
        let trace = ProcessInfo.processInfo.environment["LOADAUDIT_MUTATION_TRACE"] == "1"
        let engine = RuleEngine(ruleSet: .builtIn())
        for mutant in mutants {
            let started = Date()
            defer { if trace { FileHandle.standardError.write(Data("\(mutant.label): \(Int(Date().timeIntervalSince(started) * 1000)) ms\n".utf8)) } }
            kinds[mutant.kind, default: 0] += 1
            if Self.parserHangs(mutant.bytes) {
                hangs.append(mutant.label)
                continue
            }
            // A file the select step does not choose holds no clock that counts and nothing to report on its own.
            let problems = FileSelector.textProblems(mutant.bytes)
            if problems.firstInvalidUTF8 == nil, (problems.firstNUL ?? .max) >= 8192,
               FileSelector(engine.selectionNeeds).decide(mutant.bytes, path: "Mutant.swift") != .parse {
                let tree = try Parser().parse(SourceText(bytes: mutant.bytes))
                let analysis = engine.analyze(tree: tree, file: "Mutant.swift")
                XCTAssertFalse(analysis.rotation?.isAnchor ?? false, "\(mutant.label): a clock that counts in a file not chosen")
                XCTAssertTrue(analysis.candidates.isEmpty && analysis.suppressions.isEmpty, "\(mutant.label): a finding in a file not chosen")
            }
            try Data(mutant.bytes).write(to: file)
            let run = try fixer(mutant).planAndWrite([folder.path])
            let written = [UInt8](try Data(contentsOf: file))
            if run.scan.filesScanned == 0 {
                // Refused as not UTF-8 or binary: reported, never touched.
                skipped += 1
                XCTAssertFalse(run.scan.problems.isEmpty, "\(mutant.label): skipped without a reason")
                XCTAssertEqual(written, mutant.bytes, "\(mutant.label): a skipped file was written")
                continue
            }
            checkFindings(run.scan.findings, in: mutant.bytes, mutant.label)
            for result in run.files {
                XCTAssertEqual(result.original, mutant.bytes, "\(mutant.label): the fixer did not start from the file's bytes")
            }
            if written != mutant.bytes {
                changed += 1
                XCTAssertLessThanOrEqual(try syntaxErrors(written), try syntaxErrors(mutant.bytes), "\(mutant.label): the fix added a syntax error")
                checkFindings(run.remaining, in: written, "\(mutant.label), after the fix")
            }
            let again = try fixer(mutant).plan([folder.path])
            XCTAssertTrue(again.files.allSatisfy { $0.fixed == $0.original }, "\(mutant.label): a second fix would change the file")
            XCTAssertEqual([UInt8](try Data(contentsOf: file)), written, "\(mutant.label): a dry run wrote")
        }
        if !hangs.isEmpty {
            // Known bug (no parse timeout): listed so the count is visible in the log, not a failure.
            print("MutationTests: \(hangs.count) mutant(s) left out, tree-sitter does not finish parsing them: \(hangs.joined(separator: "; "))")
        }
        XCTAssertLessThan(hangs.count, 10, "most mutants must go through the scanner and the fixer")
        XCTAssertEqual(Set(kinds.keys), Set(Kind.allCases), "every kind of mutation is exercised")
        XCTAssertGreaterThan(changed, 30, "enough mutants still have something to fix")
        XCTAssertGreaterThan(skipped, 10, "enough mutants are refused as not UTF-8 or binary")
    }

    /// `LOADAUDIT_MUTATION_DUMP=folder` writes every mutant there as `NNN-kind.swift`, to reproduce one
    /// with the command line (`loadaudit fix folder/NNN-kind.swift`).
    func testDumpMutantsWhenAsked() throws {
        guard let dump = ProcessInfo.processInfo.environment["LOADAUDIT_MUTATION_DUMP"] else { throw XCTSkip("LOADAUDIT_MUTATION_DUMP is not set") }
        try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
        for mutant in try Self.mutants() {
            let name = String(format: "%03d", mutant.index) + "-\(mutant.kind.rawValue).swift"
            try Data(mutant.bytes).write(to: URL(fileURLWithPath: dump).appendingPathComponent(name))
        }
    }

    /// The generator is deterministic: the same seed gives the same mutants (so a failure reproduces).
    func testMutantsAreReproducible() throws {
        let first = try Self.mutants()
        let second = try Self.mutants()
        XCTAssertEqual(first.map(\.bytes), second.map(\.bytes))
        XCTAssertEqual(Set(first.map(\.kind)), Set(Kind.allCases))
    }
}
