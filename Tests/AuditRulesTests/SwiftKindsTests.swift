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
        ] + Self.readingKinds
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

    /// The kinds the declaration readings ask of a declaration's parts.
    static let readingKinds: [(SwiftKinds, [String])] = [
        (.attribute, [SwiftNodeType.attribute]), (.callSuffix, [SwiftNodeType.callSuffix]), (.modifiers, [SwiftNodeType.modifiers]),
        (.navigationExpression, [SwiftNodeType.navigationExpression]), (.optionalType, [SwiftNodeType.optionalType]),
        (.pattern, [SwiftNodeType.pattern]), (.simpleIdentifier, [SwiftNodeType.simpleIdentifier]),
        (.typeAnnotation, [SwiftNodeType.typeAnnotation]), (.typeIdentifier, [SwiftNodeType.typeIdentifier]),
        (.userType, [SwiftNodeType.userType]), (.valueBindingPattern, [SwiftNodeType.valueBindingPattern]),
        (.typeName, [SwiftNodeType.typeIdentifier, SwiftNodeType.userType]),
        (.namedTypeDeclaration, [SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration, SwiftNodeType.typealiasDeclaration]),
        (.bindingKeyword, [SwiftNodeType.letKeyword, SwiftNodeType.varKeyword]),
    ]

    /// A kind's first and last named child and first child, found with one cursor and no array
    /// (`SwiftKinds.firstNamedChild(of:)` and the others), are the plain way's
    /// (`namedChildren.first { names.contains($0.type) }` and so on), for every kind the readings ask
    /// at every node of every fixture and of broken code.
    func testAKindsChildrenWithoutAnArrayAreThePlainWays() throws {
        var sources = fixtureSwiftSources()
        sources.append(SourceText("struct A { @State private var x: Int? = 1; let (a, b) = (1, 2) }\nextension Foo.Bar: Baz { typealias T = Int }\n"))
        sources.append(SourceText("struct A { func f( { let x = [1, 2 }\nclass B: { var y = }\n@@@ init(\n"))
        var found = [Int](repeating: 0, count: Self.readingKinds.count)
        for source in sources {
            try Parser().parse(source).rootNode.walk { node in
                let named = node.namedChildren, all = node.children
                for (index, (kind, names)) in Self.readingKinds.enumerated() {
                    XCTAssertEqual(kind.firstNamedChild(of: node), named.first { names.contains($0.type) }, "\(names) in \(node)")
                    XCTAssertEqual(kind.lastNamedChild(of: node), named.last { names.contains($0.type) }, "\(names) in \(node)")
                    XCTAssertEqual(kind.firstChild(of: node), all.first { names.contains($0.type) }, "\(names) in \(node)")
                    if kind.firstNamedChild(of: node) != nil, kind.lastNamedChild(of: node) != kind.firstNamedChild(of: node) { found[index] += 1 }
                    if kind.firstChild(of: node) != nil { found[index] += 1 }
                }
                return true
            }
        }
        for (index, count) in found.enumerated() { XCTAssertGreaterThan(count, 0, "\(Self.readingKinds[index].1) never found") }
    }
}
