import Audit
import AuditFix
import AuditModel
import AuditRules
import AuditScan
import Foundation
import SwiftGrammar
import TreeSitter
import LoadAuditTestSupport
import XCTest

/// Random SwiftUI files built from snippets of every rule (and of every trap), fixed for real:
/// the rewrite parses with no new error, a second fix changes nothing, and with safe fixes only no
/// byte outside the planned edits changes. Seeded, so a failure names the seed that reproduces it.
final class FixPropertyTests: XCTestCase {
    static let usages = [
        "ProgressView()", "ProgressView(\"Loading games...\")", "ProgressView { Text(\"Loading\") }",
        "ProgressView(label: { Text(\"Syncing data\") })", "ProgressView(title)", "ProgressView(\"Loading \\(n)\")",
        "SwiftUI.ProgressView()", "ProgressView(L10n.loading)", "ThemedSpinner(size: 20, lineWidth: 2)", "ThemedSpinner(size: 40)",
        "ThemedSpinner(size: spinnerSize)", "ThemedSpinnerCompact()", "ThemedSpinnerCompact(color: .red)", "LoadingDots()",
        "PlaceholderCard()", "PlaceholderCard(height: 80)", "PlanningProgressView()", "LoadingOverlay(message: \"Exporting PDF\")",
        "LoadingOverlay()", "LoadingOverlay(message: status)", "LoadingTripsView()", "Text(LoadingTextGenerator.next())",
        "ProgressView(value: 0.5)", "ProgressView(task.progress)", "ProgressView().progressViewStyle(.linear)",
        "ProgressView { ThemedSpinnerCompact() }", "LoadingOverlay(message: \"Syncing data\") { PlaceholderCard() }",
    ]
    static let modifiers = [
        ".scaleEffect(0.6)", ".controlSize(.small)", ".controlSize(.large)", ".tint(.white)", ".progressViewStyle(.circular)",
        ".padding()", ".frame(width: 20, height: 20)", ".if(isCompact) { $0.opacity(0.5) }", ".scaleEffect(y: 2)",
        "// a note", "/* inline */ .tint(.red)",
    ]
    static let fillers = [
        "Text(\"Café Münchën 🏟️\")", "Text(\"ProgressView()\")", "// ThemedSpinner(size: 24)", "Button(\"Retry\") { retry() }",
        "let model = ProgressViewModel()", "Spacer()", "LoadingSpinner(size: .small)", "PulsingDot()",
        "/* LoadingOverlay(message: \"x\") */", "Image(systemName: \"clock\")",
    ]

    struct Generator {
        var random: SeededRandom
        let indentUnit: String
        let newline: String

        init(seed: UInt64) {
            random = SeededRandom(seed: seed)
            indentUnit = random.chance(30) ? "\t" : "    "
            newline = random.chance(25) ? "\r\n" : "\n"
        }

        mutating func statement(depth: Int) -> [String] {
            let indent = String(repeating: indentUnit, count: depth)
            if depth < 5, random.chance(25) {
                let container = random.pick(["VStack", "HStack(spacing: 8)", "Group", "ZStack", "List"])
                var lines = ["\(indent)\(container) {"]
                for _ in 0..<(1 + random.below(3)) { lines += statement(depth: depth + 1) }
                lines.append("\(indent)}")
                if random.chance(30) { lines.append("\(indent)\(random.pick([".padding()", ".progressViewStyle(.linear)", ".overlay { ProgressView() }"]))") }
                return lines
            }
            if random.chance(30) { return ["\(indent)\(random.pick(fillers))"] }
            var lines = ["\(indent)\(random.pick(usages))"]
            for _ in 0..<random.below(4) {
                let modifier = random.pick(modifiers)
                if random.chance(50) { lines[lines.count - 1] += modifier.hasPrefix("//") ? "" : modifier } else { lines.append("\(indent)\(indentUnit)\(modifier)") }
            }
            return lines
        }

        mutating func file() -> String {
            var lines = ["import SwiftUI", "", "struct GeneratedView: View {", "\(indentUnit)var body: some View {"]
            for _ in 0..<(1 + random.below(4)) { lines += statement(depth: 2) }
            lines += ["\(indentUnit)}", "}"]
            if random.chance(30) { lines += ["", "#Preview {", "\(indentUnit)\(random.pick(usages))", "}"] }
            let text = lines.joined(separator: newline)
            return random.chance(20) ? text : text + newline
        }
    }

    func fixer(_ classes: Set<FixClass>) -> FixPlanner {
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(honourGitignore: false), jobs: 1)
        return FixPlanner(scanner: scanner, options: FixPlanner.Options(classes: classes))
    }

    /// Files are rewritten on every core: the run must not depend on how many.
    func testAFixRunIsTheSameWithOneWorkerOrMany() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for seed in UInt64(1)...UInt64(40) {
            var generator = Generator(seed: seed)
            try Data(generator.file().utf8).write(to: folder.appendingPathComponent("View\(seed).swift"))
        }
        func run(jobs: Int) throws -> (files: [String], remaining: [Finding]) {
            let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(honourGitignore: false), jobs: jobs)
            let run = try FixPlanner(scanner: scanner, options: FixPlanner.Options(classes: [.safe, .unsafe])).plan([folder.path])
            let files = run.files.map { "\($0.file) \($0.outcome) \($0.editsByRule.sorted { $0.key < $1.key }) \(String(decoding: $0.fixed, as: UTF8.self))" }
            return (files, run.remaining)
        }
        let one = try run(jobs: 1)
        XCTAssertGreaterThan(one.files.count, 30)
        for jobs in [2, 5] {
            let many = try run(jobs: jobs)
            XCTAssertEqual(many.files, one.files, "\(jobs) workers")
            XCTAssertEqual(many.remaining, one.remaining, "\(jobs) workers")
        }
    }

    func errorCount(_ bytes: [UInt8]) throws -> Int {
        SwiftFileFacts(tree: try Parser().parse(SourceText(bytes: bytes))).syntaxErrors.count
    }

    func testFixPropertiesHoldOnRandomFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("property-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("GeneratedView.swift")
        var filesChanged = 0
        for seed in UInt64(1)...UInt64(150) {
            var generator = Generator(seed: seed)
            let original = Array(generator.file().utf8)
            for classes in [Set<FixClass>([.safe]), [.safe, .unsafe]] {
                try Data(original).write(to: file)
                let run = try fixer(classes).planAndWrite([folder.path])
                let fixed = [UInt8](try Data(contentsOf: file))
                let label = "seed \(seed), \(classes.count == 1 ? "safe" : "unsafe")"
                XCTAssertLessThanOrEqual(try errorCount(fixed), try errorCount(original), "\(label): new syntax error")
                if fixed != original { filesChanged += 1 }

                let again = try fixer(classes).plan([folder.path])
                XCTAssertTrue(again.files.allSatisfy { $0.fixed == $0.original }, "\(label): a second fix would change the file")

                if classes == [.safe], run.files.allSatisfy({ $0.outcome == .fixed }) {
                    // Safe findings never overlap, so one pass does it all: the result must be exactly
                    // the planned edits applied to the original, and nothing else.
                    let safe = run.scan.findings.filter { $0.fix == .safe }
                    XCTAssertEqual(EditPlan.select(safe).count, safe.count, "\(label): safe findings overlap")
                    XCTAssertEqual(fixed, EditPlan.apply(safe.flatMap(\.edits), to: original), "\(label): bytes outside the edits changed")
                    // And the edits themselves stay inside their finding: beyond its span they may only
                    // take blanks and line breaks (a removed modifier's own line).
                    for finding in safe {
                        let span = finding.start.byteOffset..<finding.end.byteOffset
                        for edit in finding.edits {
                            let outside = original[edit.range].indices.filter { !span.contains($0) }.map { original[$0] }
                            XCTAssertTrue(outside.allSatisfy { [9, 10, 13, 32].contains($0) },
                                          "\(label): an edit of \(finding.ruleId) reaches outside its span")
                        }
                        XCTAssertTrue(finding.edits.first.map { $0.range.lowerBound == span.lowerBound } ?? false,
                                      "\(label): the replacement does not start at the use")
                    }
                }
            }
        }
        XCTAssertGreaterThan(filesChanged, 200, "the generator should produce fixable files")
    }
}
