import AuditModel
import AuditReport
import Foundation
import LoadAuditTestSupport
import XCTest

/// The JSON report is written by hand (`PrettyJSON`) and must be byte for byte what `JSONEncoder`
/// writes of the same document with the report's options: other tools and baselines read it.
final class PrettyJSONTests: XCTestCase {
    private static func encoded(_ result: ScanResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JSONReport.document(result, toolVersion: "9.8.7")), as: UTF8.self) + "\n"
    }

    /// Characters that need care: every ASCII control character, quotes, backslashes, slashes, DEL,
    /// accents precomposed and combining, the line and paragraph separators, a byte-order mark, emoji.
    private static let alphabet: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        + ["\"", "\\", "/", "\u{7F}", " ", "a", "Z", "0", "-", ":", "é", "e\u{301}", "\u{2028}", "\u{2029}", "\u{FEFF}", "😀", "👩‍👩‍👧", "中", "\r\n"]

    private static func text(_ random: inout SeededRandom, maximum: Int = 12) -> String {
        (0..<random.below(maximum + 1)).map { _ in random.pick(alphabet) }.joined()
    }

    private static func result(_ random: inout SeededRandom) -> ScanResult {
        let ruleIds = ["raw-progress-view", "themed-spinner", "b-10", "b-2", "a", "rotating-text", "unused-suppression", "x9"]
        let findings = (0..<random.below(5)).map { _ -> Finding in
            let start = SourcePoint(line: random.below(500) + 1, column: random.below(80) + 1, byteOffset: 0)
            let end = SourcePoint(line: start.line + random.below(3), column: random.below(80) + 1, byteOffset: 0)
            var finding = Finding(
                ruleId: random.pick(ruleIds), severity: random.pick([.note, .warning, .error]), file: text(&random), start: start, end: end,
                symbol: text(&random), message: text(&random, maximum: 30), replacement: random.chance(50) ? text(&random) : nil,
                fix: random.pick([.safe, .unsafe, .manual]))
            finding.fingerprint = text(&random)
            finding.baseline = random.chance(50) ? .new : .existing
            finding.related = (0..<random.below(3)).map { _ in
                RelatedLocation(file: text(&random), line: random.below(99), column: random.below(99), message: text(&random))
            }
            return finding
        }
        let problems = (0..<random.below(4)).map { _ in
            FileProblem(file: text(&random), kind: random.pick([.unreadable, .notUTF8, .binary, .syntaxError, .symlinkLoop, .tooLarge]),
                        line: random.chance(50) ? random.below(900) : nil, column: random.chance(50) ? random.below(90) : nil, detail: text(&random))
        }
        var result = ScanResult(findings: findings, problems: problems, filesScanned: random.below(10_000),
                                filesWithParseErrors: random.below(9), ruleIds: ruleIds)
        result.staleEntries = (0..<random.below(3)).map { _ in
            StaleEntry(ruleId: random.pick(ruleIds), file: text(&random), fingerprint: text(&random), snippet: text(&random))
        }
        if random.chance(30) { result.baselineEntriesNotChecked = [random.pick(ruleIds): 1 + random.below(9)] }
        return result
    }

    func testTheReportIsWhatTheEncoderWritesOnRandomReports() throws {
        var random = SeededRandom(seed: 20_261_123)
        for round in 0..<400 {
            let result = Self.result(&random)
            XCTAssertEqual(JSONReport.render(result, toolVersion: "9.8.7"), try Self.encoded(result), "round \(round)")
        }
    }

    func testEveryControlCharacterIsEscapedAsTheEncoderDoes() throws {
        for scalar in 0..<0x80 {
            let symbol = String(UnicodeScalar(UInt8(scalar)))
            let finding = Finding(ruleId: "a", severity: .warning, file: "F.swift", start: SourcePoint(line: 1, column: 1, byteOffset: 0),
                                  end: SourcePoint(line: 1, column: 2, byteOffset: 1), symbol: symbol, message: "m", replacement: nil, fix: .manual)
            let result = ScanResult(findings: [finding], problems: [], filesScanned: 1, filesWithParseErrors: 0, ruleIds: ["a"])
            XCTAssertEqual(JSONReport.render(result, toolVersion: "9.8.7"), try Self.encoded(result), "U+\(String(scalar, radix: 16))")
        }
    }

    func testAnEmptyReportIsWhatTheEncoderWrites() throws {
        let result = ScanResult(findings: [], problems: [], filesScanned: 0, filesWithParseErrors: 0, ruleIds: [])
        XCTAssertEqual(JSONReport.render(result, toolVersion: "9.8.7"), try Self.encoded(result))
    }
}
