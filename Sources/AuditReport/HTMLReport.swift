import AuditModel
import Foundation

/// The HTML report: one self-contained page (no script, no font, no request to the network) with
/// the findings grouped by folder, each with its line of code and the proposed replacement. It
/// prints on paper as it shows on screen. `ProgressPage` puts the same section under its charts.
public enum HTMLReport {
    public static func render(_ context: ReportContext) -> String {
        let findings = context.result.findings
        let files = Set(findings.map(\.file)).count
        var body = "<header><h1>\(MarkupText.escape(context.migrationTitle ?? "Migration")): what is left</h1>\n"
        body += "<p class=\"lead\">\(counted(findings.count, "finding")) in \(counted(files, "file")) "
        body += "(\(counted(context.result.filesScanned, "Swift file")) scanned)"
        if context.comparesToBaseline {
            body += "; \(context.newFindings.count) new (\(MarkupText.escape(context.newReason))), "
            body += "\(context.existingFindings.count) existing (\(MarkupText.escape(context.existingReason)))"
        }
        body += ".</p>\n</header>\n"
        body += fixClassSummary(findings)
        body += findingsSection(context, heading: "Findings by folder")
        return HTMLPage.document(title: "loadaudit: \(counted(findings.count, "finding"))", body: body, toolVersion: context.toolVersion)
    }

    /// What a fix would do with the findings: counts per fix class, as a sentence a lead can act on.
    static func fixClassSummary(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "" }
        let counts = Dictionary(grouping: findings, by: \.fix).mapValues(\.count)
        let parts = FixClass.allCases.compactMap { fix in counts[fix].map { "\($0) \(fix.rawValue)" } }
        return "<p>Fix classes: \(parts.joined(separator: ", ")) (<code>loadaudit fix</code> rewrites the safe ones; "
            + "<code>--unsafe</code> also the unsafe ones; manual ones need a person).</p>\n"
    }

    /// The findings grouped by folder (a table of the folders first), in report order: each with its place, rule,
    /// message, its line with the span marked, and the replacement.
    public static func findingsSection(_ context: ReportContext, heading: String) -> String {
        var html = "<section id=\"findings\">\n<h2>\(MarkupText.escape(heading))</h2>\n"
        let findings = context.result.findings
        guard !findings.isEmpty else { return html + "<p>No finding.</p>\n</section>\n" }
        var byFolder: [String: [(path: String, finding: Finding)]] = [:]
        for finding in findings {
            let path = context.pathFromCurrentDirectory(finding)
            let folder = (path as NSString).deletingLastPathComponent
            byFolder[folder.isEmpty ? "." : folder, default: []].append((path, finding))
        }
        let folders = byFolder.keys.sorted()
        html += "<table class=\"contents\">\n<thead><tr><th>Folder</th><th class=\"num\">Findings</th><th class=\"num\">Files</th></tr></thead>\n<tbody>\n"
        for (number, folder) in folders.enumerated() {
            let entries = byFolder[folder]!
            html += "<tr><td><a href=\"#folder-\(number + 1)\">\(MarkupText.escape(folder))/</a></td><td class=\"num\">\(entries.count)</td>"
            html += "<td class=\"num\">\(Set(entries.map(\.path)).count)</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        for (number, folder) in folders.enumerated() {
            let entries = byFolder[folder]!
            html += "<section class=\"folder\" id=\"folder-\(number + 1)\">\n<h3>\(MarkupText.escape(folder))/ <span class=\"count\">(\(counted(entries.count, "finding")))</span></h3>\n"
            html += "<ol class=\"findings\">\n"
            for (path, finding) in entries { html += item(finding, path: path, context: context) }
            html += "</ol>\n</section>\n"
        }
        return html + "</section>\n"
    }

    private static func item(_ finding: Finding, path: String, context: ReportContext) -> String {
        let name = (path as NSString).lastPathComponent
        var html = "<li class=\"finding\"><p><span class=\"place\" title=\"\(MarkupText.escape(path))\">\(MarkupText.escape(name)):\(finding.start.line):\(finding.start.column)</span> "
        html += "<span class=\"badge \(finding.severity.rawValue)\">\(finding.severity.rawValue)</span> "
        html += "<span class=\"rule\">\(MarkupText.escape(finding.ruleId))</span>"
        if context.comparesToBaseline { html += " <span class=\"state\">\(finding.baseline == .new ? "new" : "existing")</span>" }
        html += "<br>\(MarkupText.escape(finding.message))</p>\n"
        if let shown = finding.shownLine {
            let scalars = Array(shown.text.unicodeScalars)
            let start = min(shown.start, scalars.count), end = min(max(shown.end, start), scalars.count)
            func text(_ range: Range<Int>) -> String { MarkupText.escape(String(String.UnicodeScalarView(scalars[range]))) }
            html += "<pre class=\"code\"><span class=\"line-number\">\(finding.start.line)</span>"
            html += "\(text(0..<start))<mark>\(text(start..<end))</mark>\(text(end..<scalars.count))</pre>\n"
        }
        if let replacement = finding.replacement {
            html += "<p class=\"replacement\">Replace with <code>\(MarkupText.escape(replacement))</code> (fix: \(finding.fix.rawValue))</p>\n"
        } else {
            html += "<p class=\"replacement\">No replacement proposed (fix: \(finding.fix.rawValue)).</p>\n"
        }
        return html + "</li>\n"
    }

}

/// The page around every HTML report: the style (screen and print), the document's head, the
/// footer. Text goes through `MarkupText.escape`.
enum HTMLPage {

    static func document(title: String, body: String, toolVersion: String, extraStyle: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="loadaudit \(MarkupText.escape(toolVersion))">
        <title>\(MarkupText.escape(title))</title>
        <style>
        \(style)\(extraStyle)
        </style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        <footer><p>Made by loadaudit \(MarkupText.escape(toolVersion)). This page loads nothing from the network.</p></footer>
        </body>
        </html>

        """
    }

    /// Colours: the Okabe-Ito palette (distinguishable with the common colour-blindnesses); text
    /// keeps a contrast of at least 4.5:1 on its background.
    static let style = """
    :root { --ink: #1a1a1a; --muted: #555; --line: #d0d0d0; --paper: #fff; --code: #f5f5f2; --mark: #ffe08a; }
    * { box-sizing: border-box; }
    body { margin: 0; color: var(--ink); background: var(--paper); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
    main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 8px; }
    footer { max-width: 1100px; margin: 0 auto; padding: 0 28px 24px; color: var(--muted); font-size: 13px; }
    h1 { font-size: 26px; margin: 0 0 4px; }
    h2 { font-size: 20px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
    h3 { font-size: 16px; margin: 20px 0 4px; font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
    h4 { font-size: 14px; margin: 12px 0 2px; font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; color: var(--muted); }
    .lead { font-size: 17px; margin: 4px 0 12px; }
    table.contents a { color: #0b5394; }
    .count { font-weight: normal; color: var(--muted); font-family: system-ui, sans-serif; }
    code, pre, .place, .rule, td.num, .commit { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 13px; }
    ol.findings { list-style: none; margin: 0; padding: 0; }
    li.finding { margin: 6px 0 14px; padding-left: 10px; border-left: 3px solid var(--line); }
    li.finding p { margin: 2px 0; }
    .place { font-weight: 600; }
    .rule { color: #0b5394; }
    .state { font-size: 12px; padding: 0 6px; border: 1px solid var(--line); border-radius: 8px; }
    .badge { font-size: 12px; padding: 0 6px; border-radius: 8px; color: #fff; }
    .badge.error { background: #a8331b; } .badge.warning { background: #8a5a00; } .badge.info, .badge.note { background: #0b5394; }
    pre.code { margin: 4px 0; padding: 6px 10px; background: var(--code); border-radius: 4px; overflow-x: auto; white-space: pre; }
    pre.code mark { background: var(--mark); color: inherit; padding: 1px 0; }
    .line-number { display: inline-block; min-width: 3em; color: var(--muted); user-select: none; }
    .replacement code { background: #e8f3ec; padding: 1px 4px; border-radius: 3px; }
    table { border-collapse: collapse; margin: 8px 0 16px; }
    th, td { text-align: left; padding: 3px 12px 3px 0; border-bottom: 1px solid #eee; vertical-align: middle; }
    th { font-size: 13px; color: var(--muted); font-weight: 600; }
    td.num, th.num { text-align: right; padding-right: 16px; }
    .up { color: #a8331b; } .down { color: #006b4f; }
    figure { margin: 8px 0 16px; }
    figcaption { color: var(--muted); font-size: 14px; margin-top: 4px; }
    .legend { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 13px; }
    .swatch { print-color-adjust: exact; -webkit-print-color-adjust: exact; display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; border: 1px solid rgba(0,0,0,.35); }
    .swatch.line { height: 3px; vertical-align: 3px; border: 0; }
    .swatch.dashed { width: 24px; height: 0; border: 0; border-top: 3px dashed var(--ink); vertical-align: 3px; }
    .figures { display: flex; flex-wrap: wrap; gap: 12px 36px; margin: 12px 0; }
    .figures p { margin: 0; max-width: 215px; }
    td.date, td.num, td.commit { white-space: nowrap; }
    .figure-value { font-size: 26px; font-weight: 650; display: block; }
    .figure-label { color: var(--muted); font-size: 13px; }
    .note { color: var(--muted); font-size: 13px; }
    svg text { font: 12px system-ui, sans-serif; fill: var(--muted); }
    @media print {
      body { font-size: 11pt; }
      main, footer { max-width: none; padding: 0; }
      h2 { break-after: avoid; }
      figure, li.finding, tr { break-inside: avoid; }
      pre.code { white-space: pre-wrap; border: 1px solid #ccc; }
      .badge { color: #000; border: 1px solid #000; background: none !important; }
    }
    """
}
