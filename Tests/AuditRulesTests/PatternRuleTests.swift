import AuditModel
@testable import AuditRules
import SwiftGrammar
import TreeSitter
import XCTest

/// Pattern rules: Swift code with metavariables, matched by shape, rewritten token by token.
final class PatternRuleTests: XCTestCase {
    private func rules(_ body: String) throws -> RuleSet {
        try RuleSetLoader.load(text: "version: 1\nrules:\n" + body, file: "team.yml")
    }

    private func findings(_ code: String, _ ruleSet: RuleSet) throws -> [Finding] {
        let engine = RuleEngine(ruleSet: ruleSet)
        let analysis = engine.analyze(tree: try Parser().parse(SourceText(bytes: Array(code.utf8))), file: "V.swift")
        return engine.resolve(analysis, in: ProjectContext([analysis]))
    }

    private func fixed(_ code: String, _ ruleSet: RuleSet) throws -> String {
        var bytes = Array(code.utf8)
        for _ in 0..<8 {
            let found = try findings(String(decoding: bytes, as: UTF8.self), ruleSet).filter { !$0.edits.isEmpty }
            guard !found.isEmpty else { break }
            var taken: [Range<Int>] = []
            var edits: [TextEdit] = []
            for finding in found {
                let span = finding.start.byteOffset..<finding.end.byteOffset
                guard !taken.contains(where: { $0.overlaps(span) }) else { continue }
                taken.append(span)
                edits += finding.edits
            }
            var output = bytes
            for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                output.replaceSubrange(edit.range, with: Array(edit.text.utf8))
            }
            bytes = output
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private let foregroundColor = """
      - id: foreground-color
        kind: pattern
        match: $VIEW.foregroundColor($COLOR)
        replace: $VIEW.foregroundStyle($COLOR)
        fix: safe
        message: Use foregroundStyle.

    """

    func testAModifierIsFoundOnAnyReceiverAndNotInCommentsStringsOrOtherNames() throws {
        let ruleSet = try rules(foregroundColor)
        let code = """
        Text("a").foregroundColor(.red)
        List { Text("b") }
            .padding()
            .foregroundColor(Color.blue)
        // .foregroundColor(.red)
        let s = ".foregroundColor(.red)"
        let foregroundColor = 1
        x.foregroundColor()
        x.foregroundColor(.red, .blue)
        """
        let found = try findings(code, ruleSet)
        XCTAssertEqual(found.map { "\($0.start.line):\($0.start.column) \($0.replacement ?? "")" },
                       ["1:10 .foregroundStyle(.red)", "4:5 .foregroundStyle(Color.blue)"])
        XCTAssertEqual(found.map(\.fix), [.safe, .safe])
        XCTAssertEqual(found.map(\.symbol), ["foregroundColor", "foregroundColor"])
    }

    /// Only the tokens that change are rewritten: the receiver's trailing closure, comments, line
    /// breaks and the argument's own code stay byte for byte (ast-grep issue 573 loses trailing
    /// closures in such rewrites).
    func testTheRewriteKeepsEverythingThePatternDoesNotName() throws {
        let ruleSet = try rules(foregroundColor)
        let code = """
        VStack { // header
            Text("a")
        }
            .foregroundColor( // the colour
                isOn ? .green : .red)
        """
        XCTAssertEqual(try fixed(code, ruleSet), """
        VStack { // header
            Text("a")
        }
            .foregroundStyle( // the colour
                isOn ? .green : .red)
        """)
    }

    func testNestedMatchesAreAllRewrittenAndASecondFixChangesNothing() throws {
        let ruleSet = try rules(foregroundColor)
        let once = try fixed("Text(\"a\").foregroundColor(.red).foregroundColor(.blue)", ruleSet)
        XCTAssertEqual(once, "Text(\"a\").foregroundStyle(.red).foregroundStyle(.blue)")
        XCTAssertEqual(try fixed(once, ruleSet), once)
    }

    func testOneModifierSplitIntoTwoAndArgumentsAdded() throws {
        let ruleSet = try rules("""
          - id: title
            kind: pattern
            match: "$V.navigationBarTitle($T, displayMode: $M)"
            replace: $V.navigationTitle($T).navigationBarTitleDisplayMode($M)
            fix: safe
            message: m
          - id: edges
            kind: pattern
            match: $V.edgesIgnoringSafeArea($E)
            replace: "$V.ignoresSafeArea(edges: $E)"
            fix: safe
            message: m

        """)
        XCTAssertEqual(try fixed("List {}.navigationBarTitle(\"S\", displayMode: .inline)", ruleSet),
                       "List {}.navigationTitle(\"S\").navigationBarTitleDisplayMode(.inline)")
        XCTAssertEqual(try fixed("Color.red.edgesIgnoringSafeArea(.top)", ruleSet), "Color.red.ignoresSafeArea(edges: .top)")
    }

    func testARepeatedMetavariableMustBindTheSameCode() throws {
        let ruleSet = try rules("""
          - id: same
            kind: pattern
            match: max($A, $A)
            replace: $A
            fix: safe
            message: m

        """)
        XCTAssertEqual(try findings("let a = max(x, x)\nlet b = max(x, y)", ruleSet).map(\.start.line), [1])
    }

    /// A lone name is a use wherever it stands as a name (a call, a type), but not a declaration's own
    /// name nor a part of a longer word; at a node, the rule that names more code reports (see
    /// OneFindingPerNodeTests).
    func testALoneNameAndTheFirstRuleWins() throws {
        let ruleSet = try rules("""
          - id: all-edges
            kind: pattern
            match: $V.edgesIgnoringSafeArea(.all)
            replace: $V.ignoresSafeArea()
            fix: safe
            message: m
          - id: some-edges
            kind: pattern
            match: $V.edgesIgnoringSafeArea($E)
            replace: "$V.ignoresSafeArea(edges: $E)"
            fix: safe
            message: m
          - id: navigation-view
            kind: pattern
            match: NavigationView
            replace: NavigationStack
            fix: unsafe
            message: m

        """)
        let code = """
        c.edgesIgnoringSafeArea(.all)
        c.edgesIgnoringSafeArea(.top)
        NavigationView { Text("a") }
        let v: NavigationView<Text>
        struct NavigationView {}
        MyNavigationView()
        """
        XCTAssertEqual(try findings(code, ruleSet).map { "\($0.ruleId) \($0.start.line)" },
                       ["all-edges 1", "some-edges 2", "navigation-view 3", "navigation-view 4"])
    }

    func testBadPatternsGiveLocatedErrors() {
        let cases: [(body: String, line: Int, fragment: String)] = [
            ("  - id: a\n    kind: pattern\n    match: 'foo(('\n    message: m\n", 5, "does not parse as Swift"),
            ("  - id: a\n    kind: pattern\n    match: 'a; b'\n    message: m\n", 5, "one Swift expression"),
            ("  - id: a\n    kind: pattern\n    match: $X.y($Z)\n    replace: $X.z($W)\n    fix: safe\n    message: m\n", 6, "uses $W, which the match does not bind"),
            ("  - id: a\n    kind: pattern\n    match: $X\n    message: m\n", 5, "only metavariables"),
            ("  - id: a\n    kind: pattern\n    match: a.b()\n    fix: safe\n    message: m\n", 6, "no 'replace'"),
            ("  - id: a\n    kind: pattern\n    message: m\n", 3, "needs 'match'"),
            ("  - id: a\n    kind: pattern\n    match: a.b()\n    message: m\n    examples:\n      match: ['a.b()']\n", 8, "needs a ↓"),
            ("  - id: a\n    kind: pattern\n    match: a.b()\n    message: m\n    examples:\n      matches: ['↓a.b()']\n", 8, "unknown key 'matches'"),
        ]
        assertLocatedErrors(cases.map { ("version: 1\nrules:\n" + $0.body, $0.line, $0.fragment) })
    }

    /// The select step hears of a pattern's first name: a file that uses it in code is parsed.
    func testAPatternsNameIsWhatSelectionLooksFor() throws {
        let needs = try rules(foregroundColor).selectionNeeds
        XCTAssertTrue(needs.codeNames.contains("foregroundColor"))
        XCTAssertNil(needs.determinateLabels["foregroundColor"])
    }

    /// `$$$NAME` takes any run of arguments or statements, none included, and keeps them byte for byte.
    func testAVariadicMetavariableTakesTheRestOfAList() throws {
        let ruleSet = try rules("""
          - id: old-card
            kind: pattern
            match: OldCard($$$ARGS) { $$$CONTENT }
            replace: Card($$$ARGS) { $$$CONTENT }.cardStyle(.legacy)
            fix: safe
            message: m
          - id: log
            kind: pattern
            match: log($$$ARGS)
            replace: logger.debug($$$ARGS)
            fix: safe
            message: m

        """)
        XCTAssertEqual(try fixed("""
        OldCard(title: "a", // the title
                style: .plain) {
            Text("one")
            Text("two")
        }
        OldCard() {}
        log()
        log("x", 1)
        """, ruleSet), """
        Card(title: "a", // the title
                style: .plain) {
            Text("one")
            Text("two")
        }.cardStyle(.legacy)
        Card() {}.cardStyle(.legacy)
        logger.debug()
        logger.debug("x", 1)
        """)
    }

    /// A value table turns a metavariable's code into other code; a value it does not cover makes the
    /// finding manual, saying why, and nothing is rewritten.
    func testAValueTableMapsValuesAndLeavesTheOthersToAPerson() throws {
        let ruleSet = try rules("""
          - id: edges
            kind: pattern
            match: $V.edgesIgnoringSafeArea($EDGES)
            replace: $V.ignoresSafeArea($EDGES)
            values:
              EDGES: {".all": "", ".top": "edges: .top", "[.top, .bottom]": "edges: .vertical"}
            fix: safe
            message: Use ignoresSafeArea.

        """)
        XCTAssertEqual(try fixed("a.edgesIgnoringSafeArea(.all)\nb.edgesIgnoringSafeArea(.top)\nc.edgesIgnoringSafeArea([.top, .bottom])\nd.edgesIgnoringSafeArea(edges)", ruleSet),
                       "a.ignoresSafeArea()\nb.ignoresSafeArea(edges: .top)\nc.ignoresSafeArea(edges: .vertical)\nd.edgesIgnoringSafeArea(edges)")
        let uncovered = try XCTUnwrap(try findings("d.edgesIgnoringSafeArea(edges)", ruleSet).first)
        XCTAssertEqual(uncovered.fix, .manual)
        XCTAssertNil(uncovered.replacement)
        XCTAssertEqual(uncovered.message, "Use ignoresSafeArea. ($EDGES is edges, which the rule's table does not cover: a person decides)")
    }

    /// `nearest:` maps any number literal to the code of the nearest number (a tie to the smaller),
    /// exact entries first; `""` is what an empty `$$$` list becomes (an argument left out). Anything
    /// else (a name, an expression) is still for a person.
    func testANumericTableMapsANumberToTheNearestAndEmptyArgumentsToTheirDefault() throws {
        let ruleSet = try rules("""
          - id: spinner-size
            kind: pattern
            match: 'ThemedSpinner(size: $SIZE)'
            replace: 'LoadingSpinner(size: $SIZE)'
            values:
              SIZE:
                nearest: {16: .small, 24: .medium, 40: .large}
                "0": .medium
            fix: safe
            message: Use LoadingSpinner.
          - id: bar
            kind: pattern
            match: Bar($$$ARGS)
            replace: NewBar($$$ARGS)
            values:
              ARGS: {"": "style: .plain", "compact: true": "style: .compact"}
            fix: safe
            message: Use NewBar.

        """)
        XCTAssertEqual(try fixed("""
            ThemedSpinner(size: 20)
            ThemedSpinner(size: 30)
            ThemedSpinner(size: 32)
            ThemedSpinner(size: 1_000)
            ThemedSpinner(size: 12.5)
            ThemedSpinner(size: 0)
            ThemedSpinner(size: side)
            Bar()
            Bar(compact: true)
            Bar(compact: flag)
            """, ruleSet), """
            LoadingSpinner(size: .small)
            LoadingSpinner(size: .medium)
            LoadingSpinner(size: .medium)
            LoadingSpinner(size: .large)
            LoadingSpinner(size: .small)
            LoadingSpinner(size: .medium)
            ThemedSpinner(size: side)
            NewBar(style: .plain)
            NewBar(style: .compact)
            Bar(compact: flag)
            """)
        let uncovered = try findings("ThemedSpinner(size: side * 2)", ruleSet)
        XCTAssertEqual(uncovered.map(\.fix), [.manual])
        XCTAssertEqual(uncovered.first?.message, "Use LoadingSpinner. ($SIZE is side * 2, which the rule's table does not cover: a person decides)")
        XCTAssertEqual(ValueTable.number("1_000"), 1000)
        XCTAssertEqual(ValueTable.number("-2.5"), -2.5)
        XCTAssertNil(ValueTable.number("size"))
        XCTAssertNil(ValueTable.number("0x10"))
    }

    /// A value's code may use the match's other metavariables, written as their code: the rewrite
    /// then keeps that code (it is not dropped, the fix stays safe); a number key matches any literal of
    /// that number, and ranges (`..<0.8`, `0.8..<1.5`, `1.5...`) map numbers, the first that holds one.
    func testAValueTableUsesOtherMetavariablesNumbersAndRanges() throws {
        let ruleSet = try rules("""
          - id: titled-spinner
            kind: pattern
            match: 'OldSpinner($TITLE, style: $STYLE)'
            replace: 'LoadingSpinner($STYLE)'
            values:
              STYLE:
                .inline: 'size: .small, label: $TITLE'
                .banner: 'size: .large, label: $TITLE'
                .bare: 'size: .medium'
            fix: safe
            message: Use LoadingSpinner.
          - id: scaled
            kind: pattern
            match: 'OldSpinner().scaleEffect($K)'
            replace: 'LoadingSpinner(size: $K)'
            values:
              K:
                "1": .medium
                ..<0.9: .small
                0.9..<1.6: .medium
                1.6...: .large
            fix: safe
            message: Use LoadingSpinner.

        """)
        XCTAssertEqual(try fixed("""
            OldSpinner("Saving", style: .inline)
            OldSpinner(title, style: .banner)
            OldSpinner("Syncing", style: .bare)
            OldSpinner().scaleEffect(1.0)
            OldSpinner().scaleEffect(0.6)
            OldSpinner().scaleEffect(1.5)
            OldSpinner().scaleEffect(1.6)
            OldSpinner().scaleEffect(2)
            OldSpinner().scaleEffect(k)
            """, ruleSet), """
            LoadingSpinner(size: .small, label: "Saving")
            LoadingSpinner(size: .large, label: title)
            LoadingSpinner(size: .medium)
            LoadingSpinner(size: .medium)
            LoadingSpinner(size: .small)
            LoadingSpinner(size: .medium)
            LoadingSpinner(size: .large)
            LoadingSpinner(size: .large)
            OldSpinner().scaleEffect(k)
            """)
        let found = try findings("OldSpinner(\"Saving\", style: .inline)\nOldSpinner(\"Syncing\", style: .bare)", ruleSet)
        XCTAssertEqual(found.map(\.fix), [.safe, .unsafe], "a value that does not use $TITLE drops it")
        XCTAssertEqual(found.map(\.replacement), ["LoadingSpinner(size: .small, label: \"Saving\")", "LoadingSpinner(size: .medium)"])
        XCTAssertEqual(found.last?.message, "Use LoadingSpinner. (the rewrite drops $TITLE (\"Syncing\"))")
        XCTAssertEqual(NumberRange("0.8..<1.5")?.contains(1.5), false)
        XCTAssertEqual(NumberRange("0.5...1")?.contains(1), true)
        XCTAssertEqual(ValueTable.substitute("a: $A, b: $$$B, c: $0, d: $lower", { $0 == "A" ? "x" : $0 == "B" ? "y, z" : nil }), "a: x, b: y, z, c: $0, d: $lower")

        let head = "version: 1\nrules:\n  - id: a\n    kind: pattern\n    match: f($X, $Y)\n    replace: g($X)\n    fix: safe\n    message: m\n    values:\n      X:\n"
        assertLocatedErrors([
            (head + "        a: 'h($Z)'\n", 11, "uses $Z, which the match does not bind"),
            (head + "        2..<1: b\n", 11, "the range 2..<1 in the table of '$X' holds no number"),
            (head + "        1..<: b\n", 11, "is not a range of numbers"),
            (head + "        20: a\n        20.0: b\n", 12, "the number 20.0 appears twice"),
        ])
    }

    /// A replacement that leaves out a metavariable's code drops it: the fix is unsafe, saying what
    /// goes, unless the rule declares it droppable; an empty `$$$` drops nothing.
    func testDroppingCodeMakesTheFixUnsafeUnlessDeclaredDroppable() throws {
        let ruleSet = try rules("""
          - id: badge
            kind: pattern
            match: 'OldBadge($TEXT, tint: $TINT)'
            replace: 'Badge($TEXT)'
            fix: safe
            message: Use Badge.
          - id: card
            kind: pattern
            match: 'OldCard($$$ARGS)'
            replace: 'Card()'
            fix: safe
            message: Use Card.
          - id: chip
            kind: pattern
            match: 'OldChip($TEXT, shadow: $SHADOW)'
            replace: 'Chip($TEXT)'
            droppable-arguments: [SHADOW]
            fix: safe
            message: Use Chip.

        """)
        let badge = try XCTUnwrap(try findings(#"OldBadge("New", tint: .red)"#, ruleSet).first)
        XCTAssertEqual(badge.fix, .unsafe)
        XCTAssertEqual(badge.message, "Use Badge. (the rewrite drops $TINT (.red))")
        XCTAssertEqual(try findings("OldCard(style: .wide)", ruleSet).map(\.fix), [.unsafe])
        XCTAssertEqual(try findings("OldCard()", ruleSet).map(\.fix), [.safe])
        XCTAssertEqual(try findings(#"OldChip("A", shadow: 2)"#, ruleSet).map(\.fix), [.safe])
        assertLocatedErrors([("version: 1\nrules:\n  - id: a\n    kind: pattern\n    match: f($X, $Y)\n    replace: g($X, $Y)\n    droppable-arguments: [Y]\n    fix: safe\n    message: m\n",
                              7, "'$Y' is not a metavariable of the match that the replacement leaves out")])
    }

    func testBadValueTablesAndVariadicsGiveLocatedErrors() {
        let head = "  - id: a\n    kind: pattern\n    match: $V.f($X)\n    replace: $V.g($X)\n    fix: safe\n    message: m\n"
        let cases: [(body: String, line: Int, fragment: String)] = [
            (head + "    values:\n      Y: {a: b}\n", 10, "'$Y' is not a metavariable of the match"),
            (head + "    values:\n      X:\n        a: b\n        a: c\n", 12, "'a' appears twice in the table of '$X'"),
            (head + "    values:\n      X:\n        nearest: {16: a, big: b}\n", 11, "'big' in the 'nearest' table of '$X' is not a number"),
            (head + "    values:\n      X:\n        nearest: {16: a, 16.0: b}\n", 11, "16.0 appears twice in the 'nearest' table of '$X'"),
            ("  - id: a\n    kind: pattern\n    match: f($$$A, $$$B)\n    message: m\n", 5, "two $$$ metavariables in one list"),
        ]
        assertLocatedErrors(cases.map { ("version: 1\nrules:\n" + $0.body, $0.line, $0.fragment) })
    }
}

/// The spec's size table as data: small "inline with text, buttons". A component rule's `size`
/// may name places that decide the size when nothing in the call does (here in the older spelling,
/// `label-of` and `beside`/`within`, which still loads as the relations it stands for).
final class SizeByContextTests: XCTestCase {
    private let rules = """
    version: 1
    sizes:
      points: {small: 16, medium: 24, large: 40}
      control-size: {small: small, regular: medium, large: large}
    rules:
      - id: raw-spinner
        component: Spinner
        message: Use LoadingSpinner.
        replacement: "LoadingSpinner(size: .{size})"
        fix: safe
        absorb-modifiers: [controlSize]
        size:
          argument: size
          control-size-modifier: controlSize
          default: medium
          context:
            - label-of: [Button]
              size: small
              why: a button's label is inline
            - beside: [Text, Label]
              within: [HStack]
              size: small
              why: inline with text
    """

    private func findings(_ code: String) throws -> [String] {
        let ruleSet = try RuleSet.load(text: rules, file: "team.yml")
        let engine = RuleEngine(ruleSet: ruleSet)
        let analysis = engine.analyze(tree: try Parser().parse(SourceText(bytes: Array(code.utf8))), file: "V.swift")
        return engine.resolve(analysis, in: ProjectContext([analysis])).map { "\($0.start.line) \($0.replacement ?? "-") \($0.fix.rawValue) \($0.message)" }
    }

    func testThePlaceDecidesTheSizeOnlyWhenTheCallDoesNot() throws {
        XCTAssertEqual(try findings("""
        Button(action: save) { Spinner() }
        HStack { Text("Saving"); Spinner() }
        HStack {
            Spinner()
                .padding()
            Label("Syncing", systemImage: "arrow.clockwise")
        }
        VStack { Text("Saving"); Spinner() }
        HStack { Image("logo"); Spinner() }
        Button(action: save) { Spinner(size: 40) }
        HStack { Text("Saving"); Spinner().controlSize(.large) }
        Spinner()
        """), [
            "1 LoadingSpinner(size: .small) safe Use LoadingSpinner. (.small: a button's label is inline)",
            "2 LoadingSpinner(size: .small) safe Use LoadingSpinner. (.small: inline with text)",
            "4 LoadingSpinner(size: .small) safe Use LoadingSpinner. (.small: inline with text)",
            "8 LoadingSpinner(size: .medium) safe Use LoadingSpinner.",
            "9 LoadingSpinner(size: .medium) safe Use LoadingSpinner.",
            "10 LoadingSpinner(size: .large) safe Use LoadingSpinner.",
            "11 LoadingSpinner(size: .large) safe Use LoadingSpinner.",
            "12 LoadingSpinner(size: .medium) safe Use LoadingSpinner.",
        ])
    }

    func testAPlaceMustBeOneOrTheOther() {
        let bad = rules.replacingOccurrences(of: "        - beside: [Text, Label]\n          within: [HStack]\n", with: "        - beside: [Text, Label]\n")
        XCTAssertNotEqual(bad, rules)
        XCTAssertThrowsError(try RuleSet.load(text: bad, file: "team.yml")) { error in
            XCTAssertTrue("\(error)".contains("'beside' needs 'within'"), "\(error)")
        }
    }

    /// The facts the loading table used to keep in Swift are the file's: the forms that named them
    /// implicitly are errors that say what to write instead; a size context needs a relation and a
    /// size of the table; a scale modifier needs the diameter it multiplies.
    func testTheOlderImplicitFormsAndBadContextsGiveLocatedErrors() {
        let head = """
        version: 1
        sizes:
          points: {small: 16, medium: 24}
        rules:
          - id: a
            component: Spinner
            message: m
            replacement: "LoadingSpinner(size: .{size}[, label: {label}])"
            fix: safe

        """
        assertLocatedErrors([
            (head + "    size: {default: medium, modifiers: true}\n", 10, "'modifiers' is no longer read: name the size modifiers"),
            (head + "    size: {default: medium, scale-modifier: scaleEffect}\n", 10, "scale-modifier needs 'scale-points'"),
            (head + "    size: {default: medium, scale-modifier: scaleEffect, scale-points: 0}\n", 10, "scale-points must be more than 0"),
            (head + "    size:\n      default: medium\n      context:\n        - {size: small, why: x}\n", 13, "a size context says where it applies"),
            (head + "    size:\n      default: medium\n      context:\n        - {size: tiny, inside: Button}\n", 13, "size 'tiny' is not one of the sizes: small, medium"),
            (head + "    size:\n      default: medium\n      context:\n        - {size: small, inside: 'Button('}\n", 13, "inside: the pattern 'Button(' does not parse"),
            (head + "    size: {default: medium}\n    label: {closures: true}\n", 11, "label closures: true is no longer read"),
            (head + "    size: {default: medium}\n    label: {text-calls: ['String(localized)']}\n", 11, "'String(localized)' is not a call's name"),
            (head + "    size: {default: medium}\n    label: {arguments: [_]}\n    determinate: {progress-like-argument: true}\n", 12, "progress-like-argument: true is no longer read"),
            (head + "    size: {default: medium}\n    label: {arguments: [_]}\n    determinate: {progress-like-argument: {except-endings: [label]}}\n", 12, "needs 'calls' or 'names-containing'"),
        ])
    }
}
