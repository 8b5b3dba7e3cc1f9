@testable import AuditSelect
import AuditReport
import AuditRules
import AuditScan
import CNameDigest
import Foundation
import SwiftGrammar
import XCTest

/// The names a file left for later keeps for the follow-up (`MentionedNames`, made by `CNameDigest`'s
/// vector loop) against the plain way: every run of name bytes split and printed one by one, and the
/// follow-up's answer from them against hashing every name of the bytes (`FileSelector.mentionsAny`).
final class MentionedNamesTests: XCTestCase {
    private let selector = FileSelector(RuleEngine(ruleSet: .builtIn()).selectionNeeds)

    /// The prints of the names in `bytes` the plain way: runs of name bytes, after their leading digits.
    private func plainPrints(_ bytes: [UInt8]) -> Set<UInt32> {
        var prints = Set<UInt32>()
        var index = 0
        while index < bytes.count {
            guard ByteClass.of(bytes[index]).contains(.name) else {
                index += 1
                continue
            }
            while index < bytes.count, ByteClass.of(bytes[index]).contains(.digit) { index += 1 }
            let start = index
            while index < bytes.count, ByteClass.of(bytes[index]).contains(.name) { index += 1 }
            if index > start { prints.insert(Array(bytes[start..<index]).withUnsafeBufferPointer { loadaudit_name_print($0.baseAddress!, $0.count) }) }
        }
        return prints
    }

    /// Generated text: names (short, long, with digits, `_`, multi-byte characters) among punctuation,
    /// blanks, comments and strings, at every length, so that names fall across the 16-byte blocks and
    /// the 64-bit words of the loop, and at the end of the bytes.
    private func generatedTexts(count: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "x9", "_", "9", "42", "0x1F", "Model", "SavingState", "publishStatusTaskStartDelayWeight", "é", "Über", "☕️", "self",
                      "StreamWatcher", "StreamWatchers", "AStreamWatcher", "ab", "Timer", "ViewModel", "ViewModelA", "ViewModelB"]
        let separators = [" ", "\n", "(", ")", ".", ",", "// ", "\"", "\t", "{", "}", " = ", "\\(", "`", "$", "#"]
        return (0..<count).map { _ in
            var text = ""
            let parts = Int.random(in: 0...60, using: &generator)
            for _ in 0..<parts {
                text += pieces.randomElement(using: &generator)!
                if Int.random(in: 0..<4, using: &generator) > 0 { text += separators.randomElement(using: &generator)! }
            }
            return text
        }
    }

    func testTheKeptNamesAreEveryDistinctNameOfTheBytes() throws {
        for text in generatedTexts(count: 3_000) + ["", "9", "abc", "😀", String(repeating: "x", count: 200), String(repeating: "ab ", count: 100)] {
            let bytes = Array(text.utf8)
            let names = try XCTUnwrap(selector.mentionedNames(bytes))
            XCTAssertEqual(Set(names.prints), plainPrints(bytes), text)
            XCTAssertEqual(names.prints.count, Set(names.prints).count, "each name once: \(text)")
        }
    }

    /// The follow-up's answer by the kept names is hashing's: never no where a file mentions a link
    /// (and here, with 32-bit prints, not yes where it does not either).
    func testTheKeptNamesAnswerAsHashingEveryNameDoes() throws {
        let nameSets: [Set<String>] = [["StreamWatcher"], ["Model", "SavingState", "publishStatusTaskStartDelayWeight"], ["ab", "x"], ["Über", "ok"],
                                       ["ViewModelA"], ["9Model"], ["`default`"]]
        let texts = generatedTexts(count: 1_500)
        for names in nameSets {
            let followUp = FileSelector.FollowUp(names)
            let hashes = Set(names.compactMap(WordHash.ofWord))
            for text in texts {
                let bytes = Array(text.utf8)
                let kept = try XCTUnwrap(selector.mentionedNames(bytes))
                XCTAssertEqual(selector.mayWant(kept, followUp), FileSelector.mentionsAny(of: hashes, in: bytes), "\(names.sorted()): \(text)")
            }
        }
    }

    /// The follow-up reads again only the files it parses: the others are settled by their kept names.
    func testTheFollowUpReadsOnlyTheFilesItParses() throws {
        var files = [
            "Tips.swift": "let tips = [\"Warming up the oven\", \"Almost there\"]\n",
            "TipModel.swift": "import Foundation\n\nfinal class TipModel: ObservableObject {\n    @Published var index = 0\n    func start() {\n        Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { [weak self] _ in\n            guard let self else { return }\n            self.index = (self.index + 1) % tips.count\n        }\n    }\n}\n",
            "TipView.swift": "import SwiftUI\n\nstruct TipView: View {\n    @ObservedObject var model: TipModel\n    var body: some View {\n        Text(tips[model.index])\n    }\n}\n",
        ]
        for number in 0..<20 {
            files["Other\(number).swift"] = "import Foundation\n\nstruct Other\(number) {\n    let tipCount = \(number)\n    var title: String { \"Other \\(tipCount)\" }\n}\n"
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kept-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, text) in files { try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        final class Lines: @unchecked Sendable {
            private let lock = NSLock()
            private var lines: [String] = []
            func add(_ line: String) { lock.withLock { lines.append(line) } }
            var all: [String] { lock.withLock { lines } }
        }
        let lines = Lines()
        var scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: root.path))
        scanner.trace = { lines.add($0) }
        let result = try scanner.scan([root.path])
        XCTAssertEqual(result.findings.map { "\($0.file):\($0.start.line)" }, ["TipView.swift:6"])
        let followUp = try XCTUnwrap(lines.all.first { $0.contains("files left for later mention") })
        XCTAssertTrue(followUp.hasPrefix("2 of 22 files left for later mention what the clocks link by (22 asked by the names they kept, 2 read again"), followUp)
        let plain = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: root.path), jobs: 1, prefilter: false)
        XCTAssertEqual(JSONReport.render(result, toolVersion: "test"), JSONReport.render(try plain.scan([root.path]), toolVersion: "test"))
    }
}
