import Foundation
import LoadAuditTestSupport
import SwiftGrammar
@testable import TreeSitter
import XCTest

/// Node kinds asked by the grammar's numbers (`SwiftKinds`, `Node.isError`; docs/speed.md) answer what
/// the plain way, the node's type by name, answers: at every node of every fixture and of broken code.
final class SwiftKindsTests: XCTestCase {
    func testKindsByNumberAreKindsByName() throws {
        let kinds: [(SwiftKinds, [String])] = [
            (.assignment, [SwiftNodeType.assignment]), (.awaitExpression, [SwiftNodeType.awaitExpression]),
            (.callExpression, [SwiftNodeType.callExpression]), (.classBody, [SwiftNodeType.classBody]),
            (.classDeclaration, [SwiftNodeType.classDeclaration]), (.enumClassBody, [SwiftNodeType.enumClassBody]),
            (.functionDeclaration, [SwiftNodeType.functionDeclaration]), (.initDeclaration, [SwiftNodeType.initDeclaration]),
            (.lambdaLiteral, [SwiftNodeType.lambdaLiteral]), (.propertyDeclaration, [SwiftNodeType.propertyDeclaration]),
            (.protocolDeclaration, [SwiftNodeType.protocolDeclaration]), (.statements, [SwiftNodeType.statements]),
            (.typeDeclaration, [SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration]),
            (.typeBody, [SwiftNodeType.classBody, SwiftNodeType.enumClassBody]),
        ]
        var sources = fixtureSwiftSources()
        sources.append(SourceText("protocol Loader: AnyObject { func load() async throws -> [String] }\nenum Tip: String { case a, b }\n"))
        // Broken code: ERROR nodes (outside the grammar's table) and MISSING ones.
        sources.append(SourceText("struct A { func f( { let x = [1, 2 }\nclass B: { var y = }\n@@@ init(\n"))
        sources.append(SourceText("func g() { Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in label.text = \n}"))
        var seen = [Int](repeating: 0, count: kinds.count)
        var errors = 0
        for source in sources {
            try Parser().parse(source).rootNode.walk { node in
                for (index, (kind, names)) in kinds.enumerated() {
                    let plain = names.contains(node.type)
                    XCTAssertEqual(kind.contains(node), plain, "\(names) at \(node)")
                    if plain { seen[index] += 1 }
                }
                XCTAssertEqual(node.isError, node.type == "ERROR", "\(node)")
                if node.isError { errors += 1 }
                return true
            }
        }
        for (index, count) in seen.enumerated() { XCTAssertGreaterThan(count, 0, "\(kinds[index].1) never seen") }
        XCTAssertGreaterThan(errors, 2)
    }
}
