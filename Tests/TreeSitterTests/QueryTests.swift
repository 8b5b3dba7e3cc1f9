import TreeSitter
import XCTest

final class QueryCompilationTests: XCTestCase {
    func testValidQueryExposesCapturesAndPatterns() throws {
        let query = try Query(source: """
            (call_expression (simple_identifier) @callee (call_suffix) @suffix)
            (property_declaration name: (pattern) @name)
            """)
        XCTAssertEqual(query.captureNames, ["callee", "suffix", "name"])
        XCTAssertEqual(query.patternCount, 2)
        XCTAssertEqual(query.predicates.count, 2)
        XCTAssertTrue(query.predicates.allSatisfy(\.isEmpty))
    }

    func testUnclosedPatternIsASyntaxErrorAtTheEnd() {
        let source = "(call_expression"
        XCTAssertThrowsError(try Query(source: source)) { error in
            guard let error = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .syntax)
            XCTAssertEqual(error.offset, source.utf8.count)
            XCTAssertEqual(error.description, "invalid query (syntax error at offset 16): at the end of the query")
        }
    }

    func testStrayParenthesisIsASyntaxErrorWhereItStands() {
        XCTAssertThrowsError(try Query(source: "(call_expression))")) { error in
            guard let error = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .syntax)
            XCTAssertEqual(error.offset, 17)
            XCTAssertEqual(error.detail, "near ')'")
        }
    }

    func testUnknownNodeTypeIsANodeTypeError() {
        XCTAssertThrowsError(try Query(source: "(call_expression (no_such_node))")) { error in
            guard let error = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .nodeType)
            XCTAssertEqual(error.offset, 18)
            XCTAssertTrue(error.description.hasPrefix("invalid query (node type error at offset 18)"), error.description)
        }
    }

    func testUnknownFieldIsAFieldError() {
        XCTAssertThrowsError(try Query(source: "(call_expression no_such_field: (simple_identifier))")) { error in
            XCTAssertEqual((error as? QueryError)?.kind, .field)
            XCTAssertEqual((error as? QueryError)?.offset, 17)
        }
    }

    func testPredicateOnAnUndefinedCaptureIsACaptureError() {
        XCTAssertThrowsError(try Query(source: "((call_expression (simple_identifier) @name) (#eq? @other \"x\"))")) { error in
            XCTAssertEqual((error as? QueryError)?.kind, .capture)
        }
    }
}

final class QueryPredicateTests: XCTestCase {
    let source = """
        let a = ProgressView()
        let b = ThemedSpinner()
        let c = Text("x")
        let d = ProgressView()

        """

    /// The text and line of every `@name` capture that survives the query's predicates, in source order.
    private func names(_ pattern: String, in text: String? = nil) throws -> [String] {
        let tree = try Parser().parse(text ?? source)
        let query = try Query(source: pattern)
        let captures = QueryCursor().matches(of: query, in: tree.rootNode).flatMap { $0.nodes(named: "name") }
        return captures.sorted { $0.startByte < $1.startByte }.map { "\($0.text)@\($0.startPosition.line)" }
    }

    private let calls = "(call_expression (simple_identifier) @name)"

    func testWithoutPredicatesEveryCallMatches() throws {
        XCTAssertEqual(try names(calls), ["ProgressView@1", "ThemedSpinner@2", "Text@3", "ProgressView@4"])
    }

    func testEqKeepsCapturesEqualToTheString() throws {
        XCTAssertEqual(try names("(\(calls) (#eq? @name \"ProgressView\"))"), ["ProgressView@1", "ProgressView@4"])
    }

    func testNotEqDropsCapturesEqualToTheString() throws {
        XCTAssertEqual(try names("(\(calls) (#not-eq? @name \"ProgressView\"))"), ["ThemedSpinner@2", "Text@3"])
    }

    func testEqComparesTwoCapturesText() throws {
        let text = "let spinner = spinner\nlet other = spinner\nlet same = same\n"
        let pattern = "(property_declaration name: (pattern (simple_identifier) @name) value: (simple_identifier) @value %@)"
        XCTAssertEqual(
            try names(pattern.replacingOccurrences(of: "%@", with: "(#eq? @name @value)"), in: text),
            ["spinner@1", "same@3"]
        )
        XCTAssertEqual(
            try names(pattern.replacingOccurrences(of: "%@", with: "(#not-eq? @name @value)"), in: text),
            ["other@2"]
        )
    }

    func testMatchSearchesTheRegexAnywhereInTheText() throws {
        XCTAssertEqual(try names("(\(calls) (#match? @name \"Spinner$\"))"), ["ThemedSpinner@2"])
        // Unanchored: a fragment in the middle of the name is enough.
        XCTAssertEqual(try names("(\(calls) (#match? @name \"gress\"))"), ["ProgressView@1", "ProgressView@4"])
    }

    func testNotMatchDropsCapturesTheRegexFinds() throws {
        XCTAssertEqual(try names("(\(calls) (#not-match? @name \"^(Progress|Text)\"))"), ["ThemedSpinner@2"])
    }

    func testAnyOfKeepsCapturesInTheList() throws {
        XCTAssertEqual(
            try names("(\(calls) (#any-of? @name \"ProgressView\" \"Text\" \"Unused\"))"),
            ["ProgressView@1", "Text@3", "ProgressView@4"]
        )
    }

    func testNotAnyOfDropsCapturesInTheList() throws {
        XCTAssertEqual(try names("(\(calls) (#not-any-of? @name \"ProgressView\" \"Text\"))"), ["ThemedSpinner@2"])
    }

    func testAllPredicatesOfAPatternMustHold() throws {
        XCTAssertEqual(
            try names("(\(calls) (#match? @name \"^(Pro|Tex)\") (#not-eq? @name \"Text\"))"),
            ["ProgressView@1", "ProgressView@4"]
        )
    }

    func testPredicatesOnlyFilterTheirOwnPattern() throws {
        let tree = try Parser().parse(source)
        let query = try Query(source: """
            ((call_expression (simple_identifier) @name) (#eq? @name "Text"))
            (property_declaration name: (pattern) @binding)
            """)
        let matches = QueryCursor().matches(of: query, in: tree.rootNode)
        XCTAssertEqual(matches.filter { $0.patternIndex == 0 }.compactMap { $0.node(named: "name")?.text }, ["Text"])
        XCTAssertEqual(matches.filter { $0.patternIndex == 1 }.compactMap { $0.node(named: "binding")?.text }, ["a", "b", "c", "d"])
    }

    func testSetDirectiveNeitherFailsNorFilters() throws {
        XCTAssertEqual(
            try names("(\(calls) (#set! x y))"),
            ["ProgressView@1", "ThemedSpinner@2", "Text@3", "ProgressView@4"]
        )
        XCTAssertEqual(try names("(\(calls) (#eq? @name \"Text\") (#set! x y))"), ["Text@3"])
        XCTAssertEqual(try Query(source: "(\(calls) (#set! x y))").predicates.map(\.count), [0])
    }

    func testUnsupportedPredicateIsRejected() {
        XCTAssertThrowsError(try Query(source: "(\(calls) (#is-not? local))")) { error in
            XCTAssertEqual((error as? QueryError)?.kind, .predicate)
        }
        XCTAssertThrowsError(try Query(source: "(\(calls) (#is? @name local))")) { error in
            guard let error = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .predicate)
            XCTAssertTrue(error.detail.hasPrefix("unsupported predicate #is?"), error.detail)
        }
    }

    func testMalformedSupportedPredicatesAreRejected() {
        for malformed in [
            "(\(calls) (#eq? @name))",
            "(\(calls) (#eq? @name \"a\" \"b\"))",
            "(\(calls) (#eq? \"ProgressView\" @name))",
            "(\(calls) (#match? @name \"(\"))",
            "(\(calls) (#match? @name @name))",
            "(\(calls) (#any-of? @name))",
            "(\(calls) (#any-of? @name @name))",
        ] {
            XCTAssertThrowsError(try Query(source: malformed), malformed) { error in
                XCTAssertEqual((error as? QueryError)?.kind, .predicate, malformed)
            }
        }
    }

    func testCapturedNodesOutliveTheCursorAndTree() throws {
        func capturedCallees() throws -> [Node] {
            let tree = try Parser().parse(source)
            let query = try Query(source: calls)
            return QueryCursor().matches(of: query, in: tree.rootNode).compactMap { $0.node(named: "name") }
        }
        XCTAssertEqual(try capturedCallees().map(\.text), ["ProgressView", "ThemedSpinner", "Text", "ProgressView"])
    }

    func testOneQueryAndCursorServeSeveralTrees() throws {
        let query = try Query(source: "(\(calls) (#eq? @name \"ProgressView\"))")
        let cursor = QueryCursor()
        let parser = try Parser()
        let first = try parser.parse(source)
        let second = try parser.parse("let z = Text(\"y\")\n")
        XCTAssertEqual(cursor.matches(of: query, in: first.rootNode).count, 2)
        XCTAssertEqual(cursor.matches(of: query, in: second.rootNode).count, 0)
        XCTAssertEqual(cursor.matches(of: query, in: first.rootNode).count, 2)
    }
}
