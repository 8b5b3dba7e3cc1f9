@testable import AuditFix
import AuditModel
import XCTest

/// Every pair of edit kinds (insertion, replacement, deletion) at the same offset and at adjacent
/// offsets: which pairs `apply` makes together (whatever order they come in), and which `select`
/// keeps apart as overlapping. Issue 45: an `import` inserted at a file's first byte and the
/// replacement of the call starting there crashed `apply`.
final class EditOrderTests: XCTestCase {
    let text = Array("abcdef".utf8)

    func insertion(_ at: Int, _ text: String = "I") -> TextEdit { TextEdit(range: at..<at, text: text) }
    func replacement(_ at: Int, _ text: String = "R") -> TextEdit { TextEdit(range: at..<(at + 2), text: text) }
    func deletion(_ at: Int) -> TextEdit { TextEdit(range: at..<(at + 2), text: "") }

    func applied(_ edits: [TextEdit]) -> String { String(decoding: EditPlan.apply(edits, to: text), as: UTF8.self) }

    func assertApplied(_ a: TextEdit, _ b: TextEdit, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(applied([a, b]), expected, "\(a) then \(b)", file: file, line: line)
        XCTAssertEqual(applied([b, a]), expected, "\(b) then \(a)", file: file, line: line)
    }

    func testPairsAtTheSameOffset() {
        // An insertion goes before a replacement or deletion starting at its offset, in either order given.
        assertApplied(insertion(2), replacement(2), "abIRef")
        assertApplied(insertion(2), deletion(2), "abIef")
        assertApplied(insertion(0, "import Notices\n"), replacement(0, "Toast"), "import Notices\nToastcdef")
        // Two insertions at one place keep the order they are given in (one finding's edits).
        XCTAssertEqual(applied([insertion(2, "I"), insertion(2, "J")]), "abIJcdef")
        XCTAssertEqual(applied([insertion(2, "J"), insertion(2, "I")]), "abJIcdef")
        // From two findings, any two edits at one offset wait for separate passes.
        for (a, b) in [(insertion(2), insertion(2, "J")), (insertion(2), replacement(2)), (insertion(2), deletion(2)),
                       (replacement(2), replacement(2, "S")), (replacement(2), deletion(2)), (deletion(2), deletion(2))] {
            XCTAssertTrue(EditPlan.overlaps(a.range, b.range), "\(a) and \(b)")
            XCTAssertTrue(EditPlan.overlaps(b.range, a.range), "\(b) and \(a)")
        }
    }

    func testPairsAtAdjacentOffsets() {
        // The second starts where the first ends (one byte on after an insertion): never an overlap.
        assertApplied(insertion(2), insertion(3, "J"), "abIcJdef")
        assertApplied(insertion(2), replacement(3), "abIcRf")
        assertApplied(insertion(2), deletion(3), "abIcf")
        assertApplied(replacement(2), insertion(4), "abRIef")
        assertApplied(replacement(2), replacement(4, "S"), "abRS")
        assertApplied(replacement(2), deletion(4), "abR")
        assertApplied(deletion(2), insertion(4), "abIef")
        assertApplied(deletion(2), replacement(4), "abR")
        assertApplied(deletion(2), deletion(4), "ab")
        for (a, b) in [(insertion(4), replacement(2)), (insertion(4), deletion(2)), (replacement(2), replacement(4)),
                       (replacement(2), deletion(4)), (deletion(2), deletion(4)), (insertion(2), insertion(3))] {
            XCTAssertFalse(EditPlan.overlaps(a.range, b.range), "\(a) and \(b)")
            XCTAssertFalse(EditPlan.overlaps(b.range, a.range), "\(b) and \(a)")
        }
    }

    /// One finding whose own edits are an insertion and a replacement at the same offset is selected
    /// and applied whole.
    func testOneFindingsImportAndReplacementAtTheFirstByte() {
        let finding = Finding(ruleId: "r", severity: .warning, file: "A.swift", start: SourcePoint(line: 1, column: 1, byteOffset: 0),
                              end: SourcePoint(line: 1, column: 3, byteOffset: 2), symbol: "ab", message: "m", replacement: "Toast", fix: .safe,
                              edits: [insertion(0, "import Notices\n"), replacement(0, "Toast")])
        let selected = EditPlan.select([finding])
        XCTAssertEqual(selected.count, 1)
        XCTAssertEqual(applied(selected.flatMap(\.edits)), "import Notices\nToastcdef")
    }
}
