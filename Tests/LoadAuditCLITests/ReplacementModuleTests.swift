import Foundation
import XCTest

/// An old module replaced by a new one (fixtures/TripNotices: AlertKit's AKToast and ToastCenter
/// replaced by Notices' Toast and ToastQueue): a safe fix never wraps a finding it leaves, progress
/// does not count the new module's own code as adoption, and a fix removes the old import it left
/// with nothing to import.
final class ReplacementModuleTests: XCTestCase {
    static let trip = Repository.root.appendingPathComponent("fixtures/TripNotices")

    private func tripCopy() throws -> TemporaryTree {
        let tree = try TemporaryTree()
        for file in try FileManager.default.subpathsOfDirectory(atPath: Self.trip.path) {
            var isDirectory: ObjCBool = false
            let source = Self.trip.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            try tree.write(file, try Data(contentsOf: source))
        }
        return tree
    }

    private func findings(_ run: CLIRun) throws -> [String] {
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        return (report["findings"] as! [[String: Any]]).map { "\($0["file"]!):\($0["line"]!):\($0["column"]!) \($0["ruleId"]!) \($0["fix"]!)" }
    }

    private func read(_ tree: TemporaryTree, _ path: String) throws -> String {
        try String(contentsOf: tree.url.appendingPathComponent(path), encoding: .utf8)
    }

    /// `ToastCenter.shared.show(AKToast(text: "Cache cleared", style: cacheStyle))`: the inner call is
    /// manual (a custom style), so the outer call's fix would hand `show` an AKToast: unsafe, saying
    /// why, in the whole tree and in the file scanned alone.
    func testASafeFixHoldingAFindingItLeavesIsUnsafe() throws {
        let run = CLIRun(["scan", "--format", "json", "."], in: Self.trip.path)
        XCTAssertEqual(run.status, 1, run.errors)
        let all = try findings(run)
        XCTAssertEqual(all.filter { $0.hasPrefix("Sources/TripPlanner/CacheSettings.swift") }, [
            "Sources/TripPlanner/CacheSettings.swift:10:13 toast-center unsafe",
            "Sources/TripPlanner/CacheSettings.swift:10:37 ak-toast manual",
        ])
        // Nested safe fixes stay safe: the inner one is fixed in the next pass.
        XCTAssertEqual(all.filter { $0.hasPrefix("Sources/TripPlanner/SaveTripButton.swift") }, [
            "Sources/TripPlanner/SaveTripButton.swift:10:13 toast-center safe",
            "Sources/TripPlanner/SaveTripButton.swift:10:37 ak-toast safe",
        ])
        let alone = CLIRun(["scan", "--format", "json", "Sources/TripPlanner/CacheSettings.swift"], in: Self.trip.path)
        XCTAssertEqual(try findings(alone), all.filter { $0.hasPrefix("Sources/TripPlanner/CacheSettings.swift") })
        let text = CLIRun(["scan", "Sources/TripPlanner/CacheSettings.swift"], in: Self.trip.path).output
        XCTAssertTrue(text.contains("(it rewrites code holding ak-toast's AKToast at 10:37, a finding its fix leaves (manual): check the result; the fix adds import Notices) [toast-center]"), text)
        // The fix leaves the file alone (nothing safe in it), and lists the outer call as skipped.
        let dryRun = CLIRun(["fix", "--dry-run", "."], in: Self.trip.path)
        XCTAssertFalse(dryRun.output.contains("+++ b/Sources/TripPlanner/CacheSettings.swift"), dryRun.output)
        XCTAssertTrue((dryRun.output + dryRun.errors).contains("1 unsafe fix skipped"), dryRun.output + dryRun.errors)
    }

    /// Notices declares Toast and uses it itself (a banner, its preview, the queue): none of that is
    /// the app adopting it. Before the fix the app uses Notices nowhere; after it, in three files.
    func testProgressCountsNoAdoptionInTheReplacementModulesOwnFiles() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        let tree = try tripCopy()
        try tree.git(["init", "-q", "-b", "main"])
        try tree.git(["add", "-A"])
        try tree.git(["commit", "-q", "-m", "AlertKit everywhere"], date: "2026-03-02")
        XCTAssertEqual(CLIRun(["fix", "."], in: tree.path).status, 0)
        try tree.git(["add", "-A"])
        try tree.git(["commit", "-q", "-m", "safe fixes"], date: "2026-03-10")
        let run = CLIRun(["progress", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        let samples = report["samples"] as! [[String: Any]]
        XCTAssertEqual(samples.map { $0["adoption"] as! [String: Int] }, [[:], ["Toast": 3, "ToastQueue": 2]])
        let moves = samples[1]["biggestChanges"] as! [[String: Any]]
        XCTAssertEqual(moves.map { $0["adopted"] as! Int }, [5])
    }

    /// After the fix, SaveTripButton holds nothing of AlertKit: its import goes. OfflineBanner's is
    /// inside `#if canImport`, the test's is `@testable`, and CacheSettings still uses AKToast: kept.
    func testAFixRemovesTheOldModulesImportWhenNothingOfItIsLeft() throws {
        let tree = try tripCopy()
        let fix = CLIRun(["fix", "."], in: tree.path)
        XCTAssertEqual(fix.status, 0, fix.errors)
        XCTAssertEqual(try read(tree, "Sources/TripPlanner/SaveTripButton.swift"), """
            import SwiftUI
            import Notices

            struct SaveTripButton: View {
                let save: () -> Void

                var body: some View {
                    Button("Save trip") {
                        save()
                        ToastQueue.shared.show(Toast("Trip saved", kind: .neutral))
                    }
                }
            }

            """)
        XCTAssertTrue(try read(tree, "Sources/TripPlanner/OfflineBanner.swift").contains("#if canImport(AlertKit)\nimport AlertKit\n"))
        XCTAssertTrue(try read(tree, "Tests/TripPlannerTests/ToastTests.swift").contains("@testable import AlertKit\n"))
        XCTAssertTrue(try read(tree, "Sources/TripPlanner/CacheSettings.swift").hasPrefix("import SwiftUI\nimport AlertKit\n"))
        // The rewrite is settled: nothing left to do but the manual and unsafe findings.
        let again = CLIRun(["fix", "--dry-run", "."], in: tree.path)
        XCTAssertFalse(again.output.contains("---"), again.output)
    }
}
