import AuditModel
import AuditReport
import Foundation
import LoadAuditTestSupport
import XCTest

final class SARIFReportTests: XCTestCase {
    private typealias F = ReportContextFixtures

    private func sarif(_ context: ReportContext) throws -> [String: Any] {
        let text = ReportFormat.sarif.render(context)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try XCTUnwrap(object as? [String: Any])
    }

    private func run(_ context: ReportContext) throws -> [String: Any] {
        let runs = try XCTUnwrap(try sarif(context)["runs"] as? [[String: Any]])
        XCTAssertEqual(runs.count, 1)
        return try XCTUnwrap(runs.first)
    }

    private func results(_ context: ReportContext) throws -> [[String: Any]] {
        try XCTUnwrap(try run(context)["results"] as? [[String: Any]])
    }

    private func location(_ result: [String: Any]) throws -> [String: Any] {
        let locations = try XCTUnwrap(result["locations"] as? [[String: Any]])
        XCTAssertEqual(locations.count, 1)
        return try XCTUnwrap(locations.first?["physicalLocation"] as? [String: Any])
    }

    // MARK: - Schema

    func testBaselineReportMatchesTheSARIFSchema() throws {
        try SARIFSchemaValidation.assertValid(ReportFormat.sarif.render(F.baselineContext()))
    }

    func testPlainReportMatchesTheSARIFSchema() throws {
        try SARIFSchemaValidation.assertValid(ReportFormat.sarif.render(F.plainContext()))
    }

    func testEmptyReportMatchesTheSARIFSchema() throws {
        try SARIFSchemaValidation.assertValid(ReportFormat.sarif.render(F.context([])))
    }

    /// The validation is not vacuous: a document the schema forbids is rejected.
    func testTheValidatorRejectsAnInvalidDocument() throws {
        let valid = ReportFormat.sarif.render(F.baselineContext())
        let wrongVersion = valid.replacingOccurrences(of: "\"version\" : \"2.1.0\"", with: "\"version\" : \"2.0.0\"")
        XCTAssertNotEqual(wrongVersion, valid)
        let badState = valid.replacingOccurrences(of: "\"baselineState\" : \"unchanged\"", with: "\"baselineState\" : \"existing\"")
        XCTAssertNotEqual(badState, valid)
        let versionErrors = try SARIFSchemaValidation.errors(in: wrongVersion)
        XCTAssertTrue(versionErrors.contains { $0.hasPrefix("version: ") }, "\(versionErrors)")
        let stateErrors = try SARIFSchemaValidation.errors(in: badState)
        XCTAssertTrue(stateErrors.contains { $0.hasPrefix("runs/0/results/1/baselineState: ") }, "\(stateErrors)")
    }

    // MARK: - Log, run and tool

    func testLogHeader() throws {
        let log = try sarif(F.baselineContext())
        XCTAssertEqual(Set(log.keys), ["$schema", "version", "runs"])
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        XCTAssertEqual(log["$schema"] as? String, "https://json.schemastore.org/sarif-2.1.0.json")
    }

    func testRunHeader() throws {
        let run = try run(F.baselineContext())
        XCTAssertEqual(run["columnKind"] as? String, "unicodeCodePoints")
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "loadaudit")
        XCTAssertEqual(driver["version"] as? String, "1.2.3")
        XCTAssertEqual(driver["semanticVersion"] as? String, "1.2.3")
    }

    func testSourceRootIsTheCurrentFolderAsAFileURIWithATrailingSlash() throws {
        let bases = try XCTUnwrap(try run(F.plainContext())["originalUriBaseIds"] as? [String: [String: Any]])
        XCTAssertEqual(Set(bases.keys), ["SRCROOT"])
        // The space in "/work/my repo" is percent-encoded.
        XCTAssertEqual(bases["SRCROOT"]?["uri"] as? String, "file:///work/my%20repo/")
    }

    func testStaleEntriesAddTheBaselineRoot() throws {
        let bases = try XCTUnwrap(try run(F.baselineContext())["originalUriBaseIds"] as? [String: [String: Any]])
        XCTAssertEqual(Set(bases.keys), ["SRCROOT", "BASELINEROOT"])
        XCTAssertNil(bases["BASELINEROOT"]?["uri"])
        XCTAssertEqual((bases["BASELINEROOT"]?["description"] as? [String: Any])?["text"] as? String, "The folder of the baseline file")
    }

    func testRulesFollowRuleIdsOrderWithTheirDocumentation() throws {
        let driver = try XCTUnwrap((try run(F.baselineContext())["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["raw-progress-view", "themed-spinner", "loading-dots"])

        func text(_ rule: [String: Any], _ key: String) -> String? { (rule[key] as? [String: Any])?["text"] as? String }
        func level(_ rule: [String: Any]) -> String? { (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String }

        // A rule with help and a help URI.
        XCTAssertEqual(text(rules[0], "shortDescription"), "A raw ProgressView spinner; use the theme-aware LoadingSpinner.")
        XCTAssertEqual(text(rules[0], "fullDescription"), "Replace ProgressView() with LoadingSpinner(size:).")
        XCTAssertEqual(text(rules[0], "help"), "Replace ProgressView() with LoadingSpinner(size:).")
        XCTAssertEqual((rules[0]["help"] as? [String: Any])?["markdown"] as? String,
                       "Replace ProgressView() with LoadingSpinner(size:).\n\nFix class: `safe`.")
        XCTAssertEqual(rules[0]["helpUri"] as? String, "https://example.com/rules/raw-progress-view")
        XCTAssertEqual(level(rules[0]), "warning")
        XCTAssertEqual(rules[0]["properties"] as? NSDictionary, ["fix": "safe", "tags": ["loadaudit", "migration"]] as NSDictionary)

        // Without help, the message stands in; without a help URI, there is no key.
        XCTAssertEqual(text(rules[1], "shortDescription"), "ThemedSpinner is removed; use LoadingSpinner.")
        XCTAssertEqual(text(rules[1], "help"), "ThemedSpinner is removed; use LoadingSpinner.")
        XCTAssertEqual((rules[1]["help"] as? [String: Any])?["markdown"] as? String,
                       "ThemedSpinner is removed; use LoadingSpinner.\n\nFix class: `unsafe`.")
        XCTAssertNil(rules[1]["helpUri"])
        XCTAssertEqual(level(rules[1]), "error")

        XCTAssertEqual(text(rules[2], "shortDescription"), "LoadingDots is removed and not replaced.")
        XCTAssertEqual(level(rules[2]), "note")
        XCTAssertEqual((rules[2]["properties"] as? [String: Any])?["fix"] as? String, "manual")
    }

    func testARuleWithoutDescriptionIsListedAfterTheRuleIdsUnderItsId() throws {
        let custom = Finding(
            ruleId: "custom-rule", severity: .note, file: F.loadingFile,
            start: SourcePoint(line: 30, column: 1, byteOffset: 900), end: SourcePoint(line: 30, column: 5, byteOffset: 904),
            symbol: "X", message: "custom", replacement: nil, fix: .manual
        )
        let context = ReportContext(
            result: F.result(findings: [F.multiEditFinding, custom], staleEntries: []),
            rules: F.rules, toolVersion: "1.2.3", currentDirectory: F.currentDirectory
        )
        let run = try run(context)
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["raw-progress-view", "themed-spinner", "loading-dots", "custom-rule"])
        XCTAssertEqual((rules[3]["shortDescription"] as? [String: Any])?["text"] as? String, "custom-rule")
        XCTAssertEqual((rules[3]["help"] as? [String: Any])?["text"] as? String, "custom-rule")
        XCTAssertEqual((rules[3]["help"] as? [String: Any])?["markdown"] as? String, "custom-rule")
        XCTAssertEqual((rules[3]["defaultConfiguration"] as? [String: Any])?["level"] as? String, "warning")
        XCTAssertNil((rules[3]["properties"] as? [String: Any])?["fix"])
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertEqual(results.map { $0["ruleIndex"] as? Int }, [0, 3])
    }

    // MARK: - Results

    func testOneResultPerFindingThenOnePerStaleEntry() throws {
        let results = try results(F.baselineContext())
        XCTAssertEqual(results.map { $0["ruleId"] as? String }, ["themed-spinner", "themed-spinner", "raw-progress-view", "raw-progress-view", "loading-dots"])
        XCTAssertEqual(results.map { $0["ruleIndex"] as? Int }, [1, 1, 0, 0, 2])
        XCTAssertEqual(results.map { $0["level"] as? String }, ["error", "warning", "warning", "note", "none"])
        XCTAssertEqual(results.map { ($0["partialFingerprints"] as? [String: String]) ?? [:] }, [
            ["loadaudit/v1": "f2-1"], ["loadaudit/v1": "f2-2"], ["loadaudit/v1": "f1-1"], ["loadaudit/v1": "f1-2"], ["loadaudit/v1": "f3-1"],
        ])
    }

    func testMessagesAppendTheReplacement() throws {
        let results = try results(F.baselineContext())
        XCTAssertEqual(results.map { ($0["message"] as? [String: Any])?["text"] as? String }, [
            "ThemedSpinner has no automatic replacement <\"&'>",
            "ThemedSpinner is removed; use LoadingSpinner. Replace with: LoadingSpinner()",
            "A raw ProgressView spinner; use LoadingSpinner. Replace with: LoadingSpinner(size: .small)",
            "Progress 50%, step 1: loading\nthen done Replace with: LoadingSpinner(label: \"a|b\")",
            "Fixed since the baseline: LoadingDots()",
        ])
    }

    func testLocationsAreRelativeToTheCurrentFolderAndPercentEncoded() throws {
        let results = try results(F.baselineContext())
        let locations = try results.map { try location($0) }
        XCTAssertEqual(locations.map { ($0["artifactLocation"] as? [String: String]) ?? [:] }, [
            ["uri": "App/Legacy/Old.swift", "uriBaseId": "SRCROOT"],
            ["uri": "App/Legacy/Old.swift", "uriBaseId": "SRCROOT"],
            ["uri": "App/My%20Views/Loading.swift", "uriBaseId": "SRCROOT"],
            ["uri": "App/My%20Views/Loading.swift", "uriBaseId": "SRCROOT"],
            ["uri": "Old%20Dots.swift", "uriBaseId": "BASELINEROOT"],
        ])
        XCTAssertEqual(locations.map { ($0["region"] as? [String: Int]) ?? [:] }, [
            ["startLine": 3, "startColumn": 5, "endLine": 5, "endColumn": 6],
            ["startLine": 9, "startColumn": 1, "endLine": 9, "endColumn": 16],
            ["startLine": 12, "startColumn": 9, "endLine": 14, "endColumn": 24],
            ["startLine": 20, "startColumn": 13, "endLine": 20, "endColumn": 27],
            [:],
        ])
        XCTAssertNil(locations[4]["region"], "a stale entry has no region")
    }

    func testReservedCharactersInPathsArePercentEncoded() throws {
        let finding = F.finding(file: "Odd #1/a,b:c%d [x].swift", message: "m")
        let result = try XCTUnwrap(try results(F.context([finding])).first)
        let artifact = try XCTUnwrap(try location(result)["artifactLocation"] as? [String: String])
        XCTAssertEqual(artifact["uri"], "App/Odd%20%231/a,b%3Ac%25d%20%5Bx%5D.swift")
    }

    func testBaselineStatesWhenComparingToABaseline() throws {
        let results = try results(F.baselineContext())
        XCTAssertEqual(results.map { $0["baselineState"] as? String }, ["new", "unchanged", "new", "new", "absent"])
    }

    func testNoBaselineStateKeyWithoutABaseline() throws {
        let results = try results(F.plainContext())
        XCTAssertEqual(results.count, 4)
        for result in results {
            XCTAssertFalse(result.keys.contains("baselineState"), "\(result)")
        }
    }

    func testStaleEntryResultHasNoFix() throws {
        let stale = try XCTUnwrap(try results(F.baselineContext()).last)
        XCTAssertEqual(Set(stale.keys), ["ruleId", "ruleIndex", "level", "message", "locations", "partialFingerprints", "baselineState"])
    }

    func testManualFindingHasNoFixesKey() throws {
        let manual = try XCTUnwrap(try results(F.baselineContext()).first)
        XCTAssertEqual(manual["ruleId"] as? String, "themed-spinner")
        XCTAssertFalse(manual.keys.contains("fixes"))
    }

    // MARK: - Fixes

    private func fix(_ result: [String: Any]) throws -> (description: String?, location: [String: String], replacements: [[String: Any]]) {
        let fixes = try XCTUnwrap(result["fixes"] as? [[String: Any]])
        XCTAssertEqual(fixes.count, 1)
        let changes = try XCTUnwrap(fixes[0]["artifactChanges"] as? [[String: Any]])
        XCTAssertEqual(changes.count, 1)
        return (
            (fixes[0]["description"] as? [String: Any])?["text"] as? String,
            try XCTUnwrap(changes[0]["artifactLocation"] as? [String: String]),
            try XCTUnwrap(changes[0]["replacements"] as? [[String: Any]])
        )
    }

    func testSeveralEditsBecomeSeveralReplacements() throws {
        let results = try results(F.baselineContext())
        let (description, location, replacements) = try fix(results[2])
        XCTAssertEqual(description, "Replace with LoadingSpinner(size: .small) (safe fix)")
        XCTAssertEqual(location, ["uri": "App/My%20Views/Loading.swift", "uriBaseId": "SRCROOT"])
        XCTAssertEqual(replacements.count, 2)
        XCTAssertEqual(replacements[0]["deletedRegion"] as? [String: Int], ["byteOffset": 300, "byteLength": 14])
        XCTAssertEqual((replacements[0]["insertedContent"] as? [String: String]), ["text": "LoadingSpinner(size: .small)"])
        // The absorbed modifier is deleted: no inserted content at all.
        XCTAssertEqual(replacements[1]["deletedRegion"] as? [String: Int], ["byteOffset": 330, "byteLength": 31])
        XCTAssertFalse(replacements[1].keys.contains("insertedContent"))
    }

    func testDefaultEditReplacesTheWholeSpan() throws {
        let results = try results(F.baselineContext())
        let (description, _, replacements) = try fix(results[1])
        XCTAssertEqual(description, "Replace with LoadingSpinner() (safe fix)")
        XCTAssertEqual(replacements.count, 1)
        XCTAssertEqual(replacements[0]["deletedRegion"] as? [String: Int], ["byteOffset": 200, "byteLength": 15])
        XCTAssertEqual((replacements[0]["insertedContent"] as? [String: String]), ["text": "LoadingSpinner()"])
    }

    func testUnsafeFixIsNamedInTheDescription() throws {
        let results = try results(F.baselineContext())
        let (description, _, replacements) = try fix(results[3])
        XCTAssertEqual(description, "Replace with LoadingSpinner(label: \"a|b\") (unsafe fix)")
        XCTAssertEqual(replacements[0]["deletedRegion"] as? [String: Int], ["byteOffset": 500, "byteLength": 14])
        XCTAssertEqual((replacements[0]["insertedContent"] as? [String: String]), ["text": "LoadingSpinner(label: \"a|b\")"])
    }

    // MARK: - Bytes

    func testOutputIsPrettySortedWithUnescapedSlashesAndAFinalNewline() {
        let text = ReportFormat.sarif.render(F.baselineContext())
        XCTAssertTrue(text.hasPrefix("{\n  \"$schema\" : \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\" : [\n"), String(text.prefix(120)))
        XCTAssertTrue(text.hasSuffix("  \"version\" : \"2.1.0\"\n}\n"), String(text.suffix(40)))
        XCTAssertFalse(text.contains("\\/"))
        XCTAssertEqual(text, ReportFormat.sarif.render(F.baselineContext()))
    }
}
