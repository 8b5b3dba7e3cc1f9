import Foundation

/// The organisation report for people (text), for tools (JSON: the whole `FleetReport`) and for
/// spreadsheets (CSV: one row per group and date).
public enum FleetFormat: String, CaseIterable, Sendable {
    case text, json, csv

    public func render(_ report: FleetReport) -> String {
        switch self {
        case .text: return FleetReports.text(report)
        case .json: return FleetReports.json(report)
        case .csv: return FleetReports.csv(report)
        }
    }
}

enum FleetReports {
    static func text(_ report: FleetReport) -> String {
        var text = "Organisation report: \(counted(report.repositories.count, "repository", "repositories"))"
        let stale = report.repositories.filter(\.stale).count
        if stale > 0 { text += ", \(stale) stale (last report over \(report.staleDays) days before \(report.newest ?? "-"))" }
        if !report.unreadable.isEmpty { text += ", \(counted(report.unreadable.count, "report", "reports")) could not be read" }
        text += ".\n"
        if report.groups.count > 1 {
            text += "\nThe repositories ran \(report.groups.count) different sets of rules: their counts are shown apart, never added together.\n"
        }
        for group in report.groups {
            text += "\nRules \(group.rulesIdentity?.shortDescription ?? "unknown (reports without rulesIdentity)"): "
            text += "\(counted(group.repositories.count, "repository", "repositories"))\n"
            text += "date        repositories  findings  adopted  migrated\n"
            for point in group.totals {
                text += "\(point.date)  \(pad(point.repositories, 12))  \(pad(point.findings, 8))  \(pad(point.adopted, 7))  \(percent(point.migratedPercent))\n"
            }
            if let projection = group.projection {
                if let finish = projection.finishDate {
                    text += String(format: "Projection (a line through the last %d dates): %.1f findings fewer a week; none left by %@.\n",
                                   projection.basedOnSamples, projection.findingsPerWeek, finish)
                } else {
                    text += "Projection: no progress over the last \(projection.basedOnSamples) dates (the count does not fall).\n"
                }
            }
            if let last = group.totals.last {
                text += breakdown("Now, by rule:", last.findingsByRule)
                text += breakdown("Now, by owner (CODEOWNERS):", last.findingsByOwner)
            }
        }
        if !report.repositories.isEmpty {
            text += "\nRepositories:\n"
            let width = max(10, report.repositories.map(\.name.count).max() ?? 0)
            text += "repository".padding(toLength: width, withPad: " ", startingAt: 0) + "  findings  adopted  migrated  4 weeks  last report  rules\n"
            for repository in report.repositories {
                let last = repository.last
                let change = (repository.change28Days > 0 ? "+" : "") + String(repository.change28Days)
                text += repository.name.padding(toLength: width, withPad: " ", startingAt: 0)
                text += "  \(pad(last.findings, 8))  \(repository.kind == "scan" ? "      -" : pad(last.adopted, 7))  \(repository.kind == "scan" ? "     -" : percent(last.migratedPercent))"
                text += "  \(pad(change, 7))  \(last.date)  \(repository.rulesIdentity?.hash.prefix(8) ?? "unknown")\(repository.stale ? "  stale" : "")\n"
            }
        }
        if !report.unreadable.isEmpty {
            text += "\nCould not be read (not merged):\n"
            for problem in report.unreadable { text += "  \(problem.source): \(problem.problem)\n" }
        }
        if !report.superseded.isEmpty {
            text += "\nLeft out (a newer report of the same repository was given):\n"
            for problem in report.superseded { text += "  \(problem.source): \(problem.problem)\n" }
        }
        return text
    }

    static func json(_ report: FleetReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One row per group and date; a column per rule of any group.
    static func csv(_ report: FleetReport) -> String {
        let rules = Set(report.groups.flatMap { $0.totals.flatMap(\.findingsByRule.keys) }).sorted()
        var lines = [(["rules_identity", "date", "repositories", "findings", "adopted", "migrated_percent"] + rules.map { "rule:" + $0 }).joined(separator: ",")]
        for group in report.groups {
            for point in group.totals {
                var row = [group.rulesIdentity?.hash ?? "unknown", point.date, String(point.repositories), String(point.findings), String(point.adopted)]
                row.append(point.migratedPercent.map { String(format: "%.1f", $0) } ?? "")
                row += rules.map { String(point.findingsByRule[$0] ?? 0) }
                lines.append(row.joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func breakdown(_ title: String, _ counts: [String: Int]) -> String {
        guard !counts.isEmpty else { return "" }
        var text = title + "\n"
        for (name, count) in counts.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) { text += "  \(pad(count, 6))  \(name)\n" }
        return text
    }

    private static func percent(_ value: Double?) -> String { value.map { String(format: "%5.1f %%", $0) } ?? "     -" }

    private static func pad(_ value: Int, _ width: Int) -> String { pad(String(value), width) }

    private static func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
}

/// "1 repository", "3 repositories".
private func counted(_ count: Int, _ noun: String, _ plural: String) -> String { "\(count) \(count == 1 ? noun : plural)" }
