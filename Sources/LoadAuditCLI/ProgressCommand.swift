import ArgumentParser
import Audit
import AuditHistory
import AuditProgress
import AuditReport
import Foundation

extension ProgressFormat: ExpressibleByArgument {}

struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "How far the migration is along, over the git history: findings and adoption per sample.",
        discussion: helpProse("""
        Samples the first-parent history of HEAD (the newest commit of each week by default, every tagged
        commit, and HEAD) and
        gives, at each sample, the findings `scan` would give there (per rule; per top-level folder of PATH,
        or per module such as Sources/AppCore when the findings are all in one folder, as in a Swift
        package; and per owner of the work tree's CODEOWNERS) and the uses of the new components (`new-components` of the rules file). "Migrated" is
        adopted / (adopted + findings). Reads the files of each commit from git (never a checkout) and
        analyses each file version once (with --cache, once across runs too). A file that cannot be read as Swift text marks its sample
        incomplete. The projection is a straight line through the last complete samples; it says "no
        progress" when the count does not fall. The current rules and .loadaudit.yml judge every sample; a
        change to those files between two samples is shown as an event. Each sample lists the commits
        since the one before that changed the counts most (the findings and adopted uses of the files
        they touched, after minus before).

        --html FILE writes one self-contained page (no script, no network): the burndown per rule with
        the adoption line and the projection, tables per folder and per owner, the samples, and the
        findings left at HEAD with their lines and replacements.

        EXAMPLES
          loadaudit progress
          loadaudit progress App --since 2026-01-01 --every month
          loadaudit progress --format csv --output progress.csv
          loadaudit progress --html progress.html
        """)
    )

    @Argument(help: ArgumentHelp("A folder of a git work tree.", valueName: "path"))
    var path: String = "."

    @Option(help: ArgumentHelp("Start at this date (YYYY-MM-DD) or git ref (default: the whole history).", valueName: "date|ref"))
    var since: String?

    @Option(help: ArgumentHelp("How often to sample: day, week, month or N-commits.", valueName: "period"))
    var every: String = "week"

    @Option(help: "The report format: text, json or csv.")
    var format: ProgressFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Also write the progress page (HTML) to this file.", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp(
        "The repository's name in the JSON report (default: the origin remote as owner/name, else the folder's name).", valueName: "name"))
    var name: String?

    @OptionGroup var project: ProjectOptions

    func validate() throws {
        if ProgressEvery(every) == nil { throw ValidationError("--every must be day, week, month or N-commits (e.g. 10-commits), not '\(every)'") }
    }

    func run() throws {
        let audit = try project.audit(paths: [path])
        var request = ProgressRequest(path: path)
        request.since = since
        request.every = ProgressEvery(every) ?? .week
        let identity = format == .json ? audit.startReportIdentity(of: path, name: name) : nil
        var result = try audit.progress(request)
        if let identity { result.history.identify(identity.identity) }
        let terminal = CurrentTerminal.terminal
        for warning in result.warnings { terminal.warning(warning) }
        if let html {
            var context = ReportContext(result: result.current, rules: audit.ruleSet.rules.map(\.description), toolVersion: loadauditVersion,
                                        currentDirectory: terminal.currentDirectory)
            context.migrationTitle = audit.ruleSet.title
            context.findingsName = audit.ruleSet.findingsName
            try AtomicWriter.writeReport(ProgressPage.render(result.history, current: context), named: html, terminal: terminal,
                                         what: "the progress page")
        }
        let report = format.render(result.history)
        guard let output else { return terminal.write(report) }
        try AtomicWriter.writeReport(report, named: output, terminal: terminal)
    }
}
