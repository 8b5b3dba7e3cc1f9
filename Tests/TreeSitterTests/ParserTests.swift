import TreeSitter
import XCTest

final class ParserTests: XCTestCase {
    func testSwiftUISnippetParsesWithoutErrors() throws {
        let source = """
        import SwiftUI

        struct LoadingView: View {
            @State private var isLoading = true

            var body: some View {
                VStack(spacing: 8) {
                    if isLoading {
                        ProgressView("Loading…")
                            .progressViewStyle(.circular)
                            .tint(.accentColor)
                    }
                    Text("Done")
                }
                .padding()
            }
        }
        """
        let tree = try Parser().parse(source)
        XCTAssertEqual(tree.rootNode.type, "source_file")
        XCTAssertFalse(tree.rootNode.hasError)
        let callees = tree.rootNode.descendants(ofType: "call_expression").compactMap { $0.namedChild(at: 0)?.text }
        XCTAssertTrue(callees.contains("ProgressView"), "callees were \(callees)")
    }

    func testBundledGrammarUsesALanguageABIThisRuntimeLoads() {
        XCTAssertTrue([13, 14].contains(Language.swift.abiVersion), "ABI \(Language.swift.abiVersion)")
    }

    func testEmptySourceGivesAnEmptySourceFile() throws {
        let tree = try Parser().parse("")
        XCTAssertEqual(tree.rootNode.sExpression, "(source_file 0-0)")
        XCTAssertFalse(tree.rootNode.hasError)
        XCTAssertEqual(tree.rootNode.childCount, 0)
        XCTAssertEqual(tree.rootNode.endPosition, TextPosition(line: 1, column: 1))
    }

    func testTreeKeepsTheSourceItWasParsedFrom() throws {
        let tree = try Parser().parse("let v = 1\n")
        XCTAssertEqual(tree.source.bytes, Array("let v = 1\n".utf8))
        XCTAssertEqual(tree.rootNode.text, "let v = 1\n")
    }

    func testReusingAParserLeavesEarlierTreesIntact() throws {
        let parser = try Parser()
        let first = try parser.parse("let first = ProgressView()")
        let second = try parser.parse("let second = ThemedSpinner()")
        XCTAssertEqual(first.rootNode.firstDescendant(ofType: "call_expression")?.text, "ProgressView()")
        XCTAssertEqual(second.rootNode.firstDescendant(ofType: "call_expression")?.text, "ThemedSpinner()")
    }

    func testCreatingAndDroppingManyParsersAndTrees() throws {
        for index in 0..<200 {
            let parser = try Parser()
            let tree = try parser.parse("let value\(index) = ProgressView(\(index))")
            let identifier = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "simple_identifier"))
            XCTAssertEqual(identifier.text, "value\(index)")
            XCTAssertEqual(tree.rootNode.firstDescendant(ofType: "integer_literal")?.text, "\(index)")
        }
    }
}

final class SyntaxErrorTests: XCTestCase {
    func testBrokenFileReportsErrorAndContainsAnErrorOrMissingNode() throws {
        let tree = try Parser().parse("func f( {\n  let x = \n}\n")
        XCTAssertTrue(tree.rootNode.hasError)
        var broken: [Node] = []
        tree.rootNode.walk { node in
            if node.isError || node.isMissing { broken.append(node) }
            return true
        }
        XCTAssertFalse(broken.isEmpty, tree.rootNode.sExpression)
        // A missing node is one the parser invented to recover: it covers no text.
        for node in broken where node.isMissing {
            XCTAssertEqual(node.startByte, node.endByte, "\(node)")
        }
    }

    func testValidFileHasNoErrorOrMissingNodes() throws {
        let tree = try Parser().parse("func f() {\n  let x = 1\n}\n")
        XCTAssertFalse(tree.rootNode.hasError)
        var broken = 0
        tree.rootNode.walk { node in
            if node.isError || node.isMissing { broken += 1 }
            return true
        }
        XCTAssertEqual(broken, 0)
    }
}
