import SwiftGrammar
import XCTest

/// What a removal takes with it (`LineRemoval`): a line alone goes with its break; removals that overlap
/// are one; at the end of a file with no final break, the break before goes instead.
final class LineRemovalTests: XCTestCase {
    /// The text left after removing `ranges` (each given as the text it covers, found in order).
    private func left(_ text: String, removing pieces: [String]) -> String {
        let bytes = Array(text.utf8)
        var from = text.startIndex
        let ranges = pieces.map { piece -> Range<Int> in
            let found = text.range(of: piece, range: from..<text.endIndex)!
            from = found.upperBound
            return text.utf8.distance(from: text.startIndex, to: found.lowerBound)..<text.utf8.distance(from: text.startIndex, to: found.upperBound)
        }
        let joined = LineRemoval.wholeLinesIfAlone(ranges, in: bytes)
        for (left, right) in zip(joined, joined.dropFirst()) { XCTAssertLessThanOrEqual(left.upperBound, right.lowerBound, "overlap in \(text.debugDescription)") }
        var result = bytes
        for range in joined.reversed() { result.removeSubrange(range) }
        return String(decoding: result, as: UTF8.self)
    }

    func testRemovalsOnConsecutiveLinesLeaveNoLine() {
        XCTAssertEqual(left("v()\n    .a(1)\n    .b(2)\nnext\n", removing: [".a(1)", ".b(2)"]), "v()\nnext\n")
        XCTAssertEqual(left("v()\n    .a(1)\n    .b(2)\n", removing: [".a(1)", ".b(2)"]), "v()\n")
    }

    /// The fuzzer's case: both removals want the break between them.
    func testRemovalsEndingAFileWithoutABreakKeepItWithoutOne() {
        XCTAssertEqual(left("v()\n    .a(1)\n    .b(2)", removing: [".a(1)", ".b(2)"]), "v()")
        XCTAssertEqual(left("v()\r\n    .a(1)\r\n    .b(2)", removing: [".a(1)", ".b(2)"]), "v()")
        XCTAssertEqual(left("v()\n    .b(2)", removing: [".b(2)"]), "v()")
        XCTAssertEqual(left("v()\n\n    .b(2)", removing: [".b(2)"]), "v()\n", "one removal: as wholeLineIfAlone")
        XCTAssertEqual(left("v().a(1)\n    .b(2)", removing: [".a(1)", ".b(2)"]), "v()")
    }

    func testOneRemovalIsWholeLineIfAlone() {
        let text = "let x = v()\n    .a(1) // kept\n"
        let bytes = Array(text.utf8)
        let start = text.utf8.distance(from: text.startIndex, to: text.range(of: ".a(1)")!.lowerBound)
        XCTAssertEqual(LineRemoval.wholeLinesIfAlone([start..<(start + 5)], in: bytes), [LineRemoval.wholeLineIfAlone(start..<(start + 5), in: bytes)])
    }
}
