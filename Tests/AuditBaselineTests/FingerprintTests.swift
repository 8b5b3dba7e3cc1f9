@testable import AuditBaseline
import AuditModel
import XCTest

final class FingerprintTests: XCTestCase {
    func finding(_ rule: String, file: String = "A.swift", line: Int, snippet: String, scope: String = "V.body") -> Finding {
        var finding = Finding(ruleId: rule, severity: .warning, file: file, start: SourcePoint(line: line, column: 5, byteOffset: line * 10),
                              end: SourcePoint(line: line, column: 20, byteOffset: line * 10 + 15), symbol: "ProgressView",
                              message: "m", replacement: nil, fix: .manual)
        finding.snippet = snippet
        finding.scope = scope
        return finding
    }

    func testTheHashIsFNV1a64() {
        // Reference values of 64-bit FNV-1a.
        XCTAssertEqual(Fingerprint.hash(""), "cbf29ce484222325")
        XCTAssertEqual(Fingerprint.hash("a"), "af63dc4c8601ec8c")
    }

    /// Baseline files store fingerprints: one pinned, of the rule, component, scope and snippet joined
    /// by U+001F, and the finding's place among identical ones.
    func testAFingerprintStaysTheSame() {
        var findings = [finding("r", line: 3, snippet: "ProgressView()"), finding("r", line: 9, snippet: "ProgressView()")]
        Fingerprint.assign(&findings)
        XCTAssertEqual(findings.map(\.fingerprint), ["cad21263a2126803-1", "cad21263a2126803-2"])
    }

    func testLinesDoNotMatterButCodeScopeAndOrderDo() {
        var before = [finding("r", line: 3, snippet: "ProgressView()"), finding("r", line: 9, snippet: "ProgressView()")]
        var after = [finding("r", line: 30, snippet: "ProgressView()"), finding("r", line: 90, snippet: "ProgressView()")]
        Fingerprint.assign(&before)
        Fingerprint.assign(&after)
        XCTAssertEqual(before.map(\.fingerprint), after.map(\.fingerprint))
        XCTAssertTrue(before[0].fingerprint.hasSuffix("-1"))
        XCTAssertTrue(before[1].fingerprint.hasSuffix("-2"))
        XCTAssertEqual(before[0].fingerprint.dropLast(2), before[1].fingerprint.dropLast(2))

        var moved = [finding("r", line: 3, snippet: "ProgressView()", scope: "Other.body")]
        var changed = [finding("r", line: 3, snippet: "ProgressView().controlSize(.small)")]
        Fingerprint.assign(&moved)
        Fingerprint.assign(&changed)
        XCTAssertNotEqual(moved[0].fingerprint, before[0].fingerprint)
        XCTAssertNotEqual(changed[0].fingerprint, before[0].fingerprint)
    }

    func testRelativePaths() {
        XCTAssertEqual(RelativePath.from("/repo", to: "/repo/App/A.swift"), "App/A.swift")
        XCTAssertEqual(RelativePath.from("/repo/ci", to: "/repo/App/A.swift"), "../App/A.swift")
        XCTAssertEqual(RelativePath.from("/repo/", to: "/repo/A b/C.swift"), "A b/C.swift")
    }

    func testComparingAgainstABaselineMarksExistingAndReturnsStaleEntries() {
        var findings = [finding("r", line: 3, snippet: "ProgressView()"), finding("r", line: 9, snippet: "LoadingDots()")]
        Fingerprint.assign(&findings)
        let paths = ["A.swift": "/repo/App/A.swift"]
        let baseline = BaselineFile(entries: [
            .init(ruleId: "r", file: "App/A.swift", fingerprint: findings[0].fingerprint, snippet: "ProgressView()"),
            .init(ruleId: "r", file: "App/A.swift", fingerprint: "0000000000000000-1", snippet: "ThemedSpinner()"),
        ])
        let stale = baseline.compare(&findings, absolutePaths: paths, folder: "/repo")
        XCTAssertEqual(findings.map(\.baseline), [.existing, .new])
        XCTAssertEqual(stale.map(\.snippet), ["ThemedSpinner()"])
    }

    func testTheFileIsSortedAndStable() {
        let entries: [BaselineFile.Entry] = [
            .init(ruleId: "b", file: "Z.swift", fingerprint: "1", snippet: "x"),
            .init(ruleId: "a", file: "A.swift", fingerprint: "2", snippet: "y"),
        ]
        let one = BaselineFile(entries: entries).encoded()
        let two = BaselineFile(entries: entries.reversed()).encoded()
        XCTAssertEqual(one, two)
        XCTAssertTrue(one.range(of: "A.swift")!.lowerBound < one.range(of: "Z.swift")!.lowerBound)
        XCTAssertTrue(one.hasSuffix("}\n"))
    }
}
