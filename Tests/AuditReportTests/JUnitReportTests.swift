import AuditModel
import AuditReport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// The elements of an XML document, as XMLParser reports them: names, attributes and text.
final class ParsedXML: NSObject, XMLParserDelegate {
    struct Element: Equatable {
        var name: String
        var attributes: [String: String]
        var text: String
        var depth: Int
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private(set) var error: Error?

    /// Parses `xml`; `error` is set when it is not well-formed.
    init(_ xml: String) {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        // On Linux, parse() can recover from some errors and still return true: any error counts.
        if !parser.parse() || parser.parserError != nil, error == nil {
            error = parser.parserError ?? NSError(domain: "XMLParser", code: -1)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if error == nil { error = parseError }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append(Element(name: elementName, attributes: attributes, text: "", depth: open.count))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }

    func named(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}

final class JUnitReportTests: XCTestCase {
    private typealias F = ReportContextFixtures

    private func parsed(_ context: ReportContext, file: StaticString = #filePath, line: UInt = #line) throws -> ParsedXML {
        let xml = ReportFormat.junit.render(context)
        let document = ParsedXML(xml)
        XCTAssertNil(document.error, "not well-formed: \(String(describing: document.error))\n\(xml)", file: file, line: line)
        return document
    }

    func testExactDocumentAgainstABaseline() {
        XCTAssertEqual(ReportFormat.junit.render(F.baselineContext()), """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="loadaudit" tests="4" failures="3" skipped="1">
          <testsuite name="loadaudit" tests="4" failures="3" errors="0" skipped="1">
            <testcase classname="loadaudit themed-spinner" name="App/Legacy/Old.swift:3:5" file="App/Legacy/Old.swift" line="3">
              <failure type="themed-spinner" message="ThemedSpinner has no automatic replacement &lt;&quot;&amp;&apos;&gt;">ThemedSpinner has no automatic replacement &lt;&quot;&amp;&apos;&gt;</failure>
            </testcase>
            <testcase classname="loadaudit themed-spinner" name="App/Legacy/Old.swift:9:1" file="App/Legacy/Old.swift" line="9">
              <skipped message="in the baseline"/>
            </testcase>
            <testcase classname="loadaudit raw-progress-view" name="App/My Views/Loading.swift:12:9" file="App/My Views/Loading.swift" line="12">
              <failure type="raw-progress-view" message="A raw ProgressView spinner; use LoadingSpinner.">A raw ProgressView spinner; use LoadingSpinner.&#10;Replace with: LoadingSpinner(size: .small) (safe fix)</failure>
            </testcase>
            <testcase classname="loadaudit raw-progress-view" name="App/My Views/Loading.swift:20:13" file="App/My Views/Loading.swift" line="20">
              <failure type="raw-progress-view" message="Progress 50%, step 1: loading&#10;then done">Progress 50%, step 1: loading&#10;then done&#10;Replace with: LoadingSpinner(label: &quot;a|b&quot;) (unsafe fix)</failure>
            </testcase>
          </testsuite>
        </testsuites>

        """)
    }

    func testWellFormedWithOneTestCasePerFinding() throws {
        let document = try parsed(F.baselineContext())
        XCTAssertEqual(document.elements.map(\.name), [
            "testsuites", "testsuite",
            "testcase", "failure", "testcase", "skipped", "testcase", "failure", "testcase", "failure",
        ])
        XCTAssertEqual(document.named("testcase").map { $0.attributes["name"] }, [
            "App/Legacy/Old.swift:3:5", "App/Legacy/Old.swift:9:1",
            "App/My Views/Loading.swift:12:9", "App/My Views/Loading.swift:20:13",
        ])
        XCTAssertEqual(document.named("testcase").map { $0.attributes["line"] }, ["3", "9", "12", "20"])
        XCTAssertEqual(document.named("skipped").map { $0.attributes["message"] }, ["in the baseline"])
        XCTAssertEqual(document.named("failure").map(\.depth), [3, 3, 3])
    }

    func testCountsInTheSuiteAttributes() throws {
        let document = try parsed(F.baselineContext())
        let suites = try XCTUnwrap(document.named("testsuites").first)
        XCTAssertEqual(suites.attributes, ["name": "loadaudit", "tests": "4", "failures": "3", "skipped": "1"])
        let suite = try XCTUnwrap(document.named("testsuite").first)
        XCTAssertEqual(suite.attributes, ["name": "loadaudit", "tests": "4", "failures": "3", "errors": "0", "skipped": "1"])
    }

    func testWithoutABaselineEveryFindingFails() throws {
        let document = try parsed(F.plainContext())
        XCTAssertEqual(document.named("testsuite").first?.attributes["failures"], "4")
        XCTAssertEqual(document.named("testsuite").first?.attributes["skipped"], "0")
        XCTAssertEqual(document.named("failure").count, 4)
        XCTAssertEqual(document.named("skipped").count, 0)
    }

    func testEscapedTextParsesBackToTheMessage() throws {
        let document = try parsed(F.baselineContext())
        let failures = document.named("failure")
        XCTAssertEqual(failures.map { $0.attributes["type"] }, ["themed-spinner", "raw-progress-view", "raw-progress-view"])
        XCTAssertEqual(failures[0].attributes["message"], "ThemedSpinner has no automatic replacement <\"&'>")
        XCTAssertEqual(failures[0].text, "ThemedSpinner has no automatic replacement <\"&'>")
        // A newline written as a character reference survives attribute-value normalisation.
        XCTAssertEqual(failures[2].attributes["message"], "Progress 50%, step 1: loading\nthen done")
        XCTAssertEqual(failures[2].text, "Progress 50%, step 1: loading\nthen done\nReplace with: LoadingSpinner(label: \"a|b\") (unsafe fix)")
    }

    func testControlCharactersAreDroppedButTabsAndLineBreaksKept() throws {
        let finding = F.finding(message: "bell\u{07} esc\u{1B}[0m nul\u{00} tab\tcr\r.")
        let xml = ReportFormat.junit.render(F.context([finding]))
        XCTAssertTrue(xml.contains("message=\"bell esc[0m nul tab&#9;cr&#13;.\""), xml)
        let document = try parsed(F.context([finding]))
        XCTAssertEqual(document.named("failure").first?.attributes["message"], "bell esc[0m nul tab\tcr\r.")
    }

    func testSpecialCharactersInPathsAreEscapedInEveryAttribute() throws {
        let finding = F.finding(file: "R&D/<Odd> \"x\".swift", message: "m")
        let xml = ReportFormat.junit.render(F.context([finding]))
        XCTAssertTrue(xml.contains(
            "<testcase classname=\"loadaudit raw-progress-view\" name=\"App/R&amp;D/&lt;Odd&gt; &quot;x&quot;.swift:7:3\" file=\"App/R&amp;D/&lt;Odd&gt; &quot;x&quot;.swift\" line=\"7\">"
        ), xml)
        let testcase = try XCTUnwrap(try parsed(F.context([finding])).named("testcase").first)
        XCTAssertEqual(testcase.attributes["file"], "App/R&D/<Odd> \"x\".swift")
    }

    func testNonASCIIPassesThroughUnchanged() throws {
        let finding = F.finding(message: "Caf\u{E9} \u{1F3DF}\u{FE0F} \u{0085}")
        let failure = try XCTUnwrap(try parsed(F.context([finding])).named("failure").first)
        XCTAssertEqual(failure.attributes["message"], "Caf\u{E9} \u{1F3DF}\u{FE0F} \u{0085}")
    }

    func testNoFindingsIsAnEmptyPassingSuite() throws {
        XCTAssertEqual(ReportFormat.junit.render(F.context([])), """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="loadaudit" tests="0" failures="0" skipped="0">
          <testsuite name="loadaudit" tests="0" failures="0" errors="0" skipped="0">
          </testsuite>
        </testsuites>

        """)
        XCTAssertEqual(try parsed(F.context([])).elements.map(\.name), ["testsuites", "testsuite"])
    }

    /// The parser is not lenient: a document with a raw control character is rejected.
    func testTheParserRejectsMalformedXML() {
        XCTAssertNotNil(ParsedXML("<a b=\"x\u{07}\"/>").error)
        XCTAssertNotNil(ParsedXML("<a>x\u{1B}</a>").error)
        XCTAssertNotNil(ParsedXML("<a>x & y</a>").error)
        XCTAssertNotNil(ParsedXML("<a></b>").error)
        XCTAssertNil(ParsedXML("<a b=\"x&#10;\">&lt;</a>").error)
    }
}
