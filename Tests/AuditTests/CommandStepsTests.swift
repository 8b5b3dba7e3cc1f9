import Audit
import AuditRules
import AuditScan
import Foundation
import XCTest

/// The steps the command line takes from Audit instead of doing the work itself (one door, which a
/// language server shares): a fix's diff, and the tree `syntax` dumps.
final class CommandStepsTests: XCTestCase {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("CommandStepsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    func testAFixedFileGivesTheUnifiedDiffOfItsRewrite() throws {
        let folder = try temporaryFolder()
        let source = """
            import SwiftUI

            struct SyncBadge: View {
                let pending: Int

                var body: some View {
                    HStack(spacing: 6) {
                        ThemedSpinnerCompact()
                        Text("\\(pending) waiting")
                    }
                }
            }

            """
        try Data(source.utf8).write(to: folder.appendingPathComponent("SyncBadge.swift"))
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(honourGitignore: false), jobs: 1)
        let plan = try FixPlanner(scanner: scanner, options: FixPlanner.Options(classes: [.safe, .unsafe])).plan([folder.path])
        let file = try XCTUnwrap(plan.files.first { $0.file.hasSuffix("SyncBadge.swift") })
        XCTAssertEqual(file.outcome, .fixed)
        let diff = try XCTUnwrap(file.diff(colour: false))
        XCTAssertTrue(diff.hasPrefix("--- a/\(file.file)\n+++ b/\(file.file)\n@@ "), diff)
        XCTAssertTrue(diff.contains("\n-            ThemedSpinnerCompact()\n+            LoadingSpinner(size: .small)\n"), diff)
        XCTAssertFalse(diff.contains("\u{1B}["), "no colour asked")
        XCTAssertTrue(try XCTUnwrap(file.diff(colour: true)).contains("\u{1B}["), "colour asked")
    }

    func testTheSyntaxTreeOfAFileIsReadAsAScanReadsIt() throws {
        let folder = try temporaryFolder()
        let swift = folder.appendingPathComponent("Badge.swift")
        try Data("struct Badge {}\n".utf8).write(to: swift)
        let tree = try Audit.syntaxTree(ofFile: swift.path, shownAs: "Badge.swift")
        XCTAssertEqual(tree.rootNode.type, "source_file")
        XCTAssertEqual(tree.rootNode.childCount, 1)

        XCTAssertThrowsError(try Audit.syntaxTree(ofFile: folder.appendingPathComponent("Gone.swift").path, shownAs: "Gone.swift")) { error in
            XCTAssertEqual((error as? AuditError)?.message, "Gone.swift: no such file")
        }
        // Not Swift text (a NUL byte): the reader's own reason, naming the file as given.
        let binary = folder.appendingPathComponent("Icon.swift")
        try Data([0x73, 0x00, 0x01, 0x02]).write(to: binary)
        XCTAssertThrowsError(try Audit.syntaxTree(ofFile: binary.path, shownAs: "Icon.swift")) { error in
            let message = (error as? AuditError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("Icon.swift: ") && message != "Icon.swift: no such file", message)
        }
    }
}
