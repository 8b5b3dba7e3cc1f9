import ArgumentParser
import Audit
import AuditBaseline
import AuditModel
import AuditReport
import Foundation

extension ReportFormat: ExpressibleByArgument {}
extension ColourChoice: ExpressibleByArgument {}

/// One report a scan writes: a format, and a file (nil: standard output). `--report sarif=out.sarif`.
struct ReportRequest: ExpressibleByArgument, Equatable {
    let format: ReportFormat
    let file: String?

    init(format: ReportFormat, file: String?) {
        self.format = format
        self.file = file
    }

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let format = ReportFormat(rawValue: String(parts[0])) else { return nil }
        if parts.count == 2, parts[1].isEmpty { return nil }
        self.init(format: format, file: parts.count == 2 ? String(parts[1]) : nil)
    }
}

extension FailOn: ExpressibleByArgument {}

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Report deprecated loading indicators and their replacements.",
        discussion: helpProse("""
        Scans the .swift files under each PATH (default: the current folder). Skips .build*, .git, Pods,
        Carthage, DerivedData, .swiftpm and SourcePackages, Xcode's bundle folders (*.xcassets, *.xcodeproj,
        *.xcworkspace), what .gitignore ignores inside a git work tree, and what .loadaudit.yml excludes. A file or folder named on the command line is always scanned (below
        a named folder, the same skips apply).

        Each finding has a fix class: safe (mechanical rewrite), unsafe (needs a human glance) or manual
        (no automatic rewrite). Paths in every report are relative to the current folder (absolute outside
        it): run from the repository root for CI. Lines and columns are 1-based, columns count characters.

        IN CI: only new findings fail. With --baseline FILE (written by `loadaudit baseline`), findings
        already in it are reported as existing and do not fail; baseline entries whose usage is gone are
        reported as fixed (--strict-baseline makes them fail too, until the baseline is ratcheted down),
        and those of a rule that did not run (switched off, not selected) as not checked.
        With --diff-base REF, only findings on lines added or changed since the merge base with REF fail.

        FORMATS: text (people), json (tools; stable), sarif (GitHub code scanning and other CI systems),
        github (pull-request annotations), xcode (Run Script build phase), junit (test reports),
        markdown ($GITHUB_STEP_SUMMARY, PR comments), html (one self-contained page for people: the
        findings by folder with their lines and replacements). --output FILE writes the report to FILE and a
        short summary to the terminal. --report FORMAT=FILE adds a report of the same scan (repeatable;
        without =FILE it goes to standard output, where one report at most may go).

        GATE: with --diff-base REF, a change that weakens the gate it is checked by (in .loadaudit.yml
        a rule switched off or lowered, a weaker fail-on, an exclude added or an include narrowed; in
        the baseline, entries added) is reported as gate-weakened (error) and fails the run, against the
        merge base's versions of those files; --allow-gate-changes lets a change through on purpose.

        SUPPRESSIONS: `// loadaudit:ignore raw-progress-view - reason` on the line before a use or at the
        end of its line; `loadaudit:ignore-next-line RULES`; `loadaudit:disable RULES` ... `loadaudit:enable
        RULES` around lines; `// loadaudit:ignore-file loading-dots` anywhere in a file. Line or block
        comments; rule ids or `all`. A suppression that silences nothing or names no rule is reported as
        unused-suppression.

        EXAMPLES
          loadaudit scan ./App
          loadaudit scan --format json ./App > loadaudit.json
          loadaudit scan --baseline .loadaudit-baseline.json \\
              --format sarif --output loadaudit.sarif .
          loadaudit scan --diff-base origin/main --format github .
          loadaudit scan --format github --report sarif=loadaudit.sarif \\
              --report markdown=summary.md .
          loadaudit scan --rules design-system.yml --fail-on error Sources
        """)
    )

    @Argument(help: ArgumentHelp("Files or folders to scan.", valueName: "path"))
    var paths: [String] = []

    // Arrays, so that a second --format or --output is an error rather than silently the one kept.
    @Option(name: .customLong("format"), help: ArgumentHelp(
        "Report format: text (the default), json, sarif, github, xcode, junit, markdown or html.", valueName: "format"))
    var formats: [ReportFormat] = []

    @Option(name: .customLong("output"), help: ArgumentHelp("Write the report to this file; the terminal gets a one-line summary.", valueName: "file"))
    var outputs: [String] = []

    @Option(name: .customLong("report"), help: ArgumentHelp(
        "Also write a report of this format, to FILE or else to standard output (repeatable: one scan, several reports).",
        valueName: "format[=file]"))
    var reports: [ReportRequest] = []

    @OptionGroup var project: ProjectOptions

    @OptionGroup var empty: EmptyScanOption

    @Option(help: ArgumentHelp(
        "The repository's name in JSON reports (default: the origin remote as owner/name, else the folder's name).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("A baseline file: its findings are existing and do not fail the run.", valueName: "file"))
    var baseline: String?

    @Flag(name: .customLong("strict-baseline"), help: "Also fail when baseline entries are fixed, until the baseline is ratcheted down.")
    var strictBaseline = false

    @Option(name: .customLong("diff-base"), help: ArgumentHelp("Only findings on lines added or changed since the merge base with this git ref fail.", valueName: "ref"))
    var diffBase: String?

    @Option(name: .customLong("stdin-filename"), help: ArgumentHelp(
        "With the path '-': read one file's text from standard input, as the file at this path in the project (editors, hooks on staged text).",
        valueName: "path"))
    var stdinFilename: String?

    @Flag(name: .customLong("allow-gate-changes"),
          help: "With --diff-base, let the change weaken .loadaudit.yml or grow the baseline (see GATE above).")
    var allowGateChanges = false

    @Option(name: .customLong("fail-on"), help: "Exit 1 when a new finding has at least this severity: note, warning, error, or never (default: warning, or the configuration's).")
    var failOn: FailOn?

    @Option(help: "Files parsed in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Colour in text output: auto (only on a terminal, and not when NO_COLOR is set), always, never.")
    var color: ColourChoice = .auto

    /// The reports to write: `--format`/`--output` (text on standard output when neither they nor
    /// `--report` are given), then each `--report`.
    var requestedReports: [ReportRequest] {
        let main = formats.isEmpty && outputs.isEmpty && !reports.isEmpty ? [] : [ReportRequest(format: formats.first ?? .text, file: outputs.first)]
        return main + reports
    }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if formats.count > 1 { throw ValidationError("--format is given \(formats.count) times: for several reports, use --report FORMAT[=FILE] once for each") }
        if outputs.count > 1 { throw ValidationError("--output is given \(outputs.count) times: for several reports, use --report FORMAT[=FILE] once for each") }
        let toStandardOutput = requestedReports.filter { $0.file == nil }
        if toStandardOutput.count > 1 {
            throw ValidationError("\(toStandardOutput.map(\.format.rawValue).joined(separator: " and ")) would both go to standard output: give all but one a file (--report FORMAT=FILE)")
        }
        let files = requestedReports.compactMap(\.file)
        if let twice = files.first(where: { file in files.filter { $0 == file }.count > 1 }) {
            throw ValidationError("two reports would be written to \(twice)")
        }
        if paths.contains("-"), stdinFilename == nil {
            throw ValidationError("'-' reads standard input and needs --stdin-filename PATH: the file's path in the project, for its configuration and reports")
        }
        if stdinFilename != nil, paths != ["-"] {
            throw ValidationError("--stdin-filename goes with the one path '-' (standard input)")
        }
        if strictBaseline, baseline == nil { /* the configuration may name one: checked in run() */ }
    }

    func run() throws {
        // `-` with --stdin-filename: the text of standard input, as the file of that name would be.
        let scanned = stdinFilename.map { [$0] } ?? paths
        let audit = try project.audit(paths: scanned, jobs: jobs, allowsEmpty: empty.allowEmpty)
        let terminal = CurrentTerminal.terminal
        var request = ScanRequest(paths: paths)
        if let stdinFilename {
            let bytes = terminal.readStandardInput()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loadaudit-stdin-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent((stdinFilename as NSString).lastPathComponent).path
            guard FileManager.default.createFile(atPath: file, contents: bytes) else {
                throw CommandFailure(message: "\(file): cannot write standard input to a temporary file")
            }
            request.standIn = StandIn(file: file, name: stdinFilename)
        }
        defer { if let standIn = request.standIn { try? FileManager.default.removeItem(atPath: (standIn.file as NSString).deletingLastPathComponent) } }
        request.baseline = baseline
        request.strictBaseline = strictBaseline
        request.diffBase = diffBase
        request.allowGateChanges = allowGateChanges
        request.failOn = failOn
        let progress = ProgressLine(terminal: terminal)
        request.progress = progress.isActive ? progress.update : nil
        // The report's identity is asked of git beside the scan (its processes off the scan's path).
        let identity = requestedReports.contains(where: { $0.format == .json })
            ? audit.startReportIdentity(of: stdinFilename ?? paths.first ?? ".", name: name) : nil
        let audited: AuditResult
        do {
            defer { progress.finish() }
            audited = try audit.scan(request)
        }
        for warning in audited.warnings { terminal.warning(warning) }
        let result = audited.scan

        var context = ReportContext(
            result: result,
            rules: audited.rules,
            toolVersion: loadauditVersion,
            currentDirectory: terminal.currentDirectory,
            comparesToBaseline: audited.baselinePath != nil,
            diffBase: diffBase,
            ratchetCommand: audited.baselinePath.map { "loadaudit baseline --output \(shellQuoted(relativeToCurrent($0, terminal))) \(scanned.map(shellQuoted).joined(separator: " "))".trimmingCharacters(in: .whitespaces) },
            baselineFolder: audited.baselinePath.map { ($0 as NSString).deletingLastPathComponent }
        )
        context.migrationTitle = audit.ruleSet.title
        context.findingsName = audit.ruleSet.findingsName
        context.identity = identity?.identity
        var written: [String] = []
        for request in requestedReports {
            guard let file = request.file else {
                terminal.write(request.format.render(context, colour: terminal.wantsColour(color)))
                continue
            }
            try AtomicWriter.writeReport(request.format.render(context, colour: false), named: file, terminal: terminal)
            written.append(file)
        }
        if !written.isEmpty, !requestedReports.contains(where: { $0.file == nil }) {
            terminal.write(oneLineSummary(result, context) + " \(written.count == 1 ? "Report" : "Reports"): \(written.joined(separator: ", "))\n")
        }
        if audited.fails { throw ExitCode(ExitStatus.findings.rawValue) }
    }

    private func oneLineSummary(_ result: ScanResult, _ context: ReportContext) -> String {
        let new = result.newFindings.count
        if context.comparesToBaseline {
            let fixed = context.readsBaseline ? ", \(result.staleEntries.count) fixed since the baseline" : ""
            let notChecked = result.baselineEntriesNotChecked.values.reduce(0, +)
            let unchecked = notChecked > 0 ? ", \(notChecked) not checked" : ""
            return "loadaudit: \(new) new, \(result.findings.count - new) existing\(fixed)\(unchecked) (\(counted(result.filesScanned, "file")))."
        }
        return "loadaudit: \(counted(result.findings.count, "finding")) in \(counted(result.filesScanned, "file"))."
    }

    private func relativeToCurrent(_ path: String, _ terminal: Terminal) -> String {
        RelativePath.from(terminal.currentDirectory, to: path)
    }
}

func shellQuoted(_ text: String) -> String {
    text.range(of: #"^[A-Za-z0-9_./=:@%+-]+$"#, options: .regularExpression) != nil ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
