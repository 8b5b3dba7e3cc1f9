import TreeSitter
import XCTest

final class NodeNavigationTests: XCTestCase {
    // "Café" has a 2-byte "é" and the stadium emoji is 7 bytes in 2 code points, all before the call on one line.
    let text = "let s = \"Caf\u{E9} \u{1F3DF}\u{FE0F}\"; let v = ProgressView()"

    func testCallExpressionStartsWithTheCalleeIdentifier() throws {
        let tree = try Parser().parse(text)
        let call = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "call_expression"))
        XCTAssertEqual(call.text, "ProgressView()")
        XCTAssertTrue(call.isNamed)
        let callee = try XCTUnwrap(call.namedChild(at: 0))
        XCTAssertEqual(callee.type, "simple_identifier")
        XCTAssertEqual(callee.text, "ProgressView")
        XCTAssertEqual(callee.parent, call)
        XCTAssertEqual(call.namedChild(at: 1)?.type, "call_suffix")
        XCTAssertNil(call.namedChild(at: 2))
        XCTAssertNil(call.namedChild(at: -1))
        XCTAssertNil(call.child(at: call.childCount))
    }

    func testPositionsCountCodePointsAfterNonASCIIOnTheSameLine() throws {
        let tree = try Parser().parse(text)
        let call = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "call_expression"))
        // Bytes: 9 + 5 ("Café") + 1 + 7 + 3 + 8; code points: 9 + 4 + 1 + 2 + 3 + 8.
        XCTAssertEqual(call.startByte, 33)
        XCTAssertEqual(call.startPosition, TextPosition(line: 1, column: 28))
        XCTAssertEqual(call.endPosition, TextPosition(line: 1, column: 42))
        XCTAssertEqual(call.byteRange, 33..<47)
        XCTAssertEqual(call.description, "call_expression@1:28-1:42")
    }

    func testChildByFieldFindsTheDeclaredNameAndValue() throws {
        let tree = try Parser().parse(text)
        let declarations = tree.rootNode.descendants(ofType: "property_declaration")
        XCTAssertEqual(declarations.count, 2)
        let second = declarations[1]
        XCTAssertEqual(second.child(byField: "name")?.text, "v")
        XCTAssertEqual(second.child(byField: "value")?.type, "call_expression")
        XCTAssertEqual(second.child(byField: "value")?.text, "ProgressView()")
        XCTAssertNil(second.child(byField: "no_such_field"))
    }

    func testChildrenByFieldListsEveryCaseNameButNoRawValue() throws {
        let tree = try Parser().parse("enum Phase: String { case warming = \"warm\", fetching = \"fetch\", done }")
        let entry = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "enum_entry"))
        XCTAssertEqual(entry.children(byField: "name").map(\.text), ["warming", "fetching", "done"])
        XCTAssertEqual(entry.children(byField: "no_such_field").count, 0)
    }

    func testSiblingsWithinAnArgumentList() throws {
        let tree = try Parser().parse("f(a, b, c)")
        let arguments = tree.rootNode.descendants(ofType: "value_argument")
        XCTAssertEqual(arguments.map(\.text), ["a", "b", "c"])
        XCTAssertEqual(arguments[0].nextNamedSibling, arguments[1])
        XCTAssertEqual(arguments[2].previousNamedSibling, arguments[1])
        XCTAssertEqual(arguments[0].nextSibling?.type, ",")
        XCTAssertEqual(arguments[0].previousSibling?.type, "(")
        XCTAssertNil(arguments[2].nextNamedSibling)
    }

    func testEqualityIdentifiesTheSameNodeOfTheSameTree() throws {
        let parser = try Parser()
        let tree = try parser.parse("let a = 1\nlet b = 2\n")
        XCTAssertEqual(tree.rootNode, tree.rootNode)
        XCTAssertEqual(tree.rootNode.namedChild(at: 0), tree.rootNode.namedChild(at: 0))
        XCTAssertNotEqual(tree.rootNode.namedChild(at: 0), tree.rootNode.namedChild(at: 1))
        XCTAssertNotEqual(tree.rootNode.namedChild(at: 0), tree.rootNode)
        // Identical text parsed twice gives two trees, and nodes of different trees are different nodes.
        let again = try parser.parse("let a = 1\nlet b = 2\n")
        XCTAssertNotEqual(tree.rootNode, again.rootNode)
    }

    func testAncestorsRunFromTheParentUpToTheRoot() throws {
        let tree = try Parser().parse(text)
        let callee = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "call_expression")?.namedChild(at: 0))
        let ancestors = Array(callee.ancestors)
        XCTAssertEqual(ancestors.map(\.type), ["call_expression", "property_declaration", "source_file"])
        XCTAssertEqual(ancestors.last, tree.rootNode)
        XCTAssertTrue(Array(tree.rootNode.ancestors).isEmpty)
        XCTAssertNil(tree.rootNode.parent)
    }

    /// The tests' rendering of a tree (TestSupport.swift), which the arena and isolation tests compare:
    /// every node, anonymous ones quoted, with its bytes and the field it hangs under.
    func testTheTestsRenderingShowsEveryNodeWithItsBytesAndField() throws {
        let tree = try Parser().parse("let v = ProgressView()")
        XCTAssertTrue(tree.rootNode.sExpression.hasPrefix("(source_file 0-22 (property_declaration 0-22"), tree.rootNode.sExpression)
        let call = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "call_expression"))
        XCTAssertEqual(call.sExpression, #"(call_expression 8-22 (simple_identifier 8-20) (call_suffix 20-22 (value_arguments 20-22 ("(" 20-21) (")" 21-22))))"#)
        let navigation = try XCTUnwrap(try Parser().parse("a.b").rootNode.firstDescendant(ofType: "navigation_expression"))
        XCTAssertTrue(navigation.sExpression.contains("target: (simple_identifier 0-1)"), navigation.sExpression)
    }
}

final class NodeWalkTests: XCTestCase {
    let text = "a(b, c: d.e)\nf()\n"

    func testWalkVisitsNodesInSourceOrder() throws {
        let tree = try Parser().parse(text)
        var identifiers: [String] = []
        var starts: [Int] = []
        tree.rootNode.walk { node in
            if node.type == "simple_identifier" { identifiers.append(node.text) }
            starts.append(node.startByte)
            return true
        }
        XCTAssertEqual(identifiers, ["a", "b", "c", "d", "e", "f"])
        XCTAssertEqual(starts, starts.sorted(), "pre-order visits never go back in the text")
    }

    func testReturningFalseSkipsTheSubtreeButNotItsSiblings() throws {
        let tree = try Parser().parse(text)
        var identifiers: [String] = []
        var skipped: [String] = []
        tree.rootNode.walk { node in
            if node.type == "simple_identifier" { identifiers.append(node.text) }
            if node.type == "value_arguments" {
                skipped.append(node.text)
                return false
            }
            return true
        }
        XCTAssertEqual(identifiers, ["a", "f"])
        XCTAssertEqual(skipped, ["(b, c: d.e)", "()"])
    }

    func testWalkFromAnInnerNodeStaysInsideItsSubtree() throws {
        let tree = try Parser().parse(text)
        let firstCall = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "call_expression"))
        var identifiers: [String] = []
        firstCall.walk { node in
            if node.type == "simple_identifier" { identifiers.append(node.text) }
            return true
        }
        XCTAssertEqual(identifiers, ["a", "b", "c", "d", "e"])
    }

    func testWalkOfALeafVisitsOnlyThatLeaf() throws {
        let tree = try Parser().parse(text)
        let leaf = try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "simple_identifier"))
        var visited: [Node] = []
        leaf.walk { visited.append($0); return true }
        XCTAssertEqual(visited, [leaf])
    }

    func testFalseAtTheStartingNodeVisitsNothingElse() throws {
        let tree = try Parser().parse(text)
        var count = 0
        tree.rootNode.walk { _ in count += 1; return false }
        XCTAssertEqual(count, 1)
    }

    func testDeeplyNestedParenthesesAreWalkedWithoutExhaustingTheStack() throws {
        let depth = 5_000
        let source = "let x = " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth) + "\n"
        let tree = try Parser().parse(source)
        var count = 0
        var literals: [String] = []
        tree.rootNode.walk { node in
            count += 1
            if node.type == "integer_literal" { literals.append(node.text) }
            return true
        }
        XCTAssertGreaterThan(count, depth)
        XCTAssertEqual(literals, ["1"], "the innermost literal must be reached")
    }
}

final class NodeLifetimeTests: XCTestCase {
    /// Returns a node and drops every other reference to its parser and tree.
    private func calleeOfAFreshTree() throws -> Node {
        let parser = try Parser()
        let tree = try parser.parse("let s = \"\u{E9}\"; let v = ProgressView()")
        return try XCTUnwrap(tree.rootNode.firstDescendant(ofType: "call_expression")?.namedChild(at: 0))
    }

    func testNodeKeepsItsTreeAliveAfterTheTreeGoesOutOfScope() throws {
        let callee = try calleeOfAFreshTree()
        XCTAssertEqual(callee.text, "ProgressView")
        XCTAssertEqual(callee.type, "simple_identifier")
        XCTAssertEqual(callee.startPosition, TextPosition(line: 1, column: 22))
        XCTAssertEqual(callee.parent?.text, "ProgressView()")
        XCTAssertEqual(Array(callee.ancestors).last?.type, "source_file")
    }

    func testNodeHoldsTheOnlyReferenceToItsTree() throws {
        weak var weakTree: Tree?
        var node: Node? = try {
            let tree = try Parser().parse("let v = ProgressView()")
            weakTree = tree
            return tree.rootNode
        }()
        XCTAssertNotNil(weakTree, "the node must keep the tree alive")
        XCTAssertEqual(node?.text, "let v = ProgressView()")
        node = nil
        XCTAssertNil(weakTree, "the tree must be freed once no node refers to it")
    }
}

final class FieldNameTests: XCTestCase {
    /// tree-sitter 0.20.7's own lookup names the wrong children (issue #1642); ours goes through a cursor.
    func testFieldNamesBelongToTheRightChildren() throws {
        let tree = try Parser().parse("func f() {}\nlet v = 1\n")
        let function = try XCTUnwrap(tree.rootNode.namedChild(at: 0))
        let fields = function.childrenWithFields.map { "\($0.node.type)=\($0.field ?? "-")" }
        XCTAssertTrue(fields.contains("simple_identifier=name"), "\(fields)")
        XCTAssertTrue(fields.contains("function_body=body"), "\(fields)")
        XCTAssertTrue(fields.contains("func=-"), "\(fields)")
        let property = try XCTUnwrap(tree.rootNode.namedChild(at: 1))
        let propertyFields = property.childrenWithFields.map { "\($0.node.type)=\($0.field ?? "-")" }
        XCTAssertTrue(propertyFields.contains("integer_literal=value"), "\(propertyFields)")
        XCTAssertEqual(function.childrenWithFields.map(\.node), function.children)
        XCTAssertEqual(property.children(byField: "value").map(\.type), ["integer_literal"])
    }
}
