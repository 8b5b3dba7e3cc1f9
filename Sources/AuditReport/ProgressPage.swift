import AuditModel
import AuditProgress
import Foundation

/// The progress page (`loadaudit progress --html FILE`): a stacked burndown of the findings per rule
/// with the adoption line and the projection, tables per folder and per owner with sparklines, the
/// samples with the commits that moved the counts, and the findings left at HEAD. One file, no
/// script: the charts are inline SVG, each with a text alternative, and every number in them is
/// also in a table.
public enum ProgressPage {
    public static func render(_ history: ProgressHistory, current: ReportContext) -> String {
        guard let last = history.samples.last, let first = history.samples.first else {
            let heading = MarkupText.escape(current.migrationTitle.map { "\($0) progress" } ?? "Migration progress")
            return HTMLPage.document(title: "loadaudit progress", body: "<h1>\(heading)</h1><p>No commit to sample in \(MarkupText.escape(history.path)).</p>",
                                     toolVersion: current.toolVersion)
        }
        var body = "<header><h1>\(MarkupText.escape(current.migrationTitle.map { "\($0) progress" } ?? "Migration progress"))</h1>\n"
        body += "<p class=\"lead\">\(MarkupText.escape(history.path == "." ? "The repository" : history.path)), "
        body += "\(counted(history.samples.count, "sample")) (\(MarkupText.escape(history.every))) from \(first.date) to \(last.date).</p>\n</header>\n"
        body += figures(history, last: last, first: first)
        body += burndown(history)
        body += breakdown(title: "By folder", id: "folders", history: history, counts: \.findingsByFolder, key: "Folder")
        if history.samples.contains(where: { !$0.findingsByOwner.isEmpty }) {
            body += breakdown(title: "By owner (CODEOWNERS)", id: "owners", history: history, counts: \.findingsByOwner, key: "Owner")
        }
        body += samplesTable(history)
        body += HTMLReport.findingsSection(current, heading: "Findings left at \(last.date) (\(last.commit.prefix(8)))")
        return HTMLPage.document(title: "loadaudit progress: \(last.findings) findings left", body: body, toolVersion: current.toolVersion)
    }

    // MARK: - The figures at the top

    private static func figures(_ history: ProgressHistory, last: ProgressHistory.Sample, first: ProgressHistory.Sample) -> String {
        var html = "<div class=\"figures\" id=\"now\">\n"
        func figure(_ value: String, _ label: String, id: String) {
            html += "<p><span class=\"figure-value\" id=\"\(id)\">\(value)</span><span class=\"figure-label\">\(label)</span></p>\n"
        }
        figure(String(last.findings), "findings left (\(first.findings) at \(first.date))", id: "findings-now")
        figure(String(last.adopted), "uses of the new components (\(first.adopted) at \(first.date))", id: "adopted-now")
        figure(last.migratedPercent.map { String(format: "%.1f %%", $0) } ?? "–", "migrated: adopted / (adopted + findings)", id: "migrated-now")
        if let projection = history.projection {
            if let finish = projection.finishDate {
                figure(finish, String(format: "projected end: %.1f findings fewer a week (a projection)", projection.findingsPerWeek), id: "projection")
            } else {
                figure("no progress", "over the last \(projection.basedOnSamples) samples: no projected end", id: "projection")
            }
        }
        return html + "</div>\n"
    }

    // MARK: - The burndown

    /// Okabe & Ito's palette (without black): told apart with every common colour-blindness.
    static let palette = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"]
    static let otherColour = "#9A9A9A"

    /// The rules as the chart stacks them: the seven with the most findings over the history, then
    /// the others as one layer.
    static func layers(_ history: ProgressHistory) -> [(name: String, colour: String, counts: [Int])] {
        let totals = history.rules.map { rule in (rule, history.samples.map { $0.findingsByRule[rule] ?? 0 }) }
            .filter { $0.1.contains { $0 > 0 } }
            .sorted { ($0.1.reduce(0, +), $1.0) > ($1.1.reduce(0, +), $0.0) }
        var layers = totals.prefix(palette.count).enumerated().map { (name: $1.0, colour: palette[$0], counts: $1.1) }
        let others = totals.dropFirst(palette.count)
        if !others.isEmpty {
            let counts = history.samples.indices.map { index in others.reduce(0) { $0 + $1.1[index] } }
            layers.append((name: counted(others.count, "other rule"), colour: otherColour, counts: counts))
        }
        return layers
    }

    static func burndown(_ history: ProgressHistory) -> String {
        let samples = history.samples
        let times = samples.map { ProgressHistory.day($0.date) ?? 0 }
        let layers = layers(history)
        let width = 1040.0, height = 340.0, left = 52.0, right = 20.0, top = 14.0, bottom = 30.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        // The time axis reaches the projected end when it lies no further out than twice the history's length.
        let start = times.first ?? 0
        var end = max(times.last ?? 0, start + 86_400)
        let finish = history.projection?.finishDate.flatMap(ProgressHistory.day)
        let projectionEnd = finish.flatMap { $0 - end <= max(2 * (end - start), 86_400 * 28) ? $0 : nil }
        end = max(end, projectionEnd ?? end)
        let highest = max(1, samples.map { max($0.findings, $0.adopted) }.max() ?? 1)
        let step = niceStep(Double(highest) / 4)
        let axisTop = (Double(highest) / step).rounded(.up) * step
        func x(_ time: Double) -> Double { left + (time - start) / (end - start) * plotWidth }
        func y(_ value: Double) -> Double { top + plotHeight - value / axisTop * plotHeight }
        func point(_ px: Double, _ py: Double) -> String { String(format: "%.1f,%.1f", px, py) }

        let firstSample = samples.first!, lastSample = samples.last!
        let description = "Findings went from \(firstSample.findings) on \(firstSample.date) to \(lastSample.findings) on \(lastSample.date); "
            + "uses of the new components from \(firstSample.adopted) to \(lastSample.adopted)."
            + (history.projection?.finishDate.map { " A straight-line projection reaches zero on \($0)." } ?? "")
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-labelledby=\"burndown-title burndown-desc\">\n"
        svg += "<title id=\"burndown-title\">Findings per rule (stacked) and uses of the new components, per sample</title>\n"
        svg += "<desc id=\"burndown-desc\">\(MarkupText.escape(description))</desc>\n"
        // Grid and the count axis.
        var tick = 0.0
        while tick <= axisTop + 0.5 {
            svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\(q(y(tick))) y2=\(q(y(tick))) stroke=\"#e4e4e4\"/>"
            svg += "<text x=\"\(left - 6)\" y=\(q(y(tick) + 4)) text-anchor=\"end\">\(Int(tick))</text>\n"
            tick += step
        }
        // The time axis: five dates.
        for index in 0...4 {
            let time = start + (end - start) * Double(index) / 4
            let anchor = index == 0 ? "start" : index == 4 ? "end" : "middle"
            svg += "<text x=\(q(x(time))) y=\"\(height - 8)\" text-anchor=\"\(anchor)\">\(ProgressHistory.format(time))</text>\n"
        }
        // The stacked areas: each layer from the sum of the layers below it to that plus its own.
        var below = Array(repeating: 0, count: samples.count)
        for layer in layers {
            let above = zip(below, layer.counts).map(+)
            let upper = samples.indices.map { point(x(times[$0]), y(Double(above[$0]))) }
            let lower = samples.indices.reversed().map { point(x(times[$0]), y(Double(below[$0]))) }
            let shape = samples.count == 1
                ? "<rect x=\(q(x(times[0]) - 4)) y=\(q(y(Double(above[0])))) width=\"8\" height=\(q(y(Double(below[0])) - y(Double(above[0])))) fill=\"\(layer.colour)\">"
                : "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(layer.colour)\" stroke=\"#fff\" stroke-width=\"0.6\">"
            svg += shape + "<title>\(MarkupText.escape(layer.name)): \(layer.counts.last ?? 0) now, at most \(layer.counts.max() ?? 0)</title>"
            svg += samples.count == 1 ? "</rect>\n" : "</polygon>\n"
            below = above
        }
        // Samples that could not be read whole, and changes of the rules, as marks on the time axis.
        for (index, sample) in samples.enumerated() where !sample.incomplete.isEmpty || !sample.events.isEmpty {
            let note = (sample.events + (sample.incomplete.isEmpty ? [] : ["incomplete: \(sample.incomplete.count) files not analysed"])).joined(separator: "; ")
            svg += "<line x1=\(q(x(times[index]))) x2=\(q(x(times[index]))) y1=\"\(top)\" y2=\"\(top + plotHeight)\" stroke=\"#555\" stroke-dasharray=\"2 3\">"
            svg += "<title>\(sample.date): \(MarkupText.escape(note))</title></line>"
            let label = sample.events.isEmpty ? "incomplete" : "rules changed"
            svg += "<text x=\(q(x(times[index]) + 4)) y=\"\(top + 10)\">\(label)</text>\n"
        }
        // The projection: from the last count to zero at the projected day.
        if let finish = projectionEnd, let lastTime = times.last {
            svg += "<line x1=\(q(x(lastTime))) y1=\(q(y(Double(lastSample.findings)))) x2=\(q(x(finish))) y2=\(q(y(0))) "
            svg += "stroke=\"#1a1a1a\" stroke-width=\"2\" stroke-dasharray=\"7 5\"><title>projection: none left by \(ProgressHistory.format(finish))</title></line>\n"
        }
        // Adoption: a black line with a white edge, over the areas.
        if samples.count > 1 {
            let line = samples.indices.map { point(x(times[$0]), y(Double(samples[$0].adopted))) }.joined(separator: " ")
            svg += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"#fff\" stroke-width=\"5\"/>"
            svg += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"2.5\"><title>uses of the new components: \(lastSample.adopted) now</title></polyline>\n"
        } else {
            svg += "<circle cx=\(q(x(times[0]))) cy=\(q(y(Double(lastSample.adopted)))) r=\"4\" fill=\"#1a1a1a\"/>\n"
        }
        svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\(q(y(0))) y2=\(q(y(0))) stroke=\"#888\"/>\n</svg>\n"

        var legend = "<ul class=\"legend\" aria-hidden=\"true\">\n"
        for layer in layers.reversed() {
            legend += "<li><span class=\"swatch\" style=\"background:\(layer.colour)\"></span>\(MarkupText.escape(layer.name)) (\(layer.counts.last ?? 0))</li>\n"
        }
        legend += "<li><span class=\"swatch line\" style=\"background:#1a1a1a\"></span>new components in use (\(lastSample.adopted))</li>\n"
        if projectionEnd != nil { legend += "<li><span class=\"swatch dashed\"></span>projection</li>\n" }
        legend += "</ul>\n"
        var caption = MarkupText.escape(description)
        if let projection = history.projection {
            caption += projection.finishDate == nil
                ? " Projection: no progress over the last \(projection.basedOnSamples) samples (the count does not fall)."
                : String(format: " The projection is a least-squares line through the last %d complete samples (%.1f findings fewer a week): a projection, not a promise.",
                         projection.basedOnSamples, projection.findingsPerWeek)
            if let finish, projectionEnd == nil {
                caption += " Its end, \(ProgressHistory.format(finish)), lies beyond the chart."
            }
        }
        return "<section id=\"burndown\">\n<h2>Burndown</h2>\n<figure>\n\(legend)\(svg)<figcaption>\(caption) Every number is in the table of samples below.</figcaption>\n</figure>\n</section>\n"
    }

    /// 1, 2 or 5 times a power of ten, at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 1 else { return 1 }
        let power = pow(10, (log10(rough)).rounded(.down))
        for factor in [1.0, 2, 5, 10] where factor * power >= rough { return factor * power }
        return 10 * power
    }

    /// A number as an SVG attribute value.
    private static func q(_ value: Double) -> String { String(format: "\"%.1f\"", value) }

    // MARK: - Tables

    static func breakdown(title: String, id: String, history: ProgressHistory, counts: KeyPath<ProgressHistory.Sample, [String: Int]>, key: String) -> String {
        let samples = history.samples
        let names = Set(samples.flatMap { $0[keyPath: counts].keys })
        guard !names.isEmpty else { return "" }
        let rows = names.map { name in (name: name, series: samples.map { $0[keyPath: counts][name] ?? 0 }) }
            .sorted { ($0.series.last!, $0.series.max()!, $1.name) > ($1.series.last!, $1.series.max()!, $0.name) }
        var html = "<section id=\"\(id)\">\n<h2>\(MarkupText.escape(title))</h2>\n<table>\n<thead><tr><th>\(key)</th><th class=\"num\">Now</th>"
        html += "<th class=\"num\">At \(samples.first!.date)</th><th class=\"num\">Change</th><th>Over time</th></tr></thead>\n<tbody>\n"
        for row in rows {
            let now = row.series.last!, then = row.series.first!
            let change = now - then
            let changeClass = change > 0 ? "up" : change < 0 ? "down" : ""
            html += "<tr><td>\(MarkupText.escape(row.name))</td><td class=\"num\">\(now)</td><td class=\"num\">\(then)</td>"
            html += "<td class=\"num \(changeClass)\">\(change > 0 ? "+" : "")\(change)</td><td>\(sparkline(row.series))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    /// "+2 findings", "-1 adopted use".
    static func signed(_ value: Int, _ noun: String) -> String {
        (value > 0 ? "+" : "−") + counted(abs(value), noun)
    }

    /// A small line of a series, scaled to its own highest value, with its text alternative.
    static func sparkline(_ series: [Int]) -> String {
        let width = 140.0, height = 24.0
        let highest = Double(max(1, series.max() ?? 1))
        let stepX = series.count > 1 ? width / Double(series.count - 1) : 0
        let points = series.enumerated().map { String(format: "%.1f,%.1f", Double($0) * stepX, 2 + (height - 4) * (1 - Double($1) / highest)) }
        let label = "from \(series.first ?? 0) to \(series.last ?? 0), at most \(series.max() ?? 0)"
        var svg = "<svg class=\"sparkline\" width=\"\(Int(width) + 4)\" height=\"\(Int(height))\" viewBox=\"-2 0 \(Int(width) + 4) \(Int(height))\" role=\"img\" aria-label=\"\(label)\">"
        svg += "<title>\(label)</title>"
        if series.count > 1 { svg += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.5\"/>" }
        if let last = points.last {
            let xy = last.split(separator: ",")
            svg += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2.5\" fill=\"#0072B2\"/>"
        }
        return svg + "</svg>"
    }

    private static func samplesTable(_ history: ProgressHistory) -> String {
        var html = "<section id=\"samples\">\n<h2>Samples</h2>\n"
        html += "<p class=\"note\">Each sample is the newest first-parent commit of its period, a tagged commit, or HEAD. "
        html += "“Commits that moved the counts” are those since the sample before that changed the findings or the adopted uses of the files they touched most.</p>\n"
        html += "<table>\n<thead><tr><th>Date</th><th>Commit</th><th class=\"num\">Findings</th><th class=\"num\">Adopted</th><th class=\"num\">Migrated</th><th>Notes and commits that moved the counts</th></tr></thead>\n<tbody>\n"
        // A sample whose counts equal the one before and that has nothing to note adds nothing: left out.
        let shown = history.samples.indices.filter { index in
            let sample = history.samples[index]
            guard index > 0, index < history.samples.count - 1 else { return true }
            let before = history.samples[index - 1]
            return sample.findingsByRule != before.findingsByRule || sample.adoption != before.adoption
                || !sample.events.isEmpty || !sample.incomplete.isEmpty || !sample.biggestChanges.isEmpty
        }
        for index in shown.reversed() {
            let sample = history.samples[index]
            var notes = sample.events.map { "<span class=\"event\">\(MarkupText.escape($0))</span>" }
            if !sample.incomplete.isEmpty {
                notes.append("<span class=\"incomplete\">incomplete: \(counted(sample.incomplete.count, "file")) not analysed (\(MarkupText.escape(sample.incomplete.prefix(3).joined(separator: ", ")))\(sample.incomplete.count > 3 ? ", …" : ""))</span>")
            }
            for change in sample.biggestChanges {
                var parts: [String] = []
                if change.findings != 0 { parts.append(signed(change.findings, "finding")) }
                if change.adopted != 0 { parts.append(signed(change.adopted, "adopted use")) }
                notes.append("<span class=\"commit\">\(change.commit.prefix(8))</span> \(parts.joined(separator: ", ")): \(MarkupText.escape(change.subject)) (\(MarkupText.escape(change.author)), \(change.date))")
            }
            let migrated = sample.migratedPercent.map { String(format: "%.1f %%", $0) } ?? "–"
            html += "<tr><td class=\"date\">\(sample.date)</td><td class=\"commit\">\(sample.commit.prefix(8))</td><td class=\"num\">\(sample.findings)</td>"
            html += "<td class=\"num\">\(sample.adopted)</td><td class=\"num\">\(migrated)</td><td>\(notes.joined(separator: "<br>"))</td></tr>\n"
        }
        let left = history.samples.count - shown.count
        if left > 0 {
            html += "<tr><td colspan=\"6\" class=\"note\">\(counted(left, "sample")) with the same counts as the sample before and nothing to note left out "
            html += "(all are in <code>--format json</code> and <code>--format csv</code>).</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }
}
