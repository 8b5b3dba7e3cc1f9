@testable import AuditSelect
import AuditRules
import XCTest

/// Files whose only asked words are `enum` and `switch` get their name index after the first pass,
/// when they may declare a case some clock assigns (`RotationFollower.TextEnumFilter`).
final class TextEnumFilterTests: XCTestCase {
    /// The look that tells which put-off files may declare a case: every name the lexer would take as
    /// a declared case (`FileNameIndex.declaresCase`) is found, and a `default:` or a case matched
    /// in a switch after a `:` is not taken for one.
    func testTheLookForDeclaredCasesFindsWhatTheLexerFinds() {
        let declarations = [
            "enum A { case fetching }",
            "enum A {\n    case idle, fetching\n}",
            "enum A { case loading(progress: Double), fetching }",
            "enum A { case `default`, fetching = 3 }",
            "enum A { case a; case fetching }",
            "enum A {\n    case idle,\n         fetching\n}",
            "enum A { case 0fetching }",
            "// case fetching\n",
            "enum A { indirect case fetching(A) }",
            "enum Café { case déjàVu, fetching }",
        ]
        for text in declarations {
            let names: Set<UInt64> = [WordHash.ofName("fetching")]
            XCTAssertTrue(Array(text.utf8).withUnsafeBufferPointer { RotationFollower.TextEnumFilter.mayDeclareACase(named: names, in: $0) }, text)
            let nameIndex = FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn)
            XCTAssertTrue(nameIndex.declaresCase(hash: WordHash.ofName("fetching")), "the lexer: \(text)")
        }
        let notDeclared = [
            "switch phase {\ncase .idle: start()\ndefault: fetching()\n}",
            "let fetching = true\nfunc f() { if fetching { return } }",
            "switch phase { case .idle: fetching = true }",
            "enum A { case idle }\nlet prefetching = 1",
        ]
        for text in notDeclared {
            let names: Set<UInt64> = [WordHash.ofName("fetching"), WordHash.ofName("default")]
            XCTAssertFalse(Array(text.utf8).withUnsafeBufferPointer { RotationFollower.TextEnumFilter.mayDeclareACase(named: names, in: $0) }, text)
        }
    }
}
