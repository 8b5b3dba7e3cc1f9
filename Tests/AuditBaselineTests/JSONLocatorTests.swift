import AuditBaseline
import XCTest

final class JSONLocatorTests: XCTestCase {
    func error(_ text: String) -> JSONLocator.Place? { JSONLocator.syntaxError(in: Array(text.utf8)) }

    func testValidJSONHasNoError() {
        for text in ["{}", "[]", " {\"a\": [1, -2.5e+3, true, false, null, \"\\u00e9\\n\"]}\n", "\"x\"", "0"] {
            XCTAssertNil(error(text), text)
        }
    }

    func testEachMistakeIsPlacedAndNamed() {
        let cases: [(String, Int, Int, String)] = [
            ("{\n  \"a\": 1,\n}", 3, 1, "a comma before '}' (JSON allows no trailing comma)"),
            ("[1, 2,]", 1, 7, "a comma before ']' (JSON allows no trailing comma)"),
            ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after the value of \"a\""),
            ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\""),
            ("{\n  \"findings\": [\n", 3, 1, "the file ends where a value should be"),
            ("[1, 2", 1, 6, "the file ends inside an array (a ']' is missing)"),
            ("{\"é\": x}", 1, 7, "expected a value (an object, array, string, number, true, false or null)"),
            ("{\"a\": \"line\nbreak\"}", 1, 12, "a line break inside a string (the closing quote is missing?)"),
            ("\"\\q\"", 1, 3, "unknown escape \\q in a string"),
            ("[tru]", 1, 2, "expected a value (did you mean true?)"),
            ("[01]", 1, 3, "expected ',' or ']' after element 1 of the array"),
            ("{} {}", 1, 4, "unexpected text after the end of the JSON value"),
        ]
        for (text, line, column, message) in cases {
            XCTAssertEqual(error(text), JSONLocator.Place(line: line, column: column, message: message), text)
        }
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertEqual(error(deep)?.message, "nested more than 512 levels deep")
    }

    func testAValueIsFoundByItsPath() {
        let text = "{\n  \"version\": 1,\n  \"findings\": [\n    {\"ruleId\": \"a\"},\n    {\"ruleId\": 3}\n  ]\n}\n"
        let place = JSONLocator.place(of: [.key("findings"), .index(1), .key("ruleId")], in: Array(text.utf8))
        XCTAssertEqual(place.map { [$0.line, $0.column] }, [5, 16])
        XCTAssertNil(JSONLocator.place(of: [.key("findings"), .index(2)], in: Array(text.utf8)))
    }
}
