import AuditModel
import AuditProgress
import Foundation

/// The organisation page (`loadaudit fleet --html FILE`): per group of repositories that ran the same
/// rules, the total burndown (the progress page's chart, drawn from the group's aligned totals), the
/// adoption line and the projection, tables per rule and per owner; then the repositories (findings,
/// migrated, change over four weeks, last report, stale, rules, a link to their own page) and the
/// reports that could not be read. One file, no script: the charts are inline SVG.
public enum FleetPage {
    public static func render(_ report: FleetReport, title: String?, toolVersion: String) -> String {
        let heading = "\(title ?? "Migration") across \(counted(report.repositories.count, "repository", "repositories"))"
        var body = "<header><h1>\(MarkupText.escape(heading))</h1>\n"
        let first = report.groups.compactMap { $0.totals.first?.date }.min()
        body += "<p class=\"lead\">Merged from \(counted(report.repositories.count + report.unreadable.count + report.superseded.count, "report"))"
        if let first, let newest = report.newest { body += ", samples from \(first) to \(newest)" }
        body += ".</p>\n</header>\n"
        body += problems(report)
        if report.groups.count > 1 {
            body += "<p class=\"warning\" id=\"rules-differ\"><strong>The repositories ran \(report.groups.count) different sets of rules.</strong> "
            body += "Their counts are not comparable: each set has its own totals below, and none are added together.</p>\n"
        }
        for (index, group) in report.groups.enumerated() {
            body += section(group, index: index, of: report.groups.count)
        }
        body += repositoriesTable(report)
        let findings = report.groups.first?.totals.last?.findings ?? 0
        return HTMLPage.document(title: "loadaudit fleet: \(findings) findings left in \(counted(report.repositories.count, "repository", "repositories"))",
                                 body: body, toolVersion: toolVersion, extraStyle: style)
    }

    /// What the organisation page adds to the reports' style.
    static let style = """

    .warning { border-left: 4px solid #D55E00; padding: 4px 10px; background: #fff4ec; }
    tr.stale td { color: var(--muted); }
    h3.plain { font-family: inherit; }
    details summary { cursor: default; color: var(--muted); margin: 4px 0; }
    """

    // MARK: - Problems first: what is not in the totals

    private static func problems(_ report: FleetReport) -> String {
        guard !report.unreadable.isEmpty || !report.superseded.isEmpty else { return "" }
        var html = "<section id=\"unreadable\">\n"
        if !report.unreadable.isEmpty {
            html += "<h2>Reports that could not be read (\(report.unreadable.count))</h2>\n"
            html += "<p class=\"warning\">These reports are not in any count on this page.</p>\n<ul>\n"
            for problem in report.unreadable {
                html += "<li><code>\(MarkupText.escape(problem.source))</code>: \(MarkupText.escape(problem.problem))</li>\n"
            }
            html += "</ul>\n"
        }
        if !report.superseded.isEmpty {
            html += "<h2>Older reports left out (\(report.superseded.count))</h2>\n<p class=\"note\">A newer report of the same repository was given: only it counts.</p>\n<ul>\n"
            for problem in report.superseded {
                html += "<li><code>\(MarkupText.escape(problem.source))</code>: \(MarkupText.escape(problem.problem))</li>\n"
            }
            html += "</ul>\n"
        }
        return html + "</section>\n"
    }

    // MARK: - One group of repositories that ran the same rules

    /// The group's totals as a progress history, so that the progress page's chart and tables draw them.
    static func history(_ group: FleetReport.Group) -> ProgressHistory {
        let samples = group.totals.map { point -> ProgressHistory.Sample in
            var sample = ProgressHistory.Sample(commit: "", date: point.date, files: 0, findingsByRule: point.findingsByRule, findingsByFolder: [:],
                                                adoption: point.adopted == 0 ? [:] : ["adopted": point.adopted], incomplete: [])
            sample.findingsByOwner = point.findingsByOwner
            return sample
        }
        let rules = Set(group.totals.flatMap(\.findingsByRule.keys)).sorted()
        return ProgressHistory(path: ".", every: "aligned by date", rules: rules, newComponents: [], samples: samples)
    }

    private static func section(_ group: FleetReport.Group, index: Int, of count: Int) -> String {
        let id = "group-\(index + 1)"
        let rules = group.rulesIdentity.map { "Rules \($0.shortDescription)" } ?? "Rules unknown (reports without rulesIdentity)"
        var html = "<section id=\"\(id)\">\n<h2>\(count > 1 ? "\(index + 1). " : "")\(MarkupText.escape(rules)): "
        html += "\(counted(group.repositories.count, "repository", "repositories"))</h2>\n"
        guard let last = group.totals.last, let first = group.totals.first else { return html + "</section>\n" }
        html += "<div class=\"figures\">\n"
        func figure(_ value: String, _ label: String) {
            html += "<p><span class=\"figure-value\">\(value)</span><span class=\"figure-label\">\(MarkupText.escape(label))</span></p>\n"
        }
        figure(String(last.findings), "findings left in \(counted(last.repositories, "repository", "repositories")) (\(first.findings) at \(first.date))")
        figure(String(last.adopted), "uses of the new components (\(first.adopted) at \(first.date))")
        figure(last.migratedPercent.map { String(format: "%.1f %%", $0) } ?? "–", "migrated: adopted / (adopted + findings)")
        if let projection = group.projection {
            if let finish = projection.finishDate {
                figure(finish, String(format: "projected end: %.1f findings fewer a week (a projection)", projection.findingsPerWeek))
            } else {
                figure("no progress", "over the last \(projection.basedOnSamples) dates: no projected end")
            }
        }
        html += "</div>\n"
        html += "<p class=\"note\">At each date, each repository counts with its last report at or before it (a repository counts from its first sample on).</p>\n"
        let history = history(group)
        // The progress page's chart, its ids made this group's own.
        html += ProgressPage.burndown(history)
            .replacingOccurrences(of: "\"burndown", with: "\"\(id)-burndown")
            .replacingOccurrences(of: " burndown-desc", with: " \(id)-burndown-desc")
            .replacingOccurrences(of: "Every number is in the table of samples below.", with: "Every number is in the table of dates below.")
            .replacingOccurrences(of: "<h2>Burndown</h2>", with: "<h3 class=\"plain\">Total burndown</h3>")
        html += ProgressPage.breakdown(title: "By rule", id: "\(id)-rules", history: history, counts: \.findingsByRule, key: "Rule")
        if group.totals.contains(where: { !$0.findingsByOwner.isEmpty }) {
            html += ProgressPage.breakdown(title: "By owner across repositories (CODEOWNERS)", id: "\(id)-owners", history: history, counts: \.findingsByOwner, key: "Owner")
        }
        html += "<details id=\"\(id)-dates\"><summary>The totals at each date (\(group.totals.count))</summary>\n<table>\n"
        html += "<thead><tr><th>Date</th><th class=\"num\">Repositories</th><th class=\"num\">Findings</th><th class=\"num\">Adopted</th><th class=\"num\">Migrated</th></tr></thead>\n<tbody>\n"
        for point in group.totals.reversed() {
            html += "<tr><td class=\"date\">\(point.date)</td><td class=\"num\">\(point.repositories)</td><td class=\"num\">\(point.findings)</td>"
            html += "<td class=\"num\">\(point.adopted)</td><td class=\"num\">\(point.migratedPercent.map { String(format: "%.1f %%", $0) } ?? "–")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</details>\n</section>\n"
    }

    // MARK: - The repositories

    private static func repositoriesTable(_ report: FleetReport) -> String {
        guard !report.repositories.isEmpty else { return "" }
        let mainRules = report.groups.first?.rulesIdentity
        var html = "<section id=\"repositories\">\n<h2>Repositories</h2>\n"
        html += "<p class=\"note\">Stale: the last report is more than \(report.staleDays) days older than the newest (\(report.newest ?? "–")). "
        html += "“4 weeks”: findings now minus four weeks before the repository's last report. A scan report counts no adoption.</p>\n"
        html += "<table>\n<thead><tr><th>Repository</th><th class=\"num\">Findings</th><th class=\"num\">Adopted</th><th class=\"num\">Migrated</th>"
        html += "<th class=\"num\">4 weeks</th><th>Over time</th><th>Last report</th><th>Rules</th></tr></thead>\n<tbody>\n"
        let rows = report.repositories.sorted { ($0.last.findings, $1.name) > ($1.last.findings, $0.name) }
        for repository in rows {
            let last = repository.last
            let name = MarkupText.escape(repository.name)
            let link = repository.pageURL.map { "<a href=\"\(MarkupText.escape($0))\">\(name)</a>" } ?? name
            let change = repository.change28Days
            let changeClass = change > 0 ? "up" : change < 0 ? "down" : ""
            let scan = repository.kind == "scan"
            html += "<tr\(repository.stale ? " class=\"stale\"" : "")><td>\(link)</td><td class=\"num\">\(last.findings)</td>"
            html += "<td class=\"num\">\(scan ? "–" : String(last.adopted))</td>"
            html += "<td class=\"num\">\(scan ? "–" : last.migratedPercent.map { String(format: "%.1f %%", $0) } ?? "–")</td>"
            html += "<td class=\"num \(changeClass)\">\(change > 0 ? "+" : "")\(change)</td><td>\(ProgressPage.sparkline(repository.samples.map(\.findings)))</td>"
            html += "<td class=\"date\">\(last.date)\(repository.stale ? " <span class=\"state\">stale</span>" : "")</td>"
            let rules = repository.rulesIdentity.map { String($0.hash.prefix(8)) } ?? "unknown"
            let differs = repository.rulesIdentity != mainRules
            html += "<td><code>\(rules)</code>\(differs ? " <span class=\"state\">other rules</span>" : "")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }
}
