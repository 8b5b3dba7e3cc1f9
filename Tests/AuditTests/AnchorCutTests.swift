import Audit
import AuditModel
import AuditRules
import AuditScan
import AuditSelect
import AuditReport
import Foundation
import LoadAuditTestSupport
import TreeSitter
import XCTest

/// The anchor cut (docs/speed.md): a possible rotating-text anchor is parsed first in part, and left
/// for later when the part cannot make it an anchor. It must never say no where the whole file's parse
/// says anchor (`RotationFacts.isAnchor`): checked here on every fixture, every input the fuzzer once
/// failed on, mutants of the fixtures and of generated anchors, and the files of every coherent
/// combination of the rotation generator (`RotationAxes`); and a scan with the cut reports what a scan
/// without it reports.
final class AnchorCutTests: XCTestCase {
    let engine = RuleEngine(ruleSet: .builtIn())
    lazy var selector = FileSelector(engine.selectionNeeds)

    /// What the check found: files cut, of them those the cut left for later, and each file where the
    /// cut said no and the whole parse says anchor.
    struct Outcome {
        var cut = 0, leftForLater = 0, anchors = 0
        var unsound: [String] = []
    }

    func check(_ sources: [(name: String, bytes: [UInt8])]) throws -> Outcome {
        var outcome = Outcome()
        let parser = try Parser()
        for (name, bytes) in sources {
            guard FileSelector.textProblems(bytes).firstInvalidUTF8 == nil, FileSelector.textProblems(bytes).firstNUL == nil,
                  !MutationTests.parserHangs(bytes, seconds: 2) else { continue }
            // Every cut, however large: the scan takes only those under `AnchorCut.largestShare`.
            let (decision, cut) = selector.decideCutting(bytes, path: (name as NSString).lastPathComponent, largestShare: 1)
            XCTAssertEqual(decision, selector.decide(bytes, path: (name as NSString).lastPathComponent), name)
            guard let cut else { continue }
            outcome.cut += 1
            let source = SourceText(bytes: bytes)
            let may = engine.mayAnchor(tree: try parser.parse(source, includedRanges: cut))
            let isAnchor = engine.analyze(tree: try parser.parse(source), file: name).rotation?.isAnchor ?? false
            if isAnchor { outcome.anchors += 1 }
            if !may { outcome.leftForLater += 1 }
            if isAnchor && !may { outcome.unsound.append(name) }
        }
        return outcome
    }

    func testTheCutNeverDeniesAnAnchorOfTheFixturesOrTheirMutants() throws {
        var sources: [(name: String, bytes: [UInt8])] = []
        let root = RepositoryFolder.root
        for folder in ["fixtures", "fuzz/regressions"] {
            for path in try FileManager.default.subpathsOfDirectory(atPath: root.appendingPathComponent(folder).path) where path.hasSuffix(".swift") {
                sources.append(("\(folder)/\(path)", [UInt8](try Data(contentsOf: root.appendingPathComponent("\(folder)/\(path)")))))
            }
        }
        // Mutants of the fixtures' possible anchors (the mutation suite's kinds, the cheap ones).
        var random = SeededRandom(seed: 42)
        let kinds: [MutationTests.Kind] = [.byteFlips, .truncation, .deletedBrackets, .lineEndingSwap]
        for (name, bytes) in sources where selector.decideCutting(bytes, path: "View.swift", largestShare: 1).anchorCut != nil {
            for round in 0..<12 { sources.append(("\(name) mutant \(round)", MutationTests.mutate(bytes, kinds[round % kinds.count], &random))) }
        }
        let outcome = try check(sources)
        XCTAssertEqual(outcome.unsound, [])
        // (2026-11-29: 77 cut, 14 left for later, 59 anchors.)
        XCTAssertGreaterThan(outcome.cut, 50)
        XCTAssertGreaterThan(outcome.leftForLater, 10)
        XCTAssertGreaterThan(outcome.anchors, 40)
    }

    /// Every file of every coherent combination of the rotation generator, and mutants of its anchors.
    func testTheCutNeverDeniesAnAnchorOfTheGeneratedProjects() throws {
        var texts = Set<String>()
        for choice in RotationAxes.combinations() { texts.formUnion(RotationAxes.project(choice).files.values) }
        var sources = texts.sorted().enumerated().map { ("generated \($0.offset)", Array($0.element.utf8)) }
        var random = SeededRandom(seed: 7)
        let kinds: [MutationTests.Kind] = [.byteFlips, .truncation, .deletedBrackets]
        for (index, source) in sources.enumerated() where index % 10 == 0 && selector.decideCutting(source.1, path: "View.swift", largestShare: 1).anchorCut != nil {
            for round in 0..<3 { sources.append(("\(source.0) mutant \(round)", MutationTests.mutate(source.1, kinds[round], &random))) }
        }
        let outcome = try check(sources)
        XCTAssertEqual(outcome.unsound, [])
        // (2026-11-29: 2,101 cut, 85 left for later, 2,006 anchors.)
        XCTAssertGreaterThan(outcome.cut, 1_500)
        XCTAssertGreaterThan(outcome.leftForLater, 50)
        XCTAssertGreaterThan(outcome.anchors, 1_500)
    }

    /// The cut keeps the members that hold a clock and the methods they name, with the type's head
    /// and closing brace; a `}()` or an `#if` region is never cut apart.
    func testTheCutKeepsTheClockAndTheMethodsItCalls() throws {
        let text = """
            import SwiftUI

            private let formatter: DateFormatter = {
                DateFormatter()
            }()

            struct SyncBanner: View {
                @State private var shown = false
                @State private var step = 0

                var body: some View {
                    Text("Syncing").onAppear { refresh() }
                }

                func refresh() {
                    DispatchQueue.main.asyncAfter(deadline: .now() + 1) { advance() }
                }

                func unrelated() -> Int {
                    step * 2
                }
            }

            extension SyncBanner {
                func advance() { step += 1 }

                func other() { }
            }

            #if DEBUG
            struct Preview {
                let value = 1
            }
            #endif

            """
        let bytes = Array(text.utf8)
        let (decision, cut) = selector.decideCutting(bytes, path: "SyncBanner.swift")
        XCTAssertEqual(decision, .parse)
        let kept = try XCTUnwrap(cut).map { String(decoding: bytes[$0], as: UTF8.self) }.joined(separator: "|")
        XCTAssertTrue(kept.contains("struct SyncBanner: View {"), kept)
        XCTAssertTrue(kept.contains("func refresh()"), kept)
        XCTAssertTrue(kept.contains("func advance()"), kept)
        XCTAssertFalse(kept.contains("func unrelated()"), kept)
        XCTAssertFalse(kept.contains("func other()"), kept)
        XCTAssertFalse(kept.contains("formatter"), kept)
        XCTAssertFalse(kept.contains("Preview"), kept)
        // The part parses without an error, and its clock's change makes it an anchor.
        let parser = try Parser()
        let tree = try parser.parse(SourceText(bytes: bytes), includedRanges: cut)
        XCTAssertFalse(tree.rootNode.hasError)
        XCTAssertTrue(engine.mayAnchor(tree: tree))
    }

    func report(_ path: String, cuts: Bool, prefilter: Bool = true) throws -> String {
        var scanner = ProjectScanner(engine: engine, discovery: SourceDiscovery(currentDirectory: path), jobs: 2, prefilter: prefilter)
        scanner.cutsPossibleAnchors = cuts
        return JSONReport.render(try scanner.scan([path]), toolVersion: "test")
    }

    /// A scan with the cut reports byte for byte what a scan without it reports, with the prefilter and
    /// without, on the fixtures' apps and on generated rotation projects.
    func testScansWithTheCutReportWhatScansWithoutItReport() throws {
        var paths = ["fixtures/ExampleApp", "fixtures/RotatingMessages"].map { RepositoryFolder.root.appendingPathComponent($0).path }
        var trees: [URL] = []
        defer { for tree in trees { try? FileManager.default.removeItem(at: tree) } }
        let combinations = RotationAxes.combinations()
        for index in stride(from: 0, to: combinations.count, by: max(1, combinations.count / 12)) {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("anchor-cut-\(UUID().uuidString)")
            for (path, text) in RotationAxes.project(combinations[index]).files {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
            trees.append(root)
            paths.append(root.path)
        }
        for path in paths {
            let plain = try report(path, cuts: false)
            XCTAssertEqual(try report(path, cuts: true), plain, path)
            XCTAssertEqual(try report(path, cuts: true, prefilter: false), plain, path)
        }
    }
}
