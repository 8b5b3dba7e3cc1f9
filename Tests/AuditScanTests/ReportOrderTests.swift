import AuditModel
import XCTest

/// Reports list files byte by byte in UTF-8 (`String.precedesInUTF8`), whatever the locale: the same
/// order as comparing the strings' UTF-8 views.
final class ReportOrderTests: XCTestCase {
    func testByteOrderIsTheUTF8ViewsOrder() {
        let paths = [
            "", "a", "A", "a/b.swift", "a/b", "a.swift", "a-b/c.swift", "a_b/c.swift", "ab", "Z/z.swift", "z",
            "Café/View.swift", "Cafe/View.swift", "Caf\u{0065}\u{0301}/View.swift", "日本/画面.swift", "😀.swift",
            "Sources/App/Views/HomeView.swift", "Sources/App/Views/HomeView2.swift", "Sources/App/Views/Home View.swift",
        ]
        for first in paths {
            for second in paths {
                XCTAssertEqual(first.precedesInUTF8(second), first.utf8.lexicographicallyPrecedes(second.utf8), "\(first) | \(second)")
            }
        }
        // Bytes, not characters: "é" as one scalar (C3 A9) sorts after "e" + combining accent (65 CC 81).
        XCTAssertTrue("Cafe\u{0301}".precedesInUTF8("Caf\u{00E9}"))
        XCTAssertFalse("Caf\u{00E9}".precedesInUTF8("Cafe\u{0301}"))
    }
}
