import AuditModel
@testable import AuditRules
import XCTest
import LoadAuditTestSupport

final class RuleSetLoaderTests: XCTestCase {
    func testBuiltInRulesCoverTheWholeMigrationTable() {
        let ruleSet = RuleSet.builtIn()
        XCTAssertEqual(ruleSet.rules.map(\.id), [
            "themed-spinner", "themed-spinner-compact", "loading-dots", "placeholder-card", "planning-progress-view",
            "loading-overlay", "loading-trips-view", "loading-text-generator", "raw-progress-view",
            "uikit-activity-indicator", "rotating-loading-message", "loading-label-style",
        ])
        XCTAssertEqual(ruleSet.rules.map { rule in
            guard case .component(let component) = rule.matcher else { return "" }
            return component.name
        }, [
            "ThemedSpinner", "ThemedSpinnerCompact", "LoadingDots", "PlaceholderCard", "PlanningProgressView",
            "LoadingOverlay", "LoadingTripsView", "LoadingTextGenerator", "ProgressView", "UIActivityIndicatorView", "", "",
        ])
        XCTAssertEqual(ruleSet.rules.map(\.kind), Array(repeating: .component, count: 10) + [.rotatingText, .labelStyle])
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: ruleSet.rules.map { ($0.id, $0.fix) }), [
            "themed-spinner": .safe, "themed-spinner-compact": .safe, "loading-dots": .manual, "placeholder-card": .safe,
            "planning-progress-view": .safe, "loading-overlay": .safe, "loading-trips-view": .manual,
            "loading-text-generator": .manual, "raw-progress-view": .safe, "uikit-activity-indicator": .manual,
            "rotating-loading-message": .manual, "loading-label-style": .manual,
        ])
        XCTAssertEqual(ruleSet.newComponents, ["LoadingSpinner", "LoadingPlaceholder", "LoadingSheet"])
        XCTAssertEqual(Set(ruleSet.kept.keys), ["AnimatedRouteGraphic", "PulsingDot", "RoutePreviewStrip", "StatPill", "EmptyStateView"])
        XCTAssertEqual(ruleSet.sizes?.points.map(\.points), [16, 24, 40])
    }

    func testTheEmbeddedRulesAreTheRulesFile() throws {
        let repository = RepositoryFolder.root
        for (embedded, name) in [(BuiltInRules.loadingMigration, "loading-migration.yml"), (BuiltInRules.swiftuiDeprecations, "swiftui-deprecations.yml"), (BuiltInRules.skeletonFirst, "skeleton-first.yml")] {
            let file = try String(contentsOf: repository.appendingPathComponent("rules/" + name), encoding: .utf8)
            XCTAssertEqual(embedded + "\n", file, "run scripts/embed-rules after editing rules/\(name)")
        }
    }

    func testTemplatesRenderOptionalPartsOnlyWithTheirValues() throws {
        let template = try ReplacementTemplate("LoadingSpinner(size: .{size}[, label: {label}])")
        XCTAssertEqual(template.render([.size: "small"]), "LoadingSpinner(size: .small)")
        XCTAssertEqual(template.render([.size: "large", .label: #""Loading""#]), #"LoadingSpinner(size: .large, label: "Loading")"#)
        XCTAssertNil(template.render([.label: "x"]))
        XCTAssertEqual(template.requiredPlaceholders, [.size])
        XCTAssertEqual(try ReplacementTemplate(#"Array\[Int\]()"#).render([:]), "Array[Int]()")
    }

    func testTemplateMistakesAreRejected() {
        for bad in ["Spinner({sise})", "Spinner({size)", "Spinner(size: .{size}[, label: {label})", "Spinner([, plain])", "Spinner(x])", "x}"] {
            XCTAssertThrowsError(try ReplacementTemplate(bad), bad)
        }
    }

    /// Every mistake names the file, the line and what is wrong.
    func testAnUnknownKeyNamesTheClosestKeyFirst() {
        let yaml = """
        version: 1
        rules:
          - id: old-toast
            component: OldToast
            replacment-module: Notices
            message: Use Toast.
        """
        XCTAssertThrowsError(try RuleSet.load(text: yaml, file: "team.yml")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("team.yml:5:5: unknown key 'replacment-module' in a rule; did you mean 'replacement-module'? (known keys: "), message)
        }
        XCTAssertEqual(YAMLReader.unknownKey("colour", in: "the rules file", allowed: ["rules", "title"]),
                       "unknown key 'colour' in the rules file (known keys: rules, title)", "no guess when nothing is close")
        XCTAssertEqual(YAMLReader.editDistance("replacment-module", "replacement-module"), 1)
        XCTAssertEqual(YAMLReader.editDistance("", "abc"), 3)
        XCTAssertEqual(YAMLReader.editDistance("kitten", "sitting"), 3)
    }

    func testMalformedRulesFilesGiveLocatedErrors() {
        let header = "version: 1\nrules:\n"
        let cases: [(yaml: String, line: Int, fragment: String)] = [
            (header + "  - id: old-badge\n    component: OldBadge\n    mesage: typo\n", 5, "unknown key 'mesage'"),
            (header + "  - id: old-badge\n    component: OldBadge\n    message: m\n    severity: fatal\n", 6, "severity is 'fatal'"),
            (header + "  - id: old-badge\n    component: OldBadge\n    message: m\n    fix: safe\n", 6, "no replacement"),
            (header + "  - id: Old_Badge\n    component: OldBadge\n    message: m\n", 3, "lower-case"),
            (header + "  - id: old-badge\n    component: Old Badge\n    message: m\n", 4, "one Swift type name"),
            (header + "  - id: old-badge\n    component: OldBadge\n", 3, "needs 'message'"),
            (header + "  - id: old-badge\n    component: OldBadge\n    message: m\n    replacement: 'New({colour})'\n    fix: safe\n", 6, "unknown placeholder"),
            (header + "  - id: old-badge\n    component: OldBadge\n    message: m\n    replacement: 'New(size: .{size})'\n    fix: safe\n", 6, "no 'size' section"),
            (header + "  - id: a\n    component: A\n    message: m\n  - id: a\n    component: B\n    message: m\n", 6, "already defined"),
            ("version: 1\nkeep: [StatPill]\nrules:\n  - id: a\n    component: StatPill\n    message: m\n", 5, "never reported"),
            ("version: 2\nrules: []\n", 1, "unsupported rules format version"),
            ("version: 1\nrules:\n  - id: a\n    component: [A, B]\n    message: m\n", 4, "single value"),
            ("version: 1\nrules:\n  - id: a\n   component: A\n", 4, "YAML syntax"),
            ("version: 1\nsizes:\n  points: {small: 16}\n  control-size: {small: tiny}\nrules: []\n", 4, "not one of the sizes"),
            ("version: 1\nsizes:\n  points: {small: 16}\n  scale-below-one: small\nrules: []\n", 4, "'scale-below-one' is no longer read"),
            ("version: 1\n", 1, "no 'rules' list"),
        ]
        assertLocatedErrors(cases.map { ($0.yaml, $0.line, $0.fragment) })
    }

    func testRuleIdsAndComponentNamesAreCheckedByTheirShape() {
        for id in ["raw-progress-view", "a", "v2", "old-badge-2", "0"] { XCTAssertTrue(RuleSetLoader.isRuleId(id), id) }
        for id in ["", "-a", "a-", "a--b", "Old-badge", "old_badge", "old badge", "old-badgé", "a\n"] {
            XCTAssertFalse(RuleSetLoader.isRuleId(id), id)
        }
        for name in ["OldBadge", "_Private", "UIActivityIndicatorView", "Badge2", "a"] { XCTAssertTrue(RuleSetLoader.isTypeName(name), name) }
        for name in ["", "2Badge", "Old Badge", "Old.Badge", "Old-Badge", "Badgé", "Old[Badge]", "Old@Badge", "Old`", "Badge\n"] {
            XCTAssertFalse(RuleSetLoader.isTypeName(name), name)
        }
    }

    func testATeamCanWriteItsOwnRules() throws {
        let yaml = """
        version: 1
        new-components: [Badge]
        rules:
          - id: old-badge
            component: OldBadge
            severity: error
            message: OldBadge is gone; use Badge.
            replacement: 'Badge(style: .{size})'
            fix: safe
            size:
              argument: size
              default: regular
          - id: legacy-toast
            component: LegacyToast
            message: Toasts are gone.
            enabled: false
        sizes:
          points: {compact: 10, regular: 20}
        """
        let ruleSet = try RuleSetLoader.load(text: yaml, file: "team.yml")
        XCTAssertEqual(ruleSet.rules.map(\.id), ["old-badge"])
        let findings = try RuleHarness.findings("let a = OldBadge(size: 11)\nlet b = LegacyToast()\nlet c = Badge()\n", rules: ruleSet)
        XCTAssertEqual(findings.map(\.replacement), ["Badge(style: .compact)"])
        XCTAssertEqual(findings.map(\.severity), [.error])
    }

    /// Each rule is compiled into its kind's case, with the settings its file gives; a rule of another
    /// kind than `component` refuses the keys of the other kinds.
    func testEachKindIsCompiledIntoItsCaseWithItsSettings() throws {
        let ruleSet = try RuleSetLoader.load(text: """
            version: 1
            rules:
              - id: badge
                component: OldBadge
                replacement: Badge()
                fix: safe
                droppable-arguments: [tint]
                inside: List
                message: m
              - id: tint
                kind: pattern
                match: $VIEW.tint($COLOR, $OPACITY)
                replace: $VIEW.tint($COLOR)
                droppable-arguments: [$OPACITY]
                has: Text
                message: m
              - id: label
                kind: label-style
                components: [ProgressView]
                determinate: {arguments: [value]}
                message: m
              - id: rotating
                kind: rotating-text
                display-calls: [Text]
                clocks: {closures: [every]}
                message: m
            """, file: "team.yml")
        XCTAssertEqual(ruleSet.rules.map(\.kind), [.component, .pattern, .labelStyle, .rotatingText])
        guard case .component(let component) = ruleSet.rules[0].matcher, case .pattern(let pattern) = ruleSet.rules[1].matcher,
              case .labelStyle(let style) = ruleSet.rules[2].matcher, case .rotatingText(let vocabulary) = ruleSet.rules[3].matcher else {
            return XCTFail("a rule is not compiled into its kind's case: \(ruleSet.rules.map(\.matcher))")
        }
        XCTAssertEqual(component.name, "OldBadge")
        XCTAssertEqual(component.replacement?.source, "Badge()")
        XCTAssertEqual(component.droppableArguments, ["tint"])
        XCTAssertEqual(component.relations.map(\.description), ["inside List"])
        XCTAssertEqual(pattern.pattern.text, "$VIEW.tint($COLOR, $OPACITY)")
        XCTAssertEqual(pattern.rewrite?.text, "$VIEW.tint($COLOR)")
        XCTAssertEqual(pattern.droppableArguments, ["OPACITY"])
        XCTAssertEqual(pattern.relations.map(\.kind), [.has])
        XCTAssertEqual(style.components, ["ProgressView"])
        XCTAssertEqual(style.determinate?.arguments, ["value"])
        XCTAssertEqual(vocabulary.displayCalls, ["Text"])
        XCTAssertEqual(vocabulary.closureClocks, ["every": "every"])
        let head = "version: 1\nrules:\n  - id: r\n    message: m\n"
        assertLocatedErrors([
            (head + "    kind: pattern\n    match: X()\n    components: [X]\n", 7, "'components' does not apply to a pattern rule"),
            (head + "    kind: pattern\n    match: X()\n    replacement: Y()\n", 7, "'replacement' does not apply to a pattern rule"),
            (head + "    kind: label-style\n    components: [X]\n    match: X()\n", 7, "'match' does not apply to a label-style rule"),
            (head + "    kind: label-style\n    components: [X]\n    size: {default: small}\n", 7, "'size' does not apply to a label-style rule"),
            (head + "    kind: rotating-text\n    display-calls: [Text]\n    determinate: {arguments: [value]}\n", 7,
             "'determinate' does not apply to a rotating-text rule"),
            // A component rule (no `kind:`) refuses them too, and says which kind takes the key.
            (head + "    component: X\n    match: X()\n", 6, "'match' does not apply to a component rule; it is a key of kind: pattern rules"),
            (head + "    component: X\n    clocks: {closure: [every]}\n", 6, "'clocks' does not apply to a component rule; it is a key of kind: rotating-text rules"),
            (head + "    kind: component\n    component: X\n    label-pattern: x\n", 7, "'label-pattern' does not apply to a component rule (keys:"),
        ])
    }

    func testLoadingSeveralFilesMergesThemAndRejectsDuplicateIds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.yml").path
        let second = directory.appendingPathComponent("b.yml").path
        try "version: 1\nrules:\n  - id: a\n    component: A\n    message: m\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "version: 1\nrules:\n  - id: b\n    component: B\n    message: m\n".write(toFile: second, atomically: true, encoding: .utf8)
        XCTAssertEqual(try RuleSet.load(files: [first, second]).rules.map(\.id), ["a", "b"])
        XCTAssertThrowsError(try RuleSet.load(files: [first, first])) { error in
            XCTAssertTrue("\(error)".contains("already defined"), "\(error)")
        }
        XCTAssertThrowsError(try RuleSet.load(files: [directory.appendingPathComponent("missing.yml").path])) { error in
            XCTAssertTrue("\(error)".contains("missing.yml: cannot read the rules file"), "\(error)")
        }
    }

    /// Every mistake of a file is reported, each at its own line and column, with the text there:
    /// the loader reads on after a bad rule (issue 35, item 4).
    func testEveryMistakeOfAFileIsReportedAtItsOwnPlace() {
        let yaml = """
        version: 1
        colour: blue
        rules:
          - id: a
            kind: pattern
            match: foo(
            message: m
          - id: b
            component: B
            message: m
            severity: loud
          - id: c
            kind: pattern
            match: bar(1,
            replace: baz(
            fix: safe
            message: m
          - id: d
            component: D
            message: fine
          - id: d
            component: E
            message: m
          - id: e
            component: E
        """
        XCTAssertThrowsError(try RuleSet.load(text: yaml, file: "team.yml")) { error in
            guard let error = error as? RulesFileError else { return XCTFail("\(error)") }
            XCTAssertEqual("\(error.line ?? 0):\(error.column ?? 0)", "2:1", "the first mistake")
            XCTAssertEqual(error.description.split(separator: "\n"), [
                "team.yml:2:1: unknown key 'colour' in the rules file (known keys: findings-name, help-base-uri, keep, name, new-components, rules, sizes, title, version)",
                "team.yml:6:16: match does not parse as Swift: ')' is missing (near 'foo(')",
                "team.yml:11:15: severity is 'loud'; expected one of: note, warning, error",
                "team.yml:14:18: match does not parse as Swift: ')' is missing (near 'bar(1,')",
                "team.yml:15:18: replace does not parse as Swift: ')' is missing (near 'baz(')",
                "team.yml:21:9: rule id 'd' is already defined at team.yml:18",
                "team.yml:24:5: a rule needs 'message' (near 'id: e')",
            ])
        }
    }

    /// A fix example may give its findings' class; one without `after` needs it (the code stays as it is).
    func testAFixExamplesClass() throws {
        func load(_ fix: String) throws -> RuleSet {
            try RuleSet.load(text: "version: 1\nrules:\n  - id: a\n    component: A\n    message: m\n    examples:\n      fix:\n        - \(fix)\n", file: "team.yml")
        }
        let fixes = try load("{before: 'let a: A', class: manual}").rules[0].examples.fixes
        XCTAssertEqual(fixes.map(\.before), ["let a: A"])
        XCTAssertEqual(fixes.map(\.after), ["let a: A"])
        XCTAssertEqual(fixes.map(\.fixClass), [.manual])
        XCTAssertEqual(try load("{before: 'A()', after: 'B()'}").rules[0].examples.fixes.map(\.fixClass), [nil])
        XCTAssertThrowsError(try load("{before: 'A()', after: 'B()', class: maybe}")) { error in
            XCTAssertEqual("\(error)", "team.yml:8:48: a fix example's class is safe, unsafe or manual (near 'maybe')")
        }
        XCTAssertThrowsError(try load("{before: 'A()'}")) { error in
            XCTAssertEqual("\(error)", "team.yml:8:11: a fix example needs 'before' and 'after' (or, for code the fix leaves as it is, a 'class') (near '{before: 'A()'}')")
        }
    }

    /// An unclosed quote is reported where it opens, not where libyaml reaches the end of the file.
    func testAnUnclosedQuoteIsReportedWhereItOpens() {
        let yaml = "version: 1\nrules:\n  - id: a\n    component: A\n    message: \"Loading games\n  - id: b\n    component: B\n"
        XCTAssertThrowsError(try RuleSet.load(text: yaml, file: "team.yml")) { error in
            XCTAssertEqual("\(error)", "team.yml:5:14: YAML syntax: the quoted text that starts here is never closed (the file ends first) (near '\"Loading games')")
        }
        // A mistake libyaml finds where it is stays there, with what it was reading.
        XCTAssertThrowsError(try RuleSet.load(text: "version: 1\nrules:\n  - id: a\n   component: A\n", file: "team.yml")) { error in
            XCTAssertEqual("\(error)", "team.yml:4:4: YAML syntax: did not find expected '-' indicator (while parsing a block collection that starts at line 3, column 3) (near 'component: A')")
        }
    }

    /// A pattern that does not parse is reported where it stops parsing, inside the value, with the
    /// code there: also in a quoted value, a block value, and after `$$$`.
    func testAPatternThatDoesNotParseIsReportedWhereItStops() {
        let cases: [(match: String, place: String, near: String)] = [
            ("match: foo(", "5:16", "foo("),
            ("match: 'x.y($A'", "5:19", "x.y($A"),
            ("match: \"  f($$$ARGS, \"", "5:25", "f($$$ARGS,"),
            ("match: |\n      Card {\n        foo(a,\n      }", "7:15", "foo(a,"),
        ]
        for (match, place, near) in cases {
            let yaml = "version: 1\nrules:\n  - id: a\n    kind: pattern\n    \(match)\n    message: m\n"
            XCTAssertThrowsError(try RuleSet.load(text: yaml, file: "team.yml"), match) { error in
                guard let error = error as? RulesFileError else { return XCTFail("\(error)") }
                XCTAssertEqual("\(error.line ?? 0):\(error.column ?? 0)", place, "\(error)")
                XCTAssertEqual("\(error)", "team.yml:\(place): match does not parse as Swift: ')' is missing (near '\(near)')")
            }
        }
    }

    func testSelectingUnknownRuleIdsFails() {
        XCTAssertThrowsError(try RuleSet.builtIn().selecting(["raw-progress-veiw"])) { error in
            XCTAssertTrue("\(error)".contains("unknown rule id 'raw-progress-veiw'"))
        }
        XCTAssertEqual(try RuleSet.builtIn().selecting(["loading-dots"]).rules.map(\.id), ["loading-dots"])
    }
}

/// A rotating-text rule names its display calls and clocks; mistakes are located.
final class RotationVocabularyLoaderTests: XCTestCase {
    func testTheBuiltInClocksAreData() throws {
        let rule = try XCTUnwrap(RuleSet.builtIn().rules.first { $0.kind == .rotatingText })
        guard case .rotatingText(let vocabulary) = rule.matcher else { return XCTFail("\(rule.id) is not compiled into its rotating-text case") }
        XCTAssertEqual(vocabulary.clockCalls, ["scheduledTimer", "Timer", "asyncAfter", "setEventHandler", "CADisplayLink", "sleep", "onReceive", "sink", "values",
                                               "TimelineView", "AsyncTimerSequence"])
        XCTAssertEqual(vocabulary.receivers, ["onReceive", "sink", "values"])
        XCTAssertEqual(vocabulary.sequences, ["AsyncTimerSequence": "an AsyncTimerSequence"])
        XCTAssertEqual(vocabulary.description(ofClock: "scheduledTimer"), "a repeating Timer")
        XCTAssertEqual(Set(vocabulary.targetClocks.keys), ["scheduledTimer", "CADisplayLink"])
        XCTAssertEqual(Set(vocabulary.publishers.keys), ["Timer.publish"])
        XCTAssertEqual(vocabulary.randomPicks, ["randomElement"])
        XCTAssertEqual(vocabulary.displayCalls, ["Text", "Label", "navigationTitle", "accessibilityLabel"])
        XCTAssertEqual(vocabulary.displayProperties, ["text", "title"])
        XCTAssertEqual(vocabulary.displaySetters, ["setTitle"])
        XCTAssertEqual(vocabulary.observableState, ["State", "Published", "Observable", "ObservableObject"])
    }

    func testRotatingTextMistakesAreLocated() {
        let head = "version: 1\nrules:\n  - id: r\n    kind: rotating-text\n    message: m\n"
        assertLocatedErrors([
            (head + "    display-calls: [Text]\n", 3, "needs 'clocks'"),
            (head + "    clocks: {closures: [every]}\n", 3, "needs 'display-calls'"),
            (head + "    display-calls: [Text]\n    clocks: {receivers: [onTick]}\n", 7, "'receivers' and 'publishers' go together"),
            (head + "    display-calls: [Text]\n    clocks: {publishers: [Ticker.stream]}\n", 7, "names no call"),
            (head + "    display-calls: [Text]\n    clocks: {closures: [Timer.every]}\n", 7, "'Timer.every' is not a Swift name"),
            (head + "    display-calls: [Text]\n    clocks: {closures: []}\n", 7, "clocks.closures is empty"),
            (head + "    display-calls: [Text]\n    clocks: {timers: [every]}\n", 7, "unknown key 'timers' in clocks"),
            (head + "    display-calls: [Text]\n    clocks:\n      closures: [every, every]\n", 8, "'every' appears twice"),
        ])
    }
}
