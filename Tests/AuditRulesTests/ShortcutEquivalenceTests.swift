import Foundation
import LoadAuditTestSupport
@testable import AuditRotation
@testable import AuditRules
import SwiftGrammar
import TreeSitter
import XCTest

/// The scan's shortcuts give what the long way gives (docs/speed.md): a pattern's check of a node's
/// first bytes before its shapes, the display snippet squeezed byte by byte, the `#if` depth of the
/// imports read once per file. Each is compared with the long way on fixtures and generated input.
final class ShortcutEquivalenceTests: XCTestCase {
    /// The Swift files of every fixture app.
    private func fixtureSources() throws -> [SourceText] {
        let fixtures = RepositoryFolder.root.appendingPathComponent("fixtures")
        let walker = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)
        var sources: [SourceText] = []
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            sources.append(SourceText(bytes: Array(try Data(contentsOf: url))))
        }
        XCTAssertGreaterThan(sources.count, 50)
        return sources
    }

    /// `match` without a module checks the first bytes first; with a module no fixture declares it
    /// takes the shapes alone. Both agree on every node of every fixture, for patterns whose first leaf
    /// is a name, a token, or comes after a `$$$`, a comment inside the code included.
    func testThePatternsFirstBytesNeverDenyAMatch() throws {
        let patterns = try [
            "Button($$$A).overlay { $$$B }", "Button($$$A) { $$$C }.overlay($$$D) { $$$B }",
            "Button { $$$C } label: { $$$L }.overlay { $$$B }", "ProgressView()", "Text($A)", ".progressViewStyle($S)",
            "$V.onReceive($P) { $$$B }", "ThemedSpinner(size: $S)", "Timer.publish(every: $E, on: $R, in: $M)",
        ].map(SwiftPattern.init)
        var sources = try fixtureSources()
        sources.append(SourceText(bytes: Array("let v = Button /* a */ (action: go) { Text(\"x\") }.overlay { ProgressView() }\n// c\nText(title)\n".utf8)))
        var matched = 0
        for source in sources {
            let tree = try Parser().parse(source)
            tree.rootNode.walk { node in
                for pattern in patterns where pattern.rootTypes.contains(node.type) {
                    let quick = pattern.match(node)
                    let whole = pattern.match(node, module: "NoModuleOfTheFixtures")
                    XCTAssertEqual(quick == nil, whole == nil, "\(pattern) at \(node)")
                    XCTAssertEqual(quick?.bindings, whole?.bindings)
                    if quick != nil { matched += 1 }
                }
                return true
            }
        }
        XCTAssertGreaterThan(matched, 100)
    }

    /// The snippet squeezed byte by byte is the text squeezed whole, for blanks of every kind
    /// (`\r\n` too), code longer and shorter than the 120 characters shown, and other bytes anywhere.
    func testTheDisplaySnippetIsTheTextSqueezed() {
        var random = SeededRandom(seed: 42)
        let pieces = ["Text", "(", "messages", "[", "index", "]", ")", ".font(.caption)", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}",
                      "\"Loading…\"", "é", "e\u{301}", "\u{00A0}", "\u{2028}", "🙂", "x"]
        for _ in 0..<3_000 {
            let text = (0..<random.below(120)).map { _ in random.pick(pieces) }.joined()
            XCTAssertEqual(RotationReader.snippet(ArraySlice(Array(text.utf8))), RotationReader.textSnippet(text), text.debugDescription)
        }
    }

    /// The plain imports a fix may remove: outside any `#if`, as the lines before each told it.
    func testPlainImportsAreThoseOutsideConditionals() throws {
        var random = SeededRandom(seed: 7)
        let lines = ["import Foundation", "import SwiftUI", "  import Combine", "#if os(iOS)", "  #if DEBUG", "#else", "#endif", "\t#endif",
                     "// #if in a comment", "#ifdef", "let x = 1", "", "import UIKit; import MapKit", "#if\u{301} odd"]
        for _ in 0..<500 {
            let text = (0..<random.below(14)).map { _ in random.pick(lines) }.joined(separator: random.chance(20) ? "\r\n" : "\n")
            let source = SourceText(bytes: Array(text.utf8))
            let facts = SwiftFileFacts(tree: try Parser().parse(source))
            for (module, range) in facts.plainImports {
                XCTAssertFalse(Self.insideConditional(range.lowerBound, in: source.bytes), "\(module) in \(text.debugDescription)")
            }
            // Every import the long way keeps is kept.
            let tree = try Parser().parse(source)
            let kept = Set(facts.plainImports.map(\.range.lowerBound))
            for child in tree.rootNode.namedChildren where child.type == "import_declaration" && !child.hasError && child.namedChildren.count == 1 {
                guard child.namedChildren[0].namedChildren.count == 1, child.text.hasPrefix("import") else { continue }
                XCTAssertEqual(kept.contains(child.startByte), !Self.insideConditional(child.startByte, in: source.bytes), text.debugDescription)
            }
        }
    }

    /// The long way: every line before the offset, as text.
    private static func insideConditional(_ offset: Int, in bytes: [UInt8]) -> Bool {
        var depth = 0
        for line in bytes[..<offset].split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }, as: UTF8.self)
            if text.hasPrefix("#if") { depth += 1 } else if text.hasPrefix("#endif") { depth = max(0, depth - 1) }
        }
        return depth > 0
    }
}
