import Foundation
import XCTest

/// `loadaudit fleet` on reports of real git histories made here: `progress --format json` of three small
/// repositories (two with CODEOWNERS), merged; a report that cannot be read is named and the rest merged.
final class FleetCommandTests: XCTestCase {
    private static func view(_ body: String) -> String { "import SwiftUI\n\nstruct Screen: View {\n    var body: some View {\n        VStack {\n\(body)\n        }\n    }\n}\n" }

    /// A repository migrated over some weeks: at each date, the files written then.
    private static func repository(remote: String, owners: String?, weeks: [(date: String, files: [String: String])]) throws -> TemporaryTree {
        let tree = try TemporaryTree()
        try tree.git(["init", "-q", "-b", "main"])
        try tree.git(["remote", "add", "origin", remote])
        if let owners { try tree.write(".github/CODEOWNERS", owners) }
        for (date, files) in weeks {
            for (path, text) in files { try tree.write(path, text) }
            try tree.git(["add", "-A"])
            try tree.git(["commit", "-q", "-m", "week of \(date)"], date: date)
        }
        return tree
    }

    private func json(_ text: String, _ context: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], context)
    }

    func testTheOrganisationTotalsAreTheSumOfTheRepositoriesOwnReports() throws {
        let trips = try Self.repository(remote: "git@github.com:acme/trips-ios.git", owners: "App/ @acme/trips\nKit/ @acme/design\n", weeks: [
            ("2026-01-05", ["App/Games.swift": Self.view("ProgressView()\nThemedSpinner(size: 20)\nLoadingDots()"),
                            "Kit/Overlay.swift": Self.view("LoadingOverlay(message: \"Exporting PDF\")")]),
            ("2026-01-13", ["App/Games.swift": Self.view("LoadingSpinner(size: .medium)\nThemedSpinner(size: 20)\nLoadingDots()")]),
            ("2026-01-27", ["Kit/Overlay.swift": Self.view("LoadingSheet(label: \"Exporting PDF\")")]),
        ])
        let maps = try Self.repository(remote: "https://github.com/acme/maps-ios.git", owners: "* @acme/maps\nKit/ @acme/design\n", weeks: [
            ("2026-01-08", ["Map/Route.swift": Self.view("ProgressView()\nProgressView()"), "Kit/Pin.swift": Self.view("LoadingDots()")]),
            ("2026-01-20", ["Map/Route.swift": Self.view("LoadingSpinner(size: .small)\nProgressView()")]),
        ])
        let notes = try Self.repository(remote: "https://gitlab.example.com/acme/notes-ios/", owners: nil, weeks: [
            ("2026-01-15", ["Notes/List.swift": Self.view("ThemedSpinner(size: 20)")]),
        ])
        let reports = try TemporaryTree()
        var own: [String: [[String: Any]]] = [:]
        for (tree, file) in [(trips, "trips/progress.json"), (maps, "maps/progress.json"), (notes, "notes.json")] {
            let run = CLIRun(["progress", "--format", "json", "."], in: tree.path)
            XCTAssertEqual(run.status, 0, run.errors)
            try reports.write(file, run.output)
            let report = try json(run.output, file)
            own[try XCTUnwrap(report["repository"] as? String)] = try XCTUnwrap(report["samples"] as? [[String: Any]])
        }
        XCTAssertEqual(Set(own.keys), ["acme/trips-ios", "acme/maps-ios", "acme/notes-ios"])
        try reports.write("broken/progress.json", "{\"samples\": [")

        let run = CLIRun(["fleet", "--format", "json", "--html", "fleet.html", "--page-url", "https://acme.example/{repository}/progress.html", "."],
                         in: reports.path)
        XCTAssertEqual(run.status, 1, "a report could not be read: exit 1 (the rest merged)")
        XCTAssertTrue(run.errors.contains("broken/progress.json: not JSON"), run.errors)
        let fleet = try json(run.output, run.errors)
        XCTAssertEqual((fleet["unreadable"] as? [[String: Any]])?.compactMap { $0["source"] as? String }, ["./broken/progress.json"])
        let groups = try XCTUnwrap(fleet["groups"] as? [[String: Any]])
        XCTAssertEqual(groups.count, 1, "the same built-in rules: one group")
        let totals = try XCTUnwrap(groups[0]["totals"] as? [[String: Any]])
        XCTAssertEqual(totals.compactMap { $0["date"] as? String }, Set(own.values.flatMap { $0.compactMap { $0["date"] as? String } }).sorted())
        for point in totals {
            let date = try XCTUnwrap(point["date"] as? String)
            let samples = own.values.compactMap { samples in samples.last { ($0["date"] as? String ?? "") <= date } }
            var byRule: [String: Int] = [:], byOwner: [String: Int] = [:]
            for sample in samples {
                for (rule, count) in sample["findingsByRule"] as? [String: Int] ?? [:] { byRule[rule, default: 0] += count }
                for (owner, count) in sample["findingsByOwner"] as? [String: Int] ?? [:] { byOwner[owner, default: 0] += count }
            }
            XCTAssertEqual(point["findingsByRule"] as? [String: Int], byRule.filter { $0.value != 0 }, date)
            XCTAssertEqual(point["findingsByOwner"] as? [String: Int], byOwner.filter { $0.value != 0 }, date)
            XCTAssertEqual(point["repositories"] as? Int, samples.count, date)
        }
        // Owners across repositories: @acme/design owns Kit/ in both trips and maps.
        let last = try XCTUnwrap(totals.last)
        XCTAssertEqual((last["findingsByOwner"] as? [String: Int])?["@acme/design"], 1, "maps' Kit/Pin.swift LoadingDots; trips' Kit migrated")

        let page = try String(contentsOf: reports.url.appendingPathComponent("fleet.html"), encoding: .utf8)
        for forbidden in ["<script", "<link", "@import", "url(", "<img", "<iframe"] { XCTAssertFalse(page.contains(forbidden), forbidden) }
        XCTAssertTrue(page.contains("<a href=\"https://acme.example/acme/trips-ios/progress.html\">acme/trips-ios</a>"))
        XCTAssertTrue(page.contains("broken/progress.json"), "the unreadable report is named on the page")
        XCTAssertTrue(page.contains("By owner across repositories"))
        XCTAssertTrue(page.contains("<svg"), "the burndown")
    }

    func testNoReadableReportIsAnErrorAndOtherFormatsRender() throws {
        let reports = try TemporaryTree()
        try reports.write("a.json", "[]")
        let none = CLIRun(["fleet", "a.json", "missing.json"], in: reports.path)
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.errors.contains("missing.json: no such file"), none.errors)
        XCTAssertTrue(none.errors.contains("no report could be read"), none.errors)

        let scan = CLIRun(["scan", "--format", "json", "--name", "acme/example", "--fail-on", "never", "fixtures/ExampleApp"])
        try reports.write("scan.json", scan.output)
        let csv = CLIRun(["fleet", "--format", "csv", reports.url.appendingPathComponent("scan.json").path])
        XCTAssertEqual(csv.status, 0, csv.errors)
        let lines = csv.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("rules_identity,date,repositories,findings,adopted,migrated_percent,rule:"))
        let summary = try XCTUnwrap(try json(scan.output, "scan")["summary"] as? [String: Any])
        XCTAssertEqual(String(lines[1].split(separator: ",")[3]), String(try XCTUnwrap(summary["findings"] as? Int)))
        let text = CLIRun(["fleet", reports.url.appendingPathComponent("scan.json").path])
        XCTAssertTrue(text.output.contains("acme/example"), text.output)
    }
}
