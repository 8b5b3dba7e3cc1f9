import AuditModel
@testable import AuditRules
import SwiftGrammar
import TreeSitter
import XCTest

/// A pattern with a trailing closure matches the call whatever statement holds it (issue 45): the
/// grammar builds `Card(x) { }` as one call in a statement, a `return` or an argument, and as a call
/// of a call in a `let`/`var` initializer (and a modifier's receiver there).
final class PatternTrailingClosureTests: XCTestCase {
    private let ruleSet: RuleSet = try! RuleSetLoader.load(text: """
    version: 1
    rules:
      - id: old-card
        kind: pattern
        match: 'OldCard($$$ARGS) { $$$CONTENT }'
        replace: 'NewCard($$$ARGS) { $$$CONTENT }'
        fix: safe
        message: OldCard is NewCard.
    """, file: "team.yml")

    private func findings(_ code: String) throws -> [Finding] {
        let engine = RuleEngine(ruleSet: ruleSet)
        let analysis = engine.analyze(tree: try Parser().parse(SourceText(bytes: Array(code.utf8))), file: "V.swift")
        return engine.resolve(analysis, in: ProjectContext([analysis]))
    }

    func testEveryStatementHoldingTheCallMatchesItAndFixesItAlike() throws {
        let call = #"OldCard(title: "x", icon: .map) { Text("y") }"#
        let holders = [
            "\(call)\n",
            "let a = \(call)\n",
            "var a = \(call)\n",
            "func f() -> some View {\n    return \(call)\n}\n",
            "show(\(call))\n",
            "let a = \(call).padding()\n",
            "var body: some View { \(call).padding() }\n",
            "let a = VStack { \(call) }\n",
        ]
        for code in holders {
            let found = try findings(code)
            XCTAssertEqual(found.count, 1, code)
            guard let finding = found.first else { continue }
            let start = code.utf8.count - code.drop(while: { $0 != "O" }).utf8.count
            XCTAssertEqual(finding.start.byteOffset, start, code)
            XCTAssertEqual(finding.end.byteOffset, start + call.utf8.count, code)
            var bytes = Array(code.utf8)
            for edit in finding.edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
            }
            let fixed = String(decoding: bytes, as: UTF8.self)
            XCTAssertEqual(fixed, code.replacingOccurrences(of: "OldCard", with: "NewCard"), code)
        }
    }

    func testTheNestedCallStillNeedsTheWholePattern() throws {
        // Another callee, or no trailing closure: no match, in a `let` as in a statement.
        XCTAssertEqual(try findings(#"let a = OtherCard(title: "x") { Text("y") }"#).count, 0)
        XCTAssertEqual(try findings(#"let a = OldCard(title: "x")"#).count, 0)
        XCTAssertEqual(try findings(#"let a = OldCard(title: "x").padding { Text("y") }"#).count, 0)
    }
}

extension PatternTrailingClosureTests {
    func testAReceiverAndSeveralTrailingClosuresMatchInALetToo() throws {
        let ruleSet = try RuleSetLoader.load(text: """
        version: 1
        rules:
          - id: sheet
            kind: pattern
            match: '$V.oldSheet(isPresented: $P) { $$$C }'
            replace: '$V.sheet(isPresented: $P) { $$$C }'
            fix: safe
            message: m
          - id: button
            kind: pattern
            match: 'OldButton(action: $A) { $$$C } label: { $$$L }'
            replace: 'NewButton(action: $A) { $$$C } label: { $$$L }'
            fix: safe
            message: m
        """, file: "team.yml")
        let code = """
        v.oldSheet(isPresented: x) { Text("y") }
        let a = v.oldSheet(isPresented: x) { Text("y") }
        OldButton(action: go) { Text("a") } label: { Text("b") }
        let b = OldButton(action: go) { Text("a") } label: { Text("b") }

        """
        let engine = RuleEngine(ruleSet: ruleSet)
        let analysis = engine.analyze(tree: try Parser().parse(SourceText(bytes: Array(code.utf8))), file: "V.swift")
        let found = engine.resolve(analysis, in: ProjectContext([analysis]))
        XCTAssertEqual(found.map { "\($0.ruleId) \($0.start.line):\($0.start.column)" }, ["sheet 1:2", "sheet 2:10", "button 3:1", "button 4:9"])
    }
}
