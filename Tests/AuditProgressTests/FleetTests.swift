@testable import AuditProgress
import Foundation
import XCTest

/// `fleet`'s merge on generated reports: the organisation's totals at every date equal the sum of each
/// repository's own last sample at or before it, per rule and per owner; different rules are kept apart;
/// an unreadable report is named and the rest merged.
final class FleetTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so that a failure can be replayed from its seed.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    private static let rules = ["raw-progress-view", "themed-spinner", "loading-dots", "loading-overlay"]
    private static let owners = ["@acme/trips", "@acme/maps", "@acme/core", "(no owner)"]
    private static let sameRules = RulesIdentity(hash: "9a223299d0257870", files: ["built-in"])

    /// A progress report as `progress --format json` writes it, with random dates and counts.
    private static func progressReport(_ name: String, _ random: inout Generator, rules identity: RulesIdentity = sameRules) -> ProgressHistory {
        var day = ProgressHistory.day("2026-01-01")! + Double(random.next(60)) * 86_400
        var samples: [ProgressHistory.Sample] = []
        for _ in 0..<(1 + random.next(12)) {
            var byRule: [String: Int] = [:]
            for rule in rules where random.next(3) > 0 { byRule[rule] = random.next(40) }
            var byOwner: [String: Int] = [:]
            var left = byRule.values.reduce(0, +)
            for owner in owners.dropLast() where left > 0 {
                let share = random.next(left + 1)
                if share > 0 { byOwner[owner] = share }
                left -= share
            }
            if left > 0 { byOwner["(no owner)"] = left }
            var sample = ProgressHistory.Sample(commit: String(repeating: "c", count: 40), date: ProgressHistory.format(day), files: 10,
                                                findingsByRule: byRule, findingsByFolder: [:], adoption: ["LoadingSpinner": random.next(50)], incomplete: [])
            sample.findingsByOwner = byOwner
            samples.append(sample)
            day += Double(random.next(15)) * 86_400  // 0: two samples on one day (a tag and the week's newest commit)
        }
        var history = ProgressHistory(path: ".", every: "weekly", rules: rules, newComponents: ["LoadingSpinner"], samples: samples)
        history.identify(ReportIdentity(repository: name, commit: String(repeating: "d", count: 40), date: samples.last!.date, rulesIdentity: identity))
        return history
    }

    /// What a repository counts at `date`: its last sample at or before it (a day's last sample), or nothing.
    private static func own(_ history: ProgressHistory, at date: String) -> ProgressHistory.Sample? {
        history.samples.last { $0.date <= date }
    }

    private static func sum(_ counts: [[String: Int]]) -> [String: Int] {
        counts.reduce(into: [:]) { total, counts in for (key, value) in counts { total[key, default: 0] += value } }.filter { $0.value != 0 }
    }

    func testTotalsEqualTheSumOfEachRepositorysOwnReportAtEveryDate() throws {
        for seed in 1...40 {
            var random = Generator(state: UInt64(seed))
            let histories = (0..<(1 + random.next(25))).map { Self.progressReport("acme/app-\($0)", &random) }
            let reports = histories.map { (source: "reports/\($0.repository!).json", data: Data(ProgressFormat.json.render($0).utf8)) }
            let fleet = FleetReport.merge(reports)
            XCTAssertEqual(fleet.unreadable, [], "seed \(seed)")
            XCTAssertEqual(fleet.groups.count, 1, "seed \(seed)")
            let group = try XCTUnwrap(fleet.groups.first)
            let dates = Set(histories.flatMap { $0.samples.map(\.date) }).sorted()
            XCTAssertEqual(group.totals.map(\.date), dates, "seed \(seed): a point at every date any repository sampled")
            for point in group.totals {
                let own = histories.compactMap { Self.own($0, at: point.date) }
                XCTAssertEqual(point.repositories, own.count, "seed \(seed), \(point.date)")
                XCTAssertEqual(point.findingsByRule, Self.sum(own.map(\.findingsByRule)), "seed \(seed), \(point.date)")
                XCTAssertEqual(point.findingsByOwner, Self.sum(own.map(\.findingsByOwner)), "seed \(seed), \(point.date): per owner")
                XCTAssertEqual(point.findings, own.map(\.findings).reduce(0, +), "seed \(seed), \(point.date)")
                XCTAssertEqual(point.adopted, own.map(\.adopted).reduce(0, +), "seed \(seed), \(point.date)")
            }
            // Each repository's row is its own last sample.
            for history in histories {
                let row = try XCTUnwrap(fleet.repositories.first { $0.name == history.repository })
                XCTAssertEqual(row.last.findings, history.samples.last!.findings, "seed \(seed)")
                XCTAssertEqual(row.last.date, history.samples.last!.date, "seed \(seed)")
            }
        }
    }

    func testDifferentRulesAreGroupsThatAreNeverAddedTogether() throws {
        var random = Generator(state: 7)
        let team = RulesIdentity(hash: "0123456789abcdef", files: ["built-in", "rules/team.yml"])
        let histories = [Self.progressReport("acme/a", &random), Self.progressReport("acme/b", &random), Self.progressReport("acme/c", &random, rules: team)]
        let fleet = FleetReport.merge(histories.map { (source: "\($0.repository!).json", data: Data(ProgressFormat.json.render($0).utf8)) })
        XCTAssertEqual(fleet.groups.map(\.repositories), [["acme/a", "acme/b"], ["acme/c"]])
        XCTAssertEqual(fleet.groups.map(\.rulesIdentity), [Self.sameRules, team])
        XCTAssertEqual(fleet.groups[1].totals.last?.findings, histories[2].samples.last?.findings)
        XCTAssertTrue(FleetFormat.text.render(fleet).contains("2 different sets of rules"))
    }

    func testAnUnreadableReportIsNamedAndTheRestMerged() throws {
        var random = Generator(state: 3)
        let good = Self.progressReport("acme/a", &random)
        let fleet = FleetReport.merge([
            (source: "a.json", data: Data(ProgressFormat.json.render(good).utf8)),
            (source: "cut.json", data: Data(ProgressFormat.json.render(good).utf8.prefix(100))),
            (source: "other.json", data: Data("{\"name\": \"not a report\"}".utf8)),
        ])
        XCTAssertEqual(fleet.repositories.map(\.name), ["acme/a"])
        XCTAssertEqual(fleet.unreadable.map(\.source), ["cut.json", "other.json"])
        XCTAssertTrue(fleet.unreadable[0].problem.hasPrefix("not JSON"), fleet.unreadable[0].problem)
        XCTAssertTrue(fleet.unreadable[1].problem.contains("neither `samples`"), fleet.unreadable[1].problem)
        XCTAssertTrue(FleetFormat.text.render(fleet).contains("cut.json: not JSON"))
    }

    /// Two reports of one repository: the newer counts, the older is named; a repository whose last report
    /// is older than the stale limit before the newest is stale.
    func testAnOlderReportOfTheSameRepositoryIsLeftOutAndOldOnesAreStale() throws {
        func report(_ name: String, _ dates: [String]) -> Data {
            let samples = dates.map { ProgressHistory.Sample(commit: "c", date: $0, files: 1, findingsByRule: ["loading-dots": 3], findingsByFolder: [:],
                                                             adoption: [:], incomplete: []) }
            var history = ProgressHistory(path: ".", every: "weekly", rules: ["loading-dots"], newComponents: [], samples: samples)
            history.identify(ReportIdentity(repository: name, commit: nil, date: dates.last!, rulesIdentity: Self.sameRules))
            return Data(ProgressFormat.json.render(history).utf8)
        }
        let fleet = FleetReport.merge([
            (source: "old/a.json", data: report("acme/a", ["2026-01-05", "2026-02-02"])),
            (source: "new/a.json", data: report("acme/a", ["2026-01-05", "2026-03-02"])),
            (source: "b.json", data: report("acme/b", ["2026-01-20"])),
        ])
        XCTAssertEqual(fleet.repositories.map(\.source), ["new/a.json", "b.json"])
        XCTAssertEqual(fleet.superseded.map(\.source), ["old/a.json"])
        XCTAssertEqual(fleet.repositories.map(\.stale), [false, true])
        XCTAssertEqual(fleet.groups.first?.totals.last?.findings, 6)
    }

    /// A scan report is one sample at its date.
    func testAScanReportIsOneSampleAtItsDate() throws {
        let scan = """
        {"commit": "abc", "date": "2026-02-10", "findings": [], "repository": "acme/scan-only",
         "rulesIdentity": {"files": ["built-in"], "hash": "9a223299d0257870"},
         "summary": {"byRule": {"loading-dots": 2, "raw-progress-view": 5}, "findings": 7}}
        """
        let fleet = FleetReport.merge([(source: "s.json", data: Data(scan.utf8))])
        XCTAssertEqual(fleet.repositories.first?.kind, "scan")
        XCTAssertEqual(fleet.groups.first?.totals.map(\.date), ["2026-02-10"])
        XCTAssertEqual(fleet.groups.first?.totals.first?.findings, 7)
    }
}
