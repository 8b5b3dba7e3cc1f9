import AuditModel
@testable import AuditRules
import SwiftGrammar
import TreeSitter
import XCTest

/// Rules that see where code sits: `inside`, `not-inside`, `has`, `not-has`, with `stop-by`.
final class RelationalRuleTests: XCTestCase {
    private func rules(_ body: String) throws -> RuleSet {
        try RuleSetLoader.load(text: "version: 1\nrules:\n" + body, file: "team.yml")
    }

    private func findings(_ code: String, _ ruleSet: RuleSet) throws -> [Finding] {
        let engine = RuleEngine(ruleSet: ruleSet)
        let analysis = engine.analyze(tree: try Parser().parse(SourceText(bytes: Array(code.utf8))), file: "V.swift")
        return engine.resolve(analysis, in: ProjectContext([analysis]))
    }

    /// `line:column rule` of each finding.
    private func found(_ code: String, _ ruleSet: RuleSet) throws -> [String] {
        try findings(code, ruleSet).map { "\($0.start.line):\($0.start.column) \($0.ruleId)" }
    }

    /// The relations of a pattern rule (`spinnerRule`'s kind).
    private func relations(_ rule: Rule) throws -> [SwiftRelation] {
        let pattern: PatternRule? = if case .pattern(let pattern) = rule.matcher { pattern } else { nil }
        return try XCTUnwrap(pattern, "\(rule.id) is not compiled into its pattern case").relations
    }

    private func spinnerRule(_ id: String = "spinner", _ relations: String) -> String {
        """
          - id: \(id)
            kind: pattern
            match: ProgressView()
            message: m
        \(relations.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))

        """
    }

    /// By default a relation looks as far as the nearest closure and the call it belongs to: a spinner
    /// in a List's loading branch is inside the List, one in a Button label inside a List is inside the
    /// Button only. `stop-by: end` looks at every ancestor.
    func testInsideLooksUpToTheNearestClosureUnlessStopByEnd() throws {
        let code = """
        List {
            if isLoading {
                ProgressView()
            } else {
                ForEach(items) { Text($0.name) }
            }
        }
        List {
            Button { reload() } label: { ProgressView() }
        }
        ProgressView()
        """
        XCTAssertEqual(try found(code, rules(spinnerRule("in-list", "inside: List"))), ["3:9 in-list"])
        XCTAssertEqual(try found(code, rules(spinnerRule("in-list", "inside: {pattern: List, stop-by: end}"))), ["3:9 in-list", "9:34 in-list"])
        XCTAssertEqual(try found(code, rules(spinnerRule("not-in-list", "not-inside: List"))), ["9:34 not-in-list", "11:1 not-in-list"])
    }

    /// A lone name stands for a call of it, in any form, and a node is inside the call only when it
    /// is in its arguments or closures: the rows of `List { ... }.toolbar { ... }` are not in the toolbar.
    func testALoneNameIsACallAndItsReceiverIsNotInsideIt() throws {
        let ruleSet = try rules(spinnerRule("in-toolbar", "inside: {pattern: [toolbar, ToolbarItem], stop-by: end}")
                                + spinnerRule("in-button", "inside: {pattern: Button, stop-by: end}"))
        let code = """
        List {
            ProgressView()
        }
        .toolbar {
            ToolbarItem(placement: .primaryAction) { ProgressView() }
        }
        .toolbar { if isSyncing { ProgressView() } }
        Button(action: save, label: { ProgressView() })
        Button("Export") { export() }
            .sheet(isPresented: $exporting) { ProgressView() }
        """
        XCTAssertEqual(try found(code, ruleSet), ["5:46 in-toolbar", "7:27 in-toolbar", "8:31 in-button"])
    }

    /// `has` looks into the node's own closures (not into closures nested deeper) unless `stop-by:
    /// end`; a relation's own relations are about the node it found: "inside an HStack that has a Text".
    func testHasAndNestedRelations() throws {
        let beside = spinnerRule("beside-text", """
        inside:
          pattern: [HStack, Label]
          has: [Text, TextField]
        """)
        let code = """
        HStack { ProgressView(); Text("Verifying code") }
        HStack(spacing: 4) {
            if checking { ProgressView() }
            TextField("Code", text: $code)
        }
        HStack { Spacer(); ProgressView(); Spacer() }
        HStack { ProgressView(); VStack { Text("deep") } }
        Label { Text("Syncing") } icon: { ProgressView() }
        HStack { ProgressView { Text("Loading") } }
        """
        XCTAssertEqual(try found(code, rules(beside)), ["1:10 beside-text", "3:19 beside-text", "8:35 beside-text"])
        let deep = spinnerRule("beside-text", """
        inside:
          pattern: HStack
          has: {pattern: Text, stop-by: end}
        """)
        XCTAssertEqual(try found(code, rules(deep)), ["1:10 beside-text", "7:10 beside-text"])
        let alone = spinnerRule("alone", """
        inside:
          pattern: HStack
          not-has: [Text, TextField]
        """)
        XCTAssertEqual(try found(code, rules(alone)), ["6:20 alone", "7:10 alone"])
    }

    /// A pattern in a relation matches as a rule's match does; a declaration bounds the closure
    /// search, so a spinner directly in `body` is inside `var body: some View { ... }`, one in a
    /// closure of it is not (without `stop-by: end`).
    func testAPatternAndADeclarationInARelation() throws {
        let ruleSet = try rules(spinnerRule("screen", "inside: 'var body: some View { $$$CONTENT }'")
                                + spinnerRule("scaled", "inside: '$VIEW.scaleEffect($K)'"))
        let code = """
        struct TripsScreen: View {
            var body: some View {
                if model.isLoading {
                    ProgressView()
                } else {
                    VStack { ProgressView().scaleEffect(0.6) }
                }
            }
            var footer: some View { ProgressView() }
        }
        """
        XCTAssertEqual(try found(code, ruleSet), ["4:13 screen", "6:22 scaled"])
    }

    /// A list may hold mappings: any branch will do, each with its own reach and conditions. `kind`
    /// looks for a node kind of the grammar (`if_statement`), as `loadaudit syntax` prints them.
    func testBranchesAndNodeKinds() throws {
        let ruleSet = try rules(spinnerRule("content", """
        inside:
          - List
          - {pattern: Section, inside: List}
          - kind: [if_statement, switch_statement]
            inside: 'var body: some View { $$$CONTENT }'
        """))
        let code = """
        struct Screen: View {
            var body: some View {
                if isLoading {
                    ProgressView()
                } else {
                    List {
                        ProgressView()
                        Section { ProgressView() }
                    }
                    Form { Section { ProgressView() } }
                }
            }
            var badge: some View { ProgressView() }
        }
        """
        XCTAssertEqual(try found(code, ruleSet), ["4:13 content", "7:17 content", "8:27 content"])
        XCTAssertEqual(try relations(ruleSet.rules[0])[0].description,
                       "inside List, or Section that is inside List, or if_statement or switch_statement that is inside var body: some View { $$$CONTENT }")
        assertLocatedErrors([("version: 1\nrules:\n" + spinnerRule("a", "inside: {kind: if_stmt}"), 7, "inside kind: 'if_stmt' is not a node kind of the Swift grammar")])
    }

    /// A finding is the matched code only: its span, snippet and scope do not change when the code
    /// around it does (a Section added, a row added before it), so neither does its fingerprint.
    func testTheFindingIsTheMatchedNodeOnly() throws {
        let ruleSet = try rules(spinnerRule("content", "inside: [List, Section]"))
        let before = try XCTUnwrap(try findings("""
        struct Trips: View {
            var body: some View {
                List {
                    if isLoading { ProgressView() }
                    ForEach(trips) { TripRow($0) }
                }
            }
        }
        """, ruleSet).first)
        let after = try XCTUnwrap(try findings("""
        struct Trips: View {
            var body: some View {
                List {
                    Section("Upcoming") {
                        Text("Pull to refresh")
                        if isLoading { ProgressView() }
                    }
                    Section("Past") { ForEach(past) { TripRow($0) } }
                }
            }
        }
        """, ruleSet).first)
        XCTAssertEqual(before.snippet, "ProgressView()")
        XCTAssertEqual(before.end.byteOffset - before.start.byteOffset, "ProgressView()".utf8.count)
        XCTAssertEqual([after.snippet, after.scope, after.symbol, after.ruleId], [before.snippet, before.scope, before.symbol, before.ruleId])
    }

    /// Component rules take the same keys: the use (the call) must sit where they say.
    func testAComponentRuleWithARelation() throws {
        let ruleSet = try rules("""
          - id: list-spinner
            component: ThemedSpinner
            inside: [List, LazyVStack]
            message: m

        """)
        XCTAssertEqual(try found("List { if a { ThemedSpinner(size: 20) } }\nVStack { ThemedSpinner() }\nLazyVStack { ThemedSpinner() }", ruleSet),
                       ["1:15 list-spinner", "3:14 list-spinner"])
    }

    /// Relations are part of what a rule matches: the cache and the gate see a change of them.
    func testRelationsAreInTheRulesMatchingKey() throws {
        let one = try rules(spinnerRule("s", "inside: List")), two = try rules(spinnerRule("s", "inside: {pattern: List, stop-by: end}"))
        XCTAssertNotEqual(one.matchingKey(of: one.rules[0]), two.matchingKey(of: two.rules[0]))
        XCTAssertEqual(try relations(one.rules[0]).first?.description, "inside List")
        XCTAssertEqual(try relations(try rules(spinnerRule("s", "inside: {pattern: [HStack, Label], has: Text, not-has: {pattern: Button, stop-by: end}}")).rules[0]).first?.description,
                       "inside HStack or Label that has Text and does not have Button (at any depth)")
    }

    func testBadRelationsGiveLocatedErrors() {
        let head = "  - id: a\n    kind: pattern\n    match: ProgressView()\n    message: m\n"
        let cases: [(body: String, line: Int, fragment: String)] = [
            (head + "    inside: 'List {'\n", 7, "inside: the pattern 'List {' does not parse as Swift"),
            (head + "    inside: $X\n", 7, "must name something concrete"),
            (head + "    has: []\n", 7, "has names no pattern"),
            (head + "    inside: {pattern: List, stop-by: parent}\n", 7, "inside stop-by is 'parent'; expected one of: closure, end"),
            (head + "    inside: {stop-by: end}\n", 7, "inside needs 'pattern'"),
            (head + "    inside: {pattern: List, within: VStack}\n", 7, "unknown key 'within' in inside"),
            (head + "    inside:\n      pattern: List\n      has: {pattern: 'Text(', stop-by: end}\n", 9, "has: the pattern 'Text(' does not parse"),
            ("  - id: a\n    kind: rotating-text\n    message: m\n    inside: List\n", 6, "'inside' does not apply to a rotating-text rule"),
        ]
        assertLocatedErrors(cases.map { ("version: 1\nrules:\n" + $0.body, $0.line, $0.fragment) })
    }
}

/// One finding per piece of code: when several rules report code starting at the same place, the
/// most specific reports it (more conditions on the context, then more code named), then the first
/// in the rules files' order.
final class OneFindingPerNodeTests: XCTestCase {
    private func findings(_ code: String, _ ruleSet: RuleSet) throws -> (found: [String], shadowed: [String]) {
        let engine = RuleEngine(ruleSet: ruleSet)
        let analysis = engine.analyze(tree: try Parser().parse(SourceText(bytes: Array(code.utf8))), file: "V.swift")
        let (findings, shadowed) = engine.resolveShowingShadowed(analysis, in: ProjectContext([analysis]))
        return (findings.map { "\($0.start.line):\($0.start.column) \($0.ruleId)" },
                shadowed.map { "\($0.finding.start.line):\($0.finding.start.column) \($0.finding.ruleId) by \($0.by.ruleId)" }.sorted())
    }

    func testTheMostSpecificRuleReportsThenTheFirstInOrder() throws {
        let ruleSet = try RuleSetLoader.load(text: """
        version: 1
        rules:
          - id: any-spinner
            kind: pattern
            match: ProgressView()
            message: m
          - id: also-any-spinner
            kind: pattern
            match: ProgressView()
            message: m
          - id: scaled-spinner
            kind: pattern
            match: ProgressView().scaleEffect($K)
            message: m
          - id: list-spinner
            kind: pattern
            match: ProgressView()
            inside: List
            message: m
        """, file: "team.yml")
        let code = """
        ProgressView()
        ProgressView().scaleEffect(2)
        List { ProgressView() }
        List { ProgressView().scaleEffect(0.5) }
        """
        let (found, shadowed) = try findings(code, ruleSet)
        XCTAssertEqual(found, ["1:1 any-spinner", "2:1 scaled-spinner", "3:8 list-spinner", "4:8 list-spinner"])
        XCTAssertEqual(shadowed, [
            "1:1 also-any-spinner by any-spinner",
            "2:1 any-spinner by scaled-spinner", "2:1 also-any-spinner by scaled-spinner",
            "3:8 any-spinner by list-spinner", "3:8 also-any-spinner by list-spinner",
            "4:8 any-spinner by list-spinner", "4:8 also-any-spinner by list-spinner", "4:8 scaled-spinner by list-spinner",
        ].sorted())
    }

    /// A team's rules merged with the built-in table: one finding per call, the team's rule (with a
    /// condition) reporting where it applies, the built-in one elsewhere; the label-style note on the
    /// label is about something else and stays.
    func testMergedFilesReportEachCallOnce() throws {
        var ruleSet = RuleSet.builtIn()
        try ruleSet.merge(RuleSetLoader.load(text: """
        version: 1
        rules:
          - id: content-spinner
            kind: pattern
            match: ProgressView($$$ARGS)
            inside: List
            message: Use a skeleton.
        """, file: "team.yml"), from: "team.yml")
        let code = """
        import SwiftUI
        struct V: View {
            var body: some View {
                List { ProgressView("Hang on") }
                ProgressView()
            }
        }
        """
        let (found, shadowed) = try findings(code, ruleSet)
        XCTAssertEqual(found, ["4:16 content-spinner", "4:29 loading-label-style", "5:9 raw-progress-view"])
        XCTAssertEqual(shadowed, ["4:16 raw-progress-view by content-spinner"])
    }
}
