@testable import AuditProgress
import XCTest

/// The progress model's arithmetic and its renderers, on hand-made samples.
final class ProgressHistoryTests: XCTestCase {
    private func sample(_ date: String, findings: Int, adopted: Int, incomplete: [String] = []) -> ProgressHistory.Sample {
        ProgressHistory.Sample(commit: String(repeating: "a", count: 40), date: date, files: 10, findingsByRule: ["raw-progress-view": findings],
                               findingsByFolder: findings > 0 ? ["Features": findings] : [:], adoption: ["LoadingSpinner": adopted], incomplete: incomplete)
    }

    func testMigratedIsAdoptedOverAdoptedAndRemaining() {
        XCTAssertEqual(sample("2026-01-01", findings: 30, adopted: 10).migratedPercent, 25)
        XCTAssertNil(sample("2026-01-01", findings: 0, adopted: 0).migratedPercent)
    }

    func testAFallingCountProjectsAFinishDateAndAFlatOneSaysNoProgress() throws {
        let falling = ProgressHistory(path: ".", every: "weekly", rules: ["raw-progress-view"], newComponents: ["LoadingSpinner"], samples: [
            sample("2026-01-05", findings: 30, adopted: 0), sample("2026-01-12", findings: 20, adopted: 10), sample("2026-01-19", findings: 10, adopted: 20),
        ])
        let projection = try XCTUnwrap(falling.projection)
        XCTAssertEqual(projection.findingsPerWeek, 10, accuracy: 0.001)
        XCTAssertEqual(projection.finishDate, "2026-01-26")
        let flat = ProgressHistory(path: ".", every: "weekly", rules: [], newComponents: [], samples: [
            sample("2026-01-05", findings: 30, adopted: 0), sample("2026-01-12", findings: 31, adopted: 0), sample("2026-01-19", findings: 30, adopted: 0),
        ])
        XCTAssertNil(flat.projection?.finishDate)
        XCTAssertTrue(ProgressFormat.text.render(flat).contains("Projection: no progress over the last 3 samples"))
        // An incomplete sample is not counted as progress.
        let gap = ProgressHistory(path: ".", every: "weekly", rules: [], newComponents: [], samples: [
            sample("2026-01-05", findings: 30, adopted: 0), sample("2026-01-12", findings: 0, adopted: 0, incomplete: ["A.swift"]),
            sample("2026-01-19", findings: 30, adopted: 0), sample("2026-01-26", findings: 30, adopted: 0),
        ])
        XCTAssertNil(gap.projection?.finishDate)
    }

    func testTheCSVHasAColumnPerRuleAndComponent() {
        let history = ProgressHistory(path: ".", every: "weekly", rules: ["raw-progress-view"], newComponents: ["LoadingSpinner"],
                                      samples: [sample("2026-01-05", findings: 3, adopted: 1)])
        XCTAssertEqual(ProgressFormat.csv.render(history), """
        date,commit,files,findings,adopted,migrated_percent,incomplete_files,rule:raw-progress-view,adopted:LoadingSpinner
        2026-01-05,\(String(repeating: "a", count: 40)),10,3,1,25.0,0,3,1

        """)
    }
}
