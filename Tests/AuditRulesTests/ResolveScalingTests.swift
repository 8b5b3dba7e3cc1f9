import AuditModel
import LoadAuditTestSupport
@testable import AuditRules
import TreeSitter
import XCTest

/// `StayingFindings` (RuleEngine+Staying.swift) answers, per safe fix, the first finding its pass
/// leaves inside the code the fix rewrites, from a table sorted once per file: asking every finding
/// of the file for each fix was quadratic (a generated file of 12,000 spinners took 40 s of CPU to
/// resolve; the figures are in docs/speed.md). Here it is compared with that plain way, which it
/// replaced, on generated files of nested, touching, equal and overlapping spans of every fix class.
final class ResolveScalingTests: XCTestCase {
    /// The plain way: the first finding in the file's order that the pass leaves, other than one with
    /// `outer`'s own span, lying inside `outer`'s span.
    private func plainFirst(inside outer: Finding, among findings: [Finding]) -> Finding? {
        guard !outer.edits.isEmpty else { return nil }
        return findings.first { inner in
            guard inner.fix != .safe || inner.edits.isEmpty else { return false }
            guard inner.start.byteOffset != outer.start.byteOffset || inner.end.byteOffset != outer.end.byteOffset else { return false }
            return outer.start.byteOffset <= inner.start.byteOffset && inner.end.byteOffset <= outer.end.byteOffset
        }
    }

    func testTheSortedTableAnswersAsEveryFindingAskedInTurn() {
        var random = SeededRandom(seed: 43)
        var compared = 0, found = 0
        for _ in 0..<400 {
            let findings: [Finding] = (0..<(1 + random.below(40))).map { number in
                let start = random.below(60)
                let end = start + random.below(25)
                let fix = random.pick([FixClass.safe, .unsafe, .manual])
                let replacement: String? = random.chance(15) ? nil : "LoadingSpinner()"
                return Finding(ruleId: "rule-\(number % 3)", severity: .warning, file: "A.swift",
                               start: SourcePoint(line: 1, column: start + 1, byteOffset: start),
                               end: SourcePoint(line: 1, column: end + 1, byteOffset: end),
                               symbol: "ProgressView", message: "m\(number)", replacement: replacement, fix: fix)
            }
            let table = RuleEngine.StayingFindings(findings)
            for outer in findings {
                let plain = plainFirst(inside: outer, among: findings)
                XCTAssertEqual(table.first(inside: outer), plain, "\(outer.start.byteOffset)..<\(outer.end.byteOffset) among \(findings.map { ($0.start.byteOffset, $0.end.byteOffset, $0.fix) })")
                compared += 1
                if plain != nil { found += 1 }
            }
        }
        // The generated spans must nest often enough for the comparison to mean something.
        XCTAssertGreaterThan(found, compared / 10)
    }

    /// A generated file of thousands of spinners (one per line) resolves to one safe finding each.
    func testAGeneratedFileOfManySpinnersResolvesToOneSafeFindingEach() throws {
        let count = 2_000
        let source = "import SwiftUI\n\n" + (0..<count).map { "let value\($0) = ProgressView() // generated\n" }.joined()
        let engine = RuleEngine(ruleSet: RuleHarness.builtIn)
        let findings = engine.resolve([engine.analyze(tree: try Parser().parse(source), file: "Generated.swift")])
        XCTAssertEqual(findings.count, count)
        XCTAssertEqual(Set(findings.map(\.ruleId)), ["raw-progress-view"])
        XCTAssertEqual(Set(findings.map(\.fix)), [.safe])
    }
}
