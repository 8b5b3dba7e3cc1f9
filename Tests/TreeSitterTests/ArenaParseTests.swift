import Foundation
import TreeSitter
import XCTest

final class ArenaParseTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures")

    private static func fixtureSources() throws -> [(name: String, text: String)] {
        let files = FileManager.default.enumerator(atPath: fixtures.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try files.sorted().map { ($0, try String(contentsOf: fixtures.appendingPathComponent($0), encoding: .utf8)) }
    }

    func testTheArenaGivesTheTreesOfThePlainAllocator() throws {
        let sources = try Self.fixtureSources()
        XCTAssertGreaterThan(sources.count, 20)
        // Broken code too: error recovery allocates and frees the most.
        let broken = ["struct A { var body: some View { ProgressView(", "let s = \"\"\"\n unfinished", "}}}} func ( ( ( [ let"]
        for (name, text) in sources + broken.map({ ("broken", $0) }) {
            let plain = try Parser().parse(text).rootNode.sExpression
            let inArena = try ArenaParse.withTree(of: SourceText(text)) { $0.rootNode.sExpression }
            XCTAssertEqual(inArena, plain, name)
        }
    }

    func testFreedBlocksAreReusedWithinAParse() throws {
        let text = try XCTUnwrap(Self.fixtureSources().max { $0.text.utf8.count < $1.text.utf8.count }).text
        try ArenaParse.withTree(of: SourceText(text)) { tree in XCTAssertGreaterThan(tree.rootNode.childCount, 0) }
        let bytes = ArenaParse.lastParseBytes
        // Without the arena (an AddressSanitizer build) nothing is counted.
        try XCTSkipIf(bytes.requested == 0, "no parse arena in this build")
        XCTAssertLessThan(bytes.peak, bytes.requested, "the parse's freed blocks went back to its lists")
    }

    func testEachParseStartsFromAnEmptyArena() throws {
        let text = "struct V: View { var body: some View { ProgressView().scaleEffect(0.6) } }"
        let sizes = try (0..<3).map { _ in
            _ = try ArenaParse.withTree(of: SourceText(text)) { $0.rootNode.sExpression.count }
            return ArenaParse.lastParseBytes.peak
        }
        XCTAssertEqual(Set(sizes).count, 1, "peaks \(sizes)")
    }

    func testTreesOfThePlainParserStayIntactAcrossArenaParses() throws {
        let kept = try Parser().parse("let kept = ThemedSpinner()")
        for _ in 0..<20 {
            _ = try ArenaParse.withTree(of: SourceText("let other = ProgressView(); let more = [1, 2, 3]")) { $0.rootNode.sExpression }
        }
        XCTAssertEqual(kept.rootNode.firstDescendant(ofType: "call_expression")?.text, "ThemedSpinner()")
    }

    func testArenaParsesOnManyThreadsAgreeWithThePlainParse() throws {
        let sources = try Self.fixtureSources()
        let plain = try sources.map { try Parser().parse($0.text).rootNode.sExpression }
        let results = UnsafeMutableBufferPointer<String?>.allocate(capacity: sources.count * 4)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: sources.count * 4) { item in
            results[item] = try? ArenaParse.withTree(of: SourceText(sources[item % sources.count].text)) { $0.rootNode.sExpression }
        }
        for item in 0..<results.count { XCTAssertEqual(results[item], plain[item % sources.count], sources[item % sources.count].name) }
    }

    func testAnErrorInTheVisitLeavesTheArenaUsable() throws {
        struct Stop: Error {}
        XCTAssertThrowsError(try ArenaParse.withTree(of: SourceText("let a = ProgressView()")) { _ in throw Stop() }) { XCTAssertTrue($0 is Stop) }
        let after = try ArenaParse.withTree(of: SourceText("let a = 1")) { $0.rootNode.sExpression }
        XCTAssertEqual(after, try Parser().parse("let a = 1").rootNode.sExpression)
    }

    func testParsesInsideAnothersVisitLeaveTheOuterTreeIntact() throws {
        let text = "struct Outer: View { var body: some View { ThemedSpinner(size: 20).padding() } }"
        let outer = try ArenaParse.withTree(of: SourceText(text)) { tree -> String in
            // Had the first inner parse taken the arena back, the second would write over the outer tree.
            for inner in ["let inner = ProgressView()", String(repeating: "let more = [1, 2, 3].map { $0 * 2 }\n", count: 50)] {
                let sExpression = try ArenaParse.withTree(of: SourceText(inner)) { $0.rootNode.sExpression }
                XCTAssertEqual(sExpression, try Parser().parse(inner).rootNode.sExpression)
            }
            return tree.rootNode.sExpression
        }
        XCTAssertEqual(outer, try Parser().parse(text).rootNode.sExpression)
    }
}
