import Audit
import AuditRules
import LoadAuditTestSupport
import Foundation
import XCTest

/// The examples rules carry in their file: the built-in ones pass, and every kind of wrong example fails.
final class RuleExampleChecksTests: XCTestCase {
    func testTheBuiltInRulesFilesExamplesPass() throws {
        for name in RuleSet.builtInNames {
            let ruleSet = try XCTUnwrap(try RuleSet.builtIn(named: name))
            let outcome = try RuleExampleChecks.run(ruleSet)
            XCTAssertEqual(outcome.failures.map(\.description), [], name)
            if name == "swiftui-deprecations" {
                XCTAssertEqual(outcome.rulesWithExamples, ruleSet.rules.count, "every SwiftUI rule has examples")
                XCTAssertGreaterThan(outcome.checks, 50)
            }
            if name == "loading-migration" {
                // The migration table's examples, each label, size, style and lowered fix among them.
                XCTAssertGreaterThan(outcome.checks, 400)
            }
        }
    }

    func testEachKindOfWrongExampleFails() throws {
        let ruleSet = try RuleSet.load(text: """
        version: 1
        rules:
          - id: foreground-color
            kind: pattern
            match: $VIEW.foregroundColor($COLOR)
            replace: $VIEW.foregroundStyle($COLOR)
            fix: safe
            message: m
            examples:
              match:
                - '↓Text("a").foregroundColor(.red)'
              no-match:
                - 'Text("a").foregroundColor(.blue)'
              fix:
                - before: 'Text("a").foregroundColor(.red)'
                  after: 'Text("a").foregroundStyle(.blue)'
                - before: 'Text("a").foregroundColor(.red)'
                  after: 'Text("a").foregroundStyle(.red)'
                  class: unsafe
                - {before: 'Text("a")', class: manual}
          - id: grows
            kind: pattern
            match: $V.grow()
            replace: $V.grow().grow()
            fix: safe
            message: m
            examples:
              fix:
                - before: 'x.grow()'
                  after: 'x.grow().grow()'
        """, file: "team.yml")
        let failures = try RuleExampleChecks.run(ruleSet).failures
        XCTAssertEqual(failures.map { "\($0.ruleId): \($0.example): \($0.problem)" }, [
            "foreground-color: match 1: the findings are not where the markers are",
            "foreground-color: match 1, after a line of non-ASCII text: the findings moved or changed",
            "foreground-color: no-match 1: 1 finding where none belongs",
            "foreground-color: fix 1: the fix gives other code",
            "foreground-color: fix 2: the fix class is safe, not unsafe",
            "foreground-color: fix 3: no finding of the rule, of class manual or any other",
            "grows: fix 1: the rewrite did not settle after 8 passes",
        ])
        XCTAssertEqual(failures[0].actual, #"Text("a")↓.foregroundColor(.red)"#)
        XCTAssertEqual(failures[3].actual, #"Text("a").foregroundStyle(.red)"#)
    }
}

/// Issue 45: a team's module-keyed rules file with natural examples passes; `after` is compared
/// without the imports a fix adds, and `imports:` checks them.
final class RuleExampleImportsTests: XCTestCase {
    func testTheTeamRulesFilePasses() throws {
        let url = RepositoryFolder.root.appendingPathComponent("fixtures/team-rules/notices.yml")
        let ruleSet = try RuleSet.load(text: try String(contentsOf: url, encoding: .utf8), file: "notices.yml")
        let outcome = try RuleExampleChecks.run(ruleSet)
        XCTAssertEqual(outcome.failures.map(\.description), [])
        XCTAssertEqual(outcome.rulesWithExamples, 2)
    }

    func testImportsTheFixAddsAreLeftOutOfAfterAndCheckedByImports() throws {
        let ruleSet = try RuleSet.load(text: """
        version: 1
        rules:
          - id: toast
            kind: pattern
            match: 'AKToast(text: $TEXT)'
            replace: 'Toast($TEXT)'
            replacement-module: Notices
            fix: safe
            message: m
            examples:
              fix:
                - before: 'AKToast(text: "a")'
                  after: 'Toast("a")'
                - before: "import SwiftUI\\n\\nlet t = AKToast(text: \\"a\\")\\n"
                  after: "import SwiftUI\\n\\nlet t = Toast(\\"a\\")\\n"
                  imports: [Notices]
                - before: "import SwiftUI\\n\\nlet t = AKToast(text: \\"a\\")\\n"
                  after: "import SwiftUI\\nimport Notices\\n\\nlet t = Toast(\\"a\\")\\n"
                - before: 'AKToast(text: "a")'
                  after: 'Toast("a")'
                  imports: [DesignSystem]
                - before: "import Notices\\nlet t = AKToast(text: \\"a\\")\\n"
                  after: "import Notices\\nlet t = Toast(\\"a\\")\\n"
                  imports: [Notices]
        """, file: "team.yml")
        let failures = try RuleExampleChecks.run(ruleSet).failures
        XCTAssertEqual(failures.map { "\($0.example): \($0.problem)" }, [
            "fix 4: the fix adds import Notices, not import DesignSystem",
            "fix 5: the fix adds none, not import Notices",
        ])
    }
}
