import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LoadAuditCLI
import LoadAuditTestSupport
import XCTest

/// Every report format of a scan of the bundled example app, run in-process from the repository root
/// as CI would, against golden files in fixtures/expected-reports/. After reviewing a change, refresh
/// them with LOADAUDIT_UPDATE_GOLDEN=1.
final class ReportGoldenTests: XCTestCase {
    static let goldenFolder = Repository.root.appendingPathComponent("fixtures/expected-reports")

    /// The report of `format`, with what depends on the machine replaced: the repository root by
    /// `/REPO` (also inside the SARIF source-root URI), the tool version by `VERSION`, and the JSON
    /// report's repository, commit, day and rules' hash by placeholders.
    private func normalisedReport(_ format: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let run = CLIRun(["scan", "--format", format, "fixtures/ExampleApp"])
        XCTAssertEqual(run.status, 1, "new warnings fail the run: \(run.errors)", file: file, line: line)
        XCTAssertFalse(run.output.isEmpty, run.errors, file: file, line: line)
        let root = Repository.root.path
        let rootURI = URL(fileURLWithPath: root + "/").absoluteString
        return ReportIdentityText.normalised(run.output)
            .replacingOccurrences(of: rootURI, with: "file:///REPO/")
            .replacingOccurrences(of: root + "/", with: "/REPO/")
            .replacingOccurrences(of: "\"version\" : \"\(loadauditVersion)\"", with: "\"version\" : \"VERSION\"")
            .replacingOccurrences(of: "\"semanticVersion\" : \"\(loadauditVersion)\"", with: "\"semanticVersion\" : \"VERSION\"")
            .replacingOccurrences(of: "loadaudit \(loadauditVersion)", with: "loadaudit VERSION")
    }

    /// Compares the normalised report with its golden file (written first under LOADAUDIT_UPDATE_GOLDEN=1)
    /// and returns the golden text.
    @discardableResult
    private func assertGolden(_ format: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let report = normalisedReport(format, file: file, line: line)
        let goldenFile = Self.goldenFolder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LOADAUDIT_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenFolder, withIntermediateDirectories: true)
            try report.write(to: goldenFile, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: goldenFile, encoding: .utf8)
        XCTAssertFalse(golden.contains(Repository.root.path + "/"), "\(name) still names this machine's repository root", file: file, line: line)
        if report != golden {
            let reportLines = report.components(separatedBy: "\n")
            let goldenLines = golden.components(separatedBy: "\n")
            let first = Array(zip(reportLines, goldenLines)).firstIndex { $0 != $1 } ?? min(reportLines.count, goldenLines.count)
            XCTFail("""
            \(format) report differs from fixtures/expected-reports/\(name) from line \(first + 1) \
            (re-run with LOADAUDIT_UPDATE_GOLDEN=1 after reviewing the change):
              actual:   \(first < reportLines.count ? reportLines[first] : "<end>")
              expected: \(first < goldenLines.count ? goldenLines[first] : "<end>")
            """, file: file, line: line)
        }
        return golden
    }

    /// The page stands alone (nothing fetched, no script) and shows every finding with its line.
    func testHTMLMatchesTheGoldenFileAndStandsAlone() throws {
        let golden = try assertGolden("html", "example.html")
        for forbidden in ["<script", "<link", "@import", "url(", "<img", "<iframe"] {
            XCTAssertFalse(golden.contains(forbidden), "the page must load nothing: \(forbidden)")
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(normalisedReport("json").utf8)) as? [String: Any])
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        XCTAssertEqual(golden.components(separatedBy: "<li class=\"finding\">").count - 1, findings.count)
        XCTAssertEqual(golden.components(separatedBy: "<mark>").count - 1, findings.count, "every finding shows its line with the span marked")
    }

    func testSARIFMatchesTheGoldenFileAndTheSchema() throws {
        let golden = try assertGolden("sarif", "example.sarif")
        try SARIFSchemaValidation.assertValid(golden)
    }

    func testGitHubAnnotationsMatchTheGoldenFile() throws {
        let golden = try assertGolden("github", "example.github.txt")
        // Without a baseline every finding is new: one annotation per finding of the JSON report.
        let lines = golden.split(separator: "\n")
        XCTAssertEqual(lines.count, try findingCount())
        for line in lines {
            XCTAssertTrue(["::warning", "::notice", "::error"].contains { line.hasPrefix($0 + " file=fixtures/ExampleApp/") }, String(line))
            XCTAssertTrue(line.contains(",title=loadaudit "), String(line))
        }
    }

    func testXcodeIssuesMatchTheGoldenFile() throws {
        let golden = try assertGolden("xcode", "example.xcode.txt")
        let lines = golden.split(separator: "\n")
        XCTAssertEqual(lines.count, try findingCount())
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("/REPO/fixtures/ExampleApp/") && $0.hasSuffix("]") }, "\(lines.first ?? "")")
    }

    func testJUnitMatchesTheGoldenFileAndIsWellFormed() throws {
        let golden = try assertGolden("junit", "example.junit.xml")
        let checker = WellFormedness(golden)
        XCTAssertNil(checker.error, "the JUnit golden file is not well-formed XML")
        XCTAssertEqual(checker.count("testcase"), try findingCount())
        XCTAssertEqual(checker.count("failure"), try findingCount())
    }

    func testMarkdownMatchesTheGoldenFile() throws {
        try assertGolden("markdown", "example.md")
    }

    func testJSONMatchesTheGoldenFile() throws {
        try assertGolden("json", "example.json")
    }

    func testTextMatchesTheGoldenFile() throws {
        try assertGolden("text", "example.txt")
    }

    /// How many findings the JSON report of the same scan has.
    private func findingCount() throws -> Int {
        let json = CLIRun(["scan", "--format", "json", "fixtures/ExampleApp"]).output
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try XCTUnwrap((document["findings"] as? [Any])?.count)
    }
}

/// Whether XML is well-formed, and how many elements of each name it has.
private final class WellFormedness: NSObject, XMLParserDelegate {
    private(set) var error: Error?
    private var names: [String] = []

    init(_ xml: String) {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        // On Linux, parse() can recover from some errors and still return true: any error counts.
        if !parser.parse() || parser.parserError != nil, error == nil {
            error = parser.parserError ?? NSError(domain: "XMLParser", code: -1)
        }
    }

    func count(_ name: String) -> Int { names.filter { $0 == name }.count }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        names.append(elementName)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if error == nil { error = parseError }
    }
}
