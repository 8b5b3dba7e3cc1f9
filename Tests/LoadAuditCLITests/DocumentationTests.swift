import Foundation
import XCTest

/// The README is for users and stays short; what it leaves out is one link away, and every link in the
/// README, docs/ and rules/README.md leads to a file that exists (and, with a `#fragment`, a heading there).
final class DocumentationTests: XCTestCase {
    func testTheReadmeIsAtMostThreeHundredLines() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - (readme.hasSuffix("\n") ? 1 : 0)
        XCTAssertLessThanOrEqual(lines, 300, "README.md has \(lines) lines: move details to docs/")
    }

    func testEveryRelativeLinkLeadsToAFileAndHeading() throws {
        let fileManager = FileManager.default
        let docs = try fileManager.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        let documents = ["README.md", "rules/README.md", "benchmarks/README.md"] + docs.sorted()
        var broken: [String] = []
        for document in documents {
            let url = Repository.root.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            for target in Self.linkTargets(in: text) where !target.contains("://") && !target.hasPrefix("mailto:") {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0])
                guard fileManager.fileExists(atPath: file.path) else {
                    broken.append("\(document): \(target): no such file")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let anchors = Self.headingAnchors(in: try String(contentsOf: file, encoding: .utf8))
                    if !anchors.contains(parts[1]) { broken.append("\(document): \(target): no such heading") }
                }
            }
        }
        XCTAssertEqual(broken, [], "broken links")
        XCTAssertTrue(Self.linkTargets(in: "see [a](docs/x.md#y) and ![p](p.png)") == ["docs/x.md#y", "p.png"])
    }

    /// The targets of Markdown links `[text](target)` outside code spans and fenced blocks.
    static func linkTargets(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            var inCode = false
            var index = line.startIndex
            while index < line.endIndex {
                let character = line[index]
                if character == "`" { inCode.toggle() }
                if !inCode, character == "]", line[line.index(after: index)...].hasPrefix("("),
                   let close = line[index...].firstIndex(of: ")") {
                    targets.append(String(line[line.index(index, offsetBy: 2)..<close]))
                    index = close
                }
                index = line.index(after: index)
            }
        }
        return targets
    }

    /// GitHub's anchors for a document's headings: lower case, spaces to hyphens, punctuation dropped.
    static func headingAnchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            anchors.insert(String(title.compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            }))
        }
        return anchors
    }
}
