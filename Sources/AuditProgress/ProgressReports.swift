import Foundation

/// The progress history for people (a table), for tools (JSON, stable) and for spreadsheets (CSV).
public enum ProgressFormat: String, CaseIterable, Sendable {
    case text, json, csv

    public func render(_ history: ProgressHistory) -> String {
        switch self {
        case .text: return ProgressReports.text(history)
        case .json: return ProgressReports.json(history)
        case .csv: return ProgressReports.csv(history)
        }
    }
}

enum ProgressReports {
    static func text(_ history: ProgressHistory) -> String {
        guard let last = history.samples.last else { return "No commit to sample in \(history.path).\n" }
        let count = history.samples.count
        var text = "Migration progress of \(history.path), \(count) \(count == 1 ? "sample" : "samples") (\(history.every)):\n\n"
        let rules = history.rules.filter { rule in history.samples.contains { $0.findingsByRule[rule] != nil } }
        text += "date        commit    findings  adopted  migrated\n"
        for sample in history.samples {
            let migrated = sample.migratedPercent.map { String(format: "%5.1f %%", $0) } ?? "     -"
            var mark = sample.incomplete.isEmpty ? "" : "  incomplete (\(sample.incomplete.count) files)"
            if !sample.events.isEmpty { mark += "  (\(sample.events.joined(separator: "; ")))" }
            text += "\(sample.date)  \(sample.commit.prefix(8))  \(pad(sample.findings, 8))  \(pad(sample.adopted, 7))  \(migrated)\(mark)\n"
        }
        if !rules.isEmpty {
            text += "\nNow (\(last.date)), by rule:\n"
            let width = rules.map(\.count).max() ?? 0
            for rule in rules {
                let first = history.samples.first?.findingsByRule[rule] ?? 0
                text += "  \(rule.padding(toLength: width, withPad: " ", startingAt: 0))  \(pad(last.findingsByRule[rule] ?? 0, 5))  (was \(first))\n"
            }
        }
        if !last.findingsByFolder.isEmpty {
            text += "\nNow, by folder:\n"
            for (folder, count) in last.findingsByFolder.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                text += "  \(pad(count, 5))  \(folder)\n"
            }
        }
        if !last.findingsByOwner.isEmpty {
            text += "\nNow, by owner (CODEOWNERS):\n"
            for (owner, count) in last.findingsByOwner.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                text += "  \(pad(count, 5))  \(owner)\n"
            }
        }
        let moves = history.samples.flatMap(\.biggestChanges)
            .sorted { (abs($0.findings), abs($0.adopted), $0.date) > (abs($1.findings), abs($1.adopted), $1.date) }.prefix(5)
        if !moves.isEmpty {
            text += "\nThe commits that moved the counts most:\n"
            for move in moves {
                let findings = (move.findings > 0 ? "+" : "") + String(move.findings)
                let adopted = (move.adopted > 0 ? "+" : "") + String(move.adopted)
                text += "  \(move.date)  \(move.commit.prefix(8))  findings \(findings), adopted \(adopted)  \(move.subject) (\(move.author))\n"
            }
        }
        if let projection = history.projection {
            if let finish = projection.finishDate {
                text += String(format: "\nProjection (a line through the last %d samples): %.1f findings fewer a week; none left by %@.\n",
                               projection.basedOnSamples, projection.findingsPerWeek, finish)
            } else {
                text += "\nProjection: no progress over the last \(projection.basedOnSamples) samples (the count does not fall).\n"
            }
        }
        return text
    }

    static func json(_ history: ProgressHistory) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(history)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func csv(_ history: ProgressHistory) -> String {
        let header = ["date", "commit", "files", "findings", "adopted", "migrated_percent", "incomplete_files"]
            + history.rules.map { "rule:" + $0 } + history.newComponents.map { "adopted:" + $0 }
        var lines = [header.joined(separator: ",")]
        for sample in history.samples {
            let migrated: String = sample.migratedPercent.map { String(format: "%.1f", $0) } ?? ""
            var row: [String] = [sample.date, sample.commit, String(sample.files), String(sample.findings), String(sample.adopted)]
            row.append(migrated)
            row.append(String(sample.incomplete.count))
            for rule in history.rules { row.append(String(sample.findingsByRule[rule] ?? 0)) }
            for component in history.newComponents { row.append(String(sample.adoption[component] ?? 0)) }
            lines.append(row.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
