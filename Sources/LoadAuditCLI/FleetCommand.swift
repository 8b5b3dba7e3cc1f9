import ArgumentParser
import AuditProgress
import AuditReport
import Foundation

extension FleetFormat: ExpressibleByArgument {}

struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Merge many repositories' progress (and scan) JSON reports into one organisation report.",
        usage: "loadaudit fleet [<options>] <report> ...",
        discussion: helpProse("""
        Reads each REPORT (a file, or a folder searched for *.json at any depth): `progress --format json`
        or `scan --format json` reports, each naming its repository, commit and rules. Reports made with
        the same rules (the same `rulesIdentity`) are added up; reports made with different rules are
        shown apart, never added together. The totals over time align the repositories by date: at each
        date any of them sampled, each repository counts with its last sample at or before it. Of two
        reports of one repository, the one with the newer last sample counts.

        A repository is stale when its last report is more than --stale-days days older than the newest
        of all. A report that cannot be read is named on standard error and in the reports, and the rest
        is merged; the exit status is then 1 (0 when every report was read; 2 when none was).

        --html FILE writes one self-contained page (no script, no network): per set of rules the total
        burndown with the adoption line and the projection, tables per rule and per owner, then a table of
        the repositories (findings, migrated, change over four weeks, last report, stale, rules), each
        linked to its own progress page with --page-url.

        EXAMPLES
          loadaudit fleet reports/
          loadaudit fleet reports/ --html fleet.html --page-url 'https://example.github.io/{repository}/progress.html'
          loadaudit fleet a.json b.json --format csv --output fleet.csv
        """)
    )

    @Argument(help: ArgumentHelp("Report files, or folders searched for *.json.", valueName: "report"))
    var reports: [String]

    @Option(help: "The report format: text, json or csv.")
    var format: FleetFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Also write the organisation page (HTML) to this file.", valueName: "file"))
    var html: String?

    @Option(name: .customLong("stale-days"), help: ArgumentHelp("A repository whose last report is this many days older than the newest is stale.", valueName: "days"))
    var staleDays = 30

    @Option(name: .customLong("page-url"), help: ArgumentHelp(
        "The URL of each repository's progress page on the organisation page; {repository} is replaced by its name (owner/name).", valueName: "template"))
    var pageURL: String?

    @Option(help: ArgumentHelp("The page's title (default: \"Migration\").", valueName: "title"))
    var title: String?

    func validate() throws {
        if staleDays < 0 { throw ValidationError("--stale-days must be 0 or more, not \(staleDays)") }
    }

    func run() throws {
        let terminal = CurrentTerminal.terminal
        var inputs: [(source: String, data: Data)] = []
        var unreadable: [FleetReport.Problem] = []
        for source in Self.reportFiles(reports, terminal: terminal) {
            do {
                inputs.append((source, try Data(contentsOf: URL(fileURLWithPath: terminal.absolutePath(source)))))
            } catch {
                unreadable.append(FleetReport.Problem(source: source, problem: Self.readProblem(source, terminal: terminal)))
            }
        }
        var options = FleetReport.Options()
        options.staleDays = staleDays
        options.pageURL = pageURL
        var report = FleetReport.merge(inputs, options: options)
        report.unreadable = (report.unreadable + unreadable).sorted { $0.source < $1.source }
        for problem in report.unreadable { terminal.error("\(problem.source): \(problem.problem) (not merged)") }
        guard !report.repositories.isEmpty else {
            throw CommandFailure(message: report.unreadable.isEmpty ? "no report to merge: no *.json in \(reports.joined(separator: ", "))" : "no report could be read")
        }
        if let html {
            try AtomicWriter.writeReport(FleetPage.render(report, title: title, toolVersion: loadauditVersion), named: html, terminal: terminal,
                                         what: "the organisation page")
        }
        let text = format.render(report)
        if let output { try AtomicWriter.writeReport(text, named: output, terminal: terminal) } else { terminal.write(text) }
        if !report.unreadable.isEmpty { throw ExitCode(ExitStatus.findings.rawValue) }
    }

    /// The files named, and the *.json files below the folders named (sorted, at any depth); a name
    /// that does not exist is kept, to be named as unreadable.
    static func reportFiles(_ names: [String], terminal: Terminal) -> [String] {
        var files: [String] = []
        for name in names {
            var isFolder: ObjCBool = false
            let absolute = terminal.absolutePath(name)
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), isFolder.boolValue else {
                files.append(name)
                continue
            }
            let walker = FileManager.default.enumerator(atPath: absolute)
            var found: [String] = []
            while let relative = walker?.nextObject() as? String {
                if relative.hasSuffix(".json") { found.append(relative) }
            }
            let folder = name.hasSuffix("/") ? name : name + "/"
            files += found.sorted().map { folder + $0 }
        }
        return files
    }

    private static func readProblem(_ source: String, terminal: Terminal) -> String {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: terminal.absolutePath(source), isDirectory: &isFolder) { return "no such file" }
        return "cannot be read"
    }
}
