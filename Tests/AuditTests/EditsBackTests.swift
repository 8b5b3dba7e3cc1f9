@testable import Audit
import AuditModel
import XCTest

/// Offsets in a fixed text taken back to the text the fix found, through several passes.
final class EditsBackTests: XCTestCase {
    func testOffsetsGoBackThroughEveryPass() {
        // "aXXbYc" -> (XX -> Z) "aZbYc" -> (Y -> WWW) "aZbWWWc"
        let back = EditsBack([[TextEdit(range: 1..<3, text: "Z")], [TextEdit(range: 3..<4, text: "WWW")]])
        let fixed = Array("aZbWWWc")
        let original = Array("aXXbYc")
        let expected: [Character: Int] = ["a": 0, "Z": 1, "b": 3, "W": 4, "c": 5]
        for (offset, character) in fixed.enumerated() {
            XCTAssertEqual(back.originalOffset(of: offset), expected[character], "\(character) at \(offset)")
        }
        XCTAssertEqual(original[back.originalOffset(of: 6)], "c")
        // A removal: what follows it moves back by its length; no pass, no change.
        XCTAssertEqual(EditsBack([[TextEdit(range: 2..<7, text: ""), TextEdit(range: 0..<0, text: "++")]]).originalOffset(of: 4), 7)
        XCTAssertEqual(EditsBack([]).originalOffset(of: 9), 9)
    }
}
