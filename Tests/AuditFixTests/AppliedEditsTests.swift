@testable import AuditFix
import AuditModel
import LoadAuditTestSupport
import XCTest

/// Offsets in a fixed text taken back to the text the fix found, through several passes.
final class AppliedEditsTests: XCTestCase {
    func testOffsetsGoBackThroughEveryPass() {
        // "aXXbYc" -> (XX -> Z) "aZbYc" -> (Y -> WWW) "aZbWWWc"
        let back = AppliedEdits([[TextEdit(range: 1..<3, text: "Z")], [TextEdit(range: 3..<4, text: "WWW")]])
        let fixed = Array("aZbWWWc")
        let original = Array("aXXbYc")
        let expected: [Character: Int] = ["a": 0, "Z": 1, "b": 3, "W": 4, "c": 5]
        for (offset, character) in fixed.enumerated() {
            XCTAssertEqual(back.originalOffset(of: offset), expected[character], "\(character) at \(offset)")
        }
        XCTAssertEqual(original[back.originalOffset(of: 6)], "c")
        // A removal: what follows it moves back by its length; no pass, no change.
        XCTAssertEqual(AppliedEdits([[TextEdit(range: 2..<7, text: ""), TextEdit(range: 0..<0, text: "++")]]).originalOffset(of: 4), 7)
        XCTAssertEqual(AppliedEdits([]).originalOffset(of: 9), 9)
    }
}

/// The diff made from the applied edits, on random texts and random passes of edits: replaying it
/// gives the rewritten text, and every line it keeps is the same line on both sides.
final class AppliedEditsDiffTests: XCTestCase {
    /// A text of short lines from a small alphabet, so that equal lines are common.
    static func text(_ random: inout SeededRandom) -> [UInt8] {
        let lines = (0..<random.below(30)).map { _ in random.pick(["a", "b", "c", "let x = 1", "", "}"]) }
        return Array((lines.joined(separator: "\n") + (random.chance(80) ? "\n" : "")).utf8)
    }

    /// Non-overlapping edits of `bytes` (removals, insertions, replacements, some with line breaks).
    static func edits(_ bytes: [UInt8], _ random: inout SeededRandom) -> [TextEdit] {
        var edits: [TextEdit] = []
        var cursor = 0
        while cursor <= bytes.count, random.chance(70) {
            let start = cursor + random.below(max(1, min(12, bytes.count - cursor + 1)))
            guard start <= bytes.count else { break }
            let end = start + random.below(max(1, min(6, bytes.count - start + 1)))
            edits.append(TextEdit(range: start..<end, text: random.pick(["", "z", "q\n", "\nw", "b", "a\n"])))
            cursor = end + 1
        }
        return edits
    }

    func testTheDiffOfAppliedEditsReplaysToTheRewrite() {
        var random = SeededRandom(seed: 35)
        for round in 0..<2_000 {
            let old = Self.text(&random)
            var current = old
            var passes: [[TextEdit]] = []
            for _ in 0..<(1 + random.below(3)) {
                let edits = Self.edits(current, &random)
                passes.append(edits)
                current = EditPlan.apply(edits, to: current)
            }
            let applied = AppliedEdits(passes)
            let a = UnifiedDiff.splitLines(old).map(\.text), b = UnifiedDiff.splitLines(current).map(\.text)
            let shared = applied.sharedLines(old: old, new: current)
            for (index, pair) in shared.enumerated() {
                XCTAssertEqual(a[pair.old], b[pair.new], "round \(round)")
                if index > 0 { XCTAssertTrue(pair.old > shared[index - 1].old && pair.new > shared[index - 1].new, "round \(round)") }
            }
            var rebuilt: [[UInt8]] = []
            var deleted = 0
            for operation in UnifiedDiff.script(sharing: shared, a, b) {
                switch operation {
                case .keep(let x, let y):
                    XCTAssertEqual(a[x], b[y], "round \(round)")
                    rebuilt.append(a[x])
                case .insert(let y): rebuilt.append(b[y])
                case .delete: deleted += 1
                }
            }
            XCTAssertEqual(rebuilt, b, "round \(round)")
            // Where an offset was: the bytes outside every edit are the same bytes there.
            for offset in 0..<current.count where applied.untouchedOrigin(of: offset..<(offset + 1)) != nil {
                XCTAssertEqual(current[offset], old[applied.originalOffset(of: offset)], "round \(round), offset \(offset)")
            }
        }
    }

    /// Lines the edits left alone are kept even where they are equal to lines the edits wrote: the
    /// diff of a rewrite shows what the rewrite changed.
    func testTheKeptLinesAreThoseTheEditsLeftAlone() {
        let old = Array("a\nb\nc\nd\n".utf8)
        let passes = [[TextEdit(range: 2..<3, text: "B"), TextEdit(range: 6..<8, text: "")]]
        let new = EditPlan.apply(passes[0], to: old)
        XCTAssertEqual(String(decoding: new, as: UTF8.self), "a\nB\nc\n")
        XCTAssertEqual(AppliedEdits(passes).sharedLines(old: old, new: new).map { [$0.old, $0.new] }, [[0, 0], [2, 2]])
        XCTAssertEqual(UnifiedDiff.make(path: "A", old: old, new: new, applied: AppliedEdits(passes)),
                       UnifiedDiff.make(path: "A", old: old, new: new))
    }
}

/// The choice of the findings whose edits go together in a pass, against the plain look at every
/// range taken before (what it replaced, quadratic in the findings of a file).
final class EditPlanSelectTests: XCTestCase {
    static func plainSelect(_ findings: [Finding]) -> [Finding] {
        let ordered = findings.filter { !$0.edits.isEmpty }.sorted { lhs, rhs in
            if lhs.start.byteOffset != rhs.start.byteOffset { return lhs.start.byteOffset < rhs.start.byteOffset }
            if lhs.end.byteOffset != rhs.end.byteOffset { return lhs.end.byteOffset > rhs.end.byteOffset }
            return lhs.ruleId < rhs.ruleId
        }
        var taken: [Range<Int>] = []
        var takenEdits: [TextEdit] = []
        var selected: [Finding] = []
        for finding in ordered {
            // An edit the very same as one taken is shared, not an overlap.
            let own = finding.edits.filter { !takenEdits.contains($0) }
            let ranges = own.map(\.range) + [finding.start.byteOffset..<finding.end.byteOffset]
            if ranges.contains(where: { range in taken.contains { EditPlan.overlaps($0, range) } }) { continue }
            taken.append(contentsOf: ranges)
            takenEdits.append(contentsOf: own)
            selected.append(finding)
        }
        return selected
    }

    func testTheSameFindingsAreSelectedAsByALookAtEveryRange() {
        var random = SeededRandom(seed: 3_510)
        func point(_ offset: Int) -> SourcePoint { SourcePoint(line: 1, column: offset + 1, byteOffset: offset) }
        for round in 0..<1_000 {
            let findings = (0..<random.below(40)).map { index -> Finding in
                let start = random.below(200), end = start + random.below(random.chance(20) ? 80 : 8)
                // Edits inside the span, and now and then one just outside it (a line taken with a removal).
                let edits = (0..<(1 + random.below(3))).map { _ -> TextEdit in
                    let from = max(0, start - (random.chance(10) ? 3 : 0)) + random.below(max(1, end - start + 1))
                    let to = min(from + random.below(4), end + (random.chance(10) ? 2 : 0))
                    return TextEdit(range: from..<max(from, to), text: "x")
                }
                var unique: [TextEdit] = []
                for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
                    where !unique.contains(where: { EditPlan.overlaps($0.range, edit.range) }) { unique.append(edit) }
                return Finding(ruleId: "r\(index % 3)", severity: .warning, file: "A.swift", start: point(start), end: point(end),
                               symbol: "S", message: "m", replacement: "x", fix: .safe, edits: unique)
            }
            let described = { (findings: [Finding]) in findings.map { "\($0.ruleId)@\($0.start.byteOffset)..<\($0.end.byteOffset) \($0.edits.map(\.range))" } }
            XCTAssertEqual(described(EditPlan.select(findings)), described(Self.plainSelect(findings)), "round \(round)")
        }
    }
}
