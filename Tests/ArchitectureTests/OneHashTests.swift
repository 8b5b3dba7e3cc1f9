import Foundation
import XCTest

/// One byte hash: `AuditModel`'s `FNV1a` makes the baseline's fingerprints, the result cache's keys
/// and the select step's word hashes. No other file of `Sources/` writes FNV's prime or its offset
/// basis (in any spelling: digit groups and case vary), which a second implementation needs.
final class OneHashTests: XCTestCase {
    static let sources = ModuleGraphTests.root.appendingPathComponent("Sources")
    static let implementation = "AuditModel/FNV1a.swift"

    /// FNV's constants in `text`, read with `_` left out and in lower case.
    static func constants(in text: String) -> [String] {
        let plain = text.replacingOccurrences(of: "_", with: "").lowercased()
        return ["100000001b3", "cbf29ce484222325"].filter { plain.contains($0) }
    }

    func testOnlyFNV1aWritesFNVsConstants() throws {
        let files = (FileManager.default.enumerator(atPath: Self.sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { ($0.hasSuffix(".swift") || $0.hasSuffix(".c")) && !$0.hasPrefix("CTreeSitterSwift/") }
        XCTAssertTrue(files.contains(Self.implementation))
        var found: [String] = []
        for file in files.sorted() {
            let constants = Self.constants(in: try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8))
            if file == Self.implementation {
                XCTAssertEqual(constants.count, 2, "the reader finds the constants where they are")
            } else if !constants.isEmpty {
                found.append("\(file): \(constants.joined(separator: ", "))")
            }
        }
        XCTAssertEqual(found, [], "FNV-1a written outside \(Self.implementation)")
        XCTAssertEqual(Self.constants(in: "value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3; var seed: UInt64 = 0xcbf2_9ce4_8422_2325"), ["100000001b3", "cbf29ce484222325"])
    }
}
