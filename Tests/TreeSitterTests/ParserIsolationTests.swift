import TreeSitter
import XCTest

/// A parser is reused for many files; nothing of one file may leak into the next. The grammar's
/// external scanner keeps raw-string state, and does not reset it when a parse starts (scripts/bootstrap
/// patches it to), so this pins the behaviour across files that end inside a raw string.
final class ParserIsolationTests: XCTestCase {
    func testAnUnfinishedRawStringDoesNotLeakIntoTheNextFile() throws {
        let valid = "let sample = #\"ProgressView(\"Loading \\(count) games\")\"#\nlet other = 1\n"
        let fresh = try Parser().parse(valid)
        XCTAssertFalse(fresh.rootNode.hasError, fresh.rootNode.sExpression)

        let parser = try Parser()
        for broken in ["let a = ###\"never closed", "let b = #\"also open\n\n", "let c = ##\"\"\"\nmulti\n"] {
            _ = try parser.parse(broken)
            let next = try parser.parse(valid)
            XCTAssertEqual(next.rootNode.sExpression, fresh.rootNode.sExpression, "after \(broken.debugDescription)")
        }
    }
}
