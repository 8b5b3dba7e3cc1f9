@testable import AuditSelect
import AuditRules
import TreeSitter
import XCTest

/// `CodeWords` decides that a trigger word's file need not be parsed: it may never call code a comment
/// or a string, and where it cannot be sure it must say so (nil).
extension CodeWords {
    /// Whether `word` (one name) is used in code.
    func usesInCode(_ word: String) -> Bool { code.contains(WordHash.ofName(word)) }
}

final class CodeWordsTests: XCTestCase {
    private func words(_ text: String) -> CodeWords? { CodeWords(bytes: Array(text.utf8)) }

    func testNamesInCommentsAndStringsAreNotCode() throws {
        let text = #"""
            // A ProgressView used to spin here.
            /* LoadingOverlay /* nested ThemedSpinner */ still a comment: LoadingDots */
            let title = "ProgressView() was here // not a comment"
            let raw = #"PlaceholderCard "quoted" \(notInterpolated)"#
            let block = """
                LoadingTripsView "inside" \""" still text
                """
            let view = LoadingSheet(label: "Loading")
            """#
        let found = try XCTUnwrap(words(text))
        for name in ["ProgressView", "LoadingOverlay", "ThemedSpinner", "LoadingDots", "PlaceholderCard", "LoadingTripsView", "notInterpolated", "quoted"] {
            XCTAssertFalse(found.usesInCode(name), name)
        }
        for name in ["title", "raw", "block", "view", "LoadingSheet", "label"] { XCTAssertTrue(found.usesInCode(name), name) }
        XCTAssertTrue(found.comments.contains(WordHash.ofName("ThemedSpinner")))
    }

    func testInterpolationsAreCodeEvenInsideNestedStrings() throws {
        let text = ##"""
            let a = "count: \(items.count) \(format("\(ProgressView.self)", ")"))"
            let b = #"raw \#(LoadingOverlay.name) and \(notCode)"#
            let c = """
                \(ThemedSpinner(size: 24))
                """
            let d = "after"
            """##
        let found = try XCTUnwrap(words(text))
        for name in ["items", "count", "format", "ProgressView", "LoadingOverlay", "name", "ThemedSpinner", "size", "d"] {
            XCTAssertTrue(found.usesInCode(name), name)
        }
        XCTAssertFalse(found.usesInCode("notCode"))
        XCTAssertFalse(found.usesInCode("after"))
    }

    func testItGivesUpWhereItCouldBeWrong() {
        let doubtful = [
            "let r = /a\"b/; let v = ProgressView() // \"",  // a regular expression literal with a quote
            "let r = #/\n  \"ProgressView\n/#",  // an extended regular expression literal
            "let s = \"open\nProgressView()",  // a one-line string broken by a line break
            "/* never closed ProgressView()",  // a comment open at the end
            "let s = \"\"\"\nProgressView()",  // a block string open at the end
            "let s = \"\\(ProgressView()",  // an interpolation open at the end
            "let s = \"\"\" text\nProgressView()\n\"\"\"",  // a block string with text after its opening
            "let s = \"\"\"\n  a\n  b = \"\"\"\nProgressView()",  // a block string closed after text on its line
            "let y = x!// ProgressView()",  // the pinned grammar reads the operator `!//`, then code
            "let y = w+/* ProgressView() */ 1",  // the same with a block comment
            "let y = a.// ProgressView()\n    count",  // the pinned grammar reads the operator `.//`, then code
            ".//  ProgressView.swift",  // the same at a line's start
            "let y = a./* ProgressView() */count",
            "let x = 1 //* ProgressView()",  // the pinned grammar reads the operator `//*`, then code
            "//***** ProgressView() *****",  // the same at a line's start, a banner comment
            "let x = 1 ///* ProgressView()",
            "func f() {\n  Text(\"ProgressView\")\n",  // a brace never closed
            "func f() { Image(\"ProgressView\") ] }",  // brackets that do not match
            "let s = \"\\(items[0)\"",  // a bracket opened in an interpolation and not closed there
        ]
        for text in doubtful { XCTAssertNil(words(text), text) }
        // A literal's end is a `/` after a character that is no blank; nothing else on the line
        // may end one. Checked against the pinned grammar with `loadaudit syntax` (`f(/a /)` is an error).
        for text in ["let r = a / b/c", "f(/ a\"b/)", "let r = x/ 2/y", "let r = a / 2\t/x/"] { XCTAssertNil(words(text), text) }
        // Division is no literal: alone on its line, or when the next `/` follows a blank.
        for text in ["let half = width / 2\nlet s = \"x\"", "let rect = NSRect(x: w / 2 - 32, y: h / 2 - 32) // \"", "let h = w / 2 // \"half\"",
                     "let t = (a / 2)\t/ (b / 2)"] {
            XCTAssertNotNil(words(text), text)
        }
        let divided = try? XCTUnwrap(words("let v = ProgressView(); let h = w / 2 // notCode"))
        XCTAssertEqual(divided?.usesInCode("ProgressView"), true)
        XCTAssertEqual(divided?.usesInCode("notCode"), false)
    }

    /// Where a declaration is expected, the pinned grammar cuts a declaration keyword off a longer word
    /// (`private let0badExample` reads as `let`, `0`, `badExample`), and its error recovery was seen to
    /// read the `"""` string after it as code (fuzz/regressions/keyword-cut-before-a-string.swift). The
    /// look gives up on such broken code, and only there: the same words elsewhere are names.
    func testItGivesUpWhereTheGrammarCutsAKeywordOffAWord() {
        let cut = [
            "struct S {\n    private let0badExample = \"\"\"\n    Text(lines.randomElement())\n    \"\"\"\n}",
            "final classProgressViewHost {}",
            "@MainActor\nfuncLoad() {}",
            "@MainActor varState = 0",
            "private(set) varCount = 0",
            "@objc(load) funcLoad() {}",
            "@available(iOS 17, *)\nstructCard {}",
            "public enumPhase { case a }",
        ]
        for text in cut { XCTAssertNil(words(text), text) }
        let names = [
            "private var letter = 1",
            "let variable = 2\nvar function = 3",
            "func f() {\n    letter = 1\n    classification = 2\n}",
            "print(x)\nvariable = 1",
            "@State private var className = \"\"",
            "let caseInsensitive = true",
            "public func letters() -> [String] { [] }",
        ]
        for text in names { XCTAssertNotNil(words(text), text) }
    }

    /// Swift's string escapes are `\0 \\ \t \n \r \" \' \u{…}`, `\(` and, in a `"""` block, a line
    /// break; at any other backslash (`\.`), broken code, the grammar's recovery ends the string and
    /// reads the rest as code (fuzz/regressions/invalid-escape.swift): the look gives up.
    func testOnlySwiftsEscapesKeepAStringOpen() throws {
        let valid = try XCTUnwrap(words("let s = \"tab\\t quote\\\" \\u{1F600} nul\\0 back\\\\ ProgressView\" + \"\\(count) \\'\"\nlet b = \"\"\"\n  a \\\n  b \\  \n  c ThemedSpinner\n  \"\"\"\nlet c = #\"a\\.b \\d\"#"))
        XCTAssertEqual(valid.usesInCode("ProgressView"), false)
        XCTAssertEqual(valid.usesInCode("ThemedSpinner"), false)
        XCTAssertEqual(valid.usesInCode("count"), true)
        for text in ["Text(\"\\.importModel.done) of \\ total\")", "let s = \"a\\qb\"", "let s = \"\"\"\n  a\\.b\n  \"\"\"", "let s = \"a\\ \""] {
            XCTAssertNil(words(text), text)
        }
    }

    /// A type annotation followed by `(` (`var config: Theme("common.loading")`) is no Swift, and the
    /// grammar's recovery reads the string after it as code (fuzz/regressions/call-in-a-type-annotation.swift):
    /// the look gives up there, and only there.
    func testItGivesUpAtACallInATypeAnnotation() throws {
        for text in ["var config: Theme(\"common.loading\", comment: \"x\")", "let x: UI.Theme(\"a\")", "private var y :  Foo (\"b\")"] {
            XCTAssertNil(words(text), text)
        }
        let valid = ["let x: Int = f(\"a\")", "f(label: T(\"x\"))", "var body: some View { Text(\"a\") }", "let x: Int\n(a, b) = (\"c\", d)",
                     "switch k { case .a: T(\"x\") }", "let d: [String: Int] = [\"a\": 1]", "let f: (Int) -> Void = g", "let x: T.U = .init(\"a\")",
                     "let c = b ? a : T(\"x\")", "var x: Int // T(\"a\")\n(\"b\")"]
        for text in valid { XCTAssertNotNil(words(text), text) }
    }

    /// A name in backticks is a name. Anything else between backticks (a Swift 6 raw identifier,
    /// `` `load // twice` ``, one name to the grammar, which the look does not follow) or a
    /// backtick left open on its line (fuzz/regressions/unclosed-backtick.swift) is code the grammar
    /// reads its own way: the look gives up.
    func testBackticksHoldANameOrTheLookGivesUp() throws {
        let plain = try XCTUnwrap(words("let `default` = 1 // ProgressView\nlet v = self.`init`"))
        XCTAssertEqual(plain.usesInCode("default"), true)
        XCTAssertEqual(plain.usesInCode("init"), true)
        XCTAssertEqual(plain.usesInCode("ProgressView"), false)
        for text in ["func `load // twice`() { ProgressView() }", "let `a \"b` c\" ProgressView", "let x = `open // Exp.swift\nProgressView()",
                     "`***publish***kkkk//e le Exp.swfit\n!.kkkk", "let `` = 1"] {
            XCTAssertNil(words(text), text)
        }
    }

    func testBackticksAndNonASCIINamesAreCode() throws {
        let found = try XCTUnwrap(words("let `default` = café(ProgressView.init) + 3tips"))
        for name in ["default", "café", "ProgressView", "init", "tips"] { XCTAssertTrue(found.usesInCode(name), name) }
    }

    /// A file whose only trigger is `ProgressView` called as determinate progress holds nothing to
    /// report, so it is not parsed on sight; every other use, and a style that may spin it, is. Each
    /// file left unparsed is parsed here to show that it indeed holds no candidate.
    func testDeterminateProgressAloneDoesNotMakeAFileParsed() throws {
        let unparsed = [
            "ProgressView(value: 0.4)",
            "ProgressView(\"Uploading\", value: sent, total: size)",
            "ProgressView(value: model.progress) { Text(\"Upload\") }",
            "ProgressView(\n    timerInterval: start...end,\n    countsDown: false\n)",
            "ProgressView(value: x) // was ProgressView()",
            "ProgressView(value: x)\n    .progressViewStyle(.linear)",
            "ProgressView(value: x)\n    .progressViewStyle(LinearProgressViewStyle())",
            "ProgressView(value: x).progressViewStyle(.circular)",
            "ProgressView(value: x).progressViewStyle(barStyle)",
        ]
        let parsed = [
            "ProgressView()",
            "ProgressView(value: x)\nProgressView()",
            "ProgressView (value: x)",
            "ProgressView.init(value: x)",
            "ProgressView<EmptyView, EmptyView>(value: x)",
            "ProgressView(label: { Text(\"value\") })",
            "ProgressView(format(value: x))",
            "ProgressView(\"\\(x, value: y)\")",
            "ProgressView(value:)",
            "ProgressView(value: x\n#if DEBUG\n, total: 2\n#endif\n)",
            "ProgressView(value: x).progressViewStyle(ThemedSpinnerStyle())",
            "ProgressView(value: x).progressViewStyle(spinnerStyle)",
            "ProgressView(value: x).progressViewStyle(styles[0])",
            "ProgressView(value: x).progressViewStyle(BarStyle().spinning())",
            "ProgressView(value: x).progressViewStyle(BarStyle(tint: .orange))",
            "ProgressView(value: x).progressViewStyle(\n    .linear,\n)",
            "ProgressView(value: x)\nThemedSpinner()",
        ]
        let engine = RuleEngine(ruleSet: RuleSet.builtIn())
        let parser = try Parser()
        func file(_ body: String) -> [UInt8] {
            Array("import SwiftUI\n\nstruct Upload: View {\n    var body: some View {\n        \(body)\n    }\n}\n".utf8)
        }
        for body in unparsed {
            let bytes = file(body)
            XCTAssertFalse(FileSelector(engine.selectionNeeds).usesATriggerWordInCode(bytes), body)
            let analysis = engine.analyze(tree: try parser.parse(SourceText(bytes: bytes)), file: "Upload.swift")
            XCTAssertEqual(analysis.candidates.map(\.finding.ruleId), [], body)
        }
        for body in parsed {
            let bytes = file(body)
            XCTAssertTrue(FileSelector(engine.selectionNeeds).usesATriggerWordInCode(bytes), body)
        }
    }

    /// A file whose only trace of loadaudit is a suppression in a block comment is parsed: an unused
    /// suppression must still be reported (AuditRulesTests checks the report).
    func testASuppressionInABlockCommentMakesTheFileWorthParsing() {
        let bytes = Array("import SwiftUI\n/* loadaudit:ignore themed-spinner */\nlet x = 1\n".utf8)
        XCTAssertTrue(FileSelector(RuleEngine(ruleSet: .builtIn()).selectionNeeds).usesATriggerWordInCode(bytes))
        let plain = Array("import SwiftUI\n/* ignore themed-spinner */\nlet x = 1\n".utf8)
        XCTAssertFalse(FileSelector(RuleEngine(ruleSet: .builtIn()).selectionNeeds).usesATriggerWordInCode(plain))
    }

    /// Where names stand: called, set after a dot, marked as an attribute or a conformance. Each set
    /// may hold more than the parser would say, never less (the select step's soundness rests on it).
    func testNamePositions() throws {
        let text = """
            @MainActor @Observation.Observable final class Model: NSObject,
                ObservableObject, Sendable & Hashable {
                var title = ""
                func go() {
                    label.text = "a"
                    label?.text = "b"
                    other.title == "c" ? go() : stop ()
                    let v = Text.init("x")
                    DispatchQueue.main.asyncAfter(deadline: .now()) { self.detail += 1 }
                    // Timer.scheduledTimer(x)
                    print("sleep(1)")
                }
            }
            """
        let positions = try XCTUnwrap(words(text)).positions
        func names(_ set: Set<UInt64>, _ candidates: [String]) -> [String] { candidates.filter { set.contains(WordHash.ofName($0)) } }
        let all = ["MainActor", "Observation", "Observable", "Model", "NSObject", "ObservableObject", "Sendable", "Hashable", "title", "label",
                   "text", "other", "go", "stop", "Text", "init", "asyncAfter", "detail", "scheduledTimer", "sleep", "print", "now"]
        // More than the parser says: `Hashable {` is no call, `: stop ()` of a ternary no conformance.
        XCTAssertEqual(names(positions.called, all), ["Hashable", "go", "stop", "Text", "init", "asyncAfter", "print", "now"])
        XCTAssertEqual(names(positions.setAfterDot, all), ["text", "detail"])
        XCTAssertEqual(names(positions.marked, all), ["MainActor", "Observation", "Observable", "NSObject", "ObservableObject", "Sendable", "Hashable", "stop"])
    }
}
