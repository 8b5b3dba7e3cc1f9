@testable import AuditFix
import Foundation
import XCTest

final class UnifiedDiffTests: XCTestCase {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testEqualTextsHaveNoDiff() {
        XCTAssertNil(UnifiedDiff.make(path: "A.swift", old: bytes("a\n"), new: bytes("a\n")))
    }

    func testOneChangedLineWithThreeLinesOfContext() {
        let old = (1...10).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        XCTAssertEqual(UnifiedDiff.make(path: "Sub/A.swift", old: bytes(old), new: bytes(new)), """
        --- a/Sub/A.swift
        +++ b/Sub/A.swift
        @@ -2,7 +2,7 @@
         line 2
         line 3
         line 4
        -line 5
        +line five
         line 6
         line 7
         line 8

        """)
    }

    func testRemovedLineAndMissingFinalNewline() {
        let diff = UnifiedDiff.make(path: "A.swift", old: bytes("a\nb\nc"), new: bytes("a\nc"))
        XCTAssertEqual(diff, "--- a/A.swift\n+++ b/A.swift\n@@ -1,3 +1,2 @@\n a\n-b\n c\n\\ No newline at end of file\n")
    }

    func testDistantChangesMakeSeparateHunksAndNearOnesMerge() {
        let old = (1...30).map { "\($0)\n" }.joined()
        var new = old.replacingOccurrences(of: "\n3\n", with: "\nthree\n")
        new = new.replacingOccurrences(of: "\n25\n", with: "\ntwenty-five\n")
        let diff = UnifiedDiff.make(path: "A", old: bytes(old), new: bytes(new))!
        XCTAssertEqual(diff.components(separatedBy: "@@ -").count - 1, 2)
        let near = old.replacingOccurrences(of: "\n3\n", with: "\nthree\n").replacingOccurrences(of: "\n8\n", with: "\neight\n")
        let merged = UnifiedDiff.make(path: "A", old: bytes(old), new: bytes(near))!
        XCTAssertEqual(merged.components(separatedBy: "@@ -").count - 1, 1)
    }

    func testCarriageReturnsAreKeptInTheDiffLines() {
        let diff = UnifiedDiff.make(path: "A", old: bytes("a\r\nb\r\n"), new: bytes("a\r\nc\r\n"))!
        XCTAssertTrue(diff.contains("-b\r\n+c\r\n"), diff.debugDescription)
    }

    func testTheEditScriptIsMinimal() {
        let a = ["a", "b", "c", "a", "b", "b", "a"].map { Array($0.utf8) }
        let b = ["c", "b", "a", "b", "a", "c"].map { Array($0.utf8) }
        let script = UnifiedDiff.editScript(a, b)
        let changes = script.filter { if case .keep = $0 { return false } else { return true } }
        XCTAssertEqual(changes.count, 5)
        // Replaying the script on a gives b.
        var rebuilt: [[UInt8]] = []
        for operation in script {
            switch operation {
            case .keep(let x, _): rebuilt.append(a[x])
            case .insert(let y): rebuilt.append(b[y])
            case .delete: break
            }
        }
        XCTAssertEqual(rebuilt, b)
    }
}
