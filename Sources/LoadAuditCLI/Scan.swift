import ArgumentParser
import AuditBaseline
import AuditConfig
import AuditModel
import AuditReport
import AuditRules
import AuditScan
import Foundation
import TreeSitter

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

/// The lowest severity that makes the run fail, or `never`.
enum FailOn: String, CaseIterable, ExpressibleByArgument {
    case note, warning, error, never

    var threshold: Severity? { Severity(rawValue: rawValue) }
}

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Report deprecated loading indicators and their replacements.",
        discussion: helpProse("""
        Scans the .swift files under each PATH (default: the current folder). Skips .build*, .git, Pods,
        Carthage, DerivedData, .swiftpm and SourcePackages, what .gitignore ignores inside a git work tree,
        and what .loadaudit.yml excludes. A file named on the command line is always scanned.

        Each finding has a fix class: safe (mechanical rewrite), unsafe (needs a human glance) or manual
        (no automatic rewrite). Paths in reports are relative to the scanned folder (to the current folder
        when several paths are given); lines and columns are 1-based, columns count characters.

        IN CI: only new findings fail. With --baseline FILE (written by `loadaudit baseline`), findings
        already in it are reported as existing and do not fail; baseline entries whose usage is gone are
        reported as fixed (--strict-baseline makes them fail too, until the baseline is ratcheted down).
        With --diff-base REF, only findings on lines added or changed since the merge base with REF fail.

        FORMATS: text (people), json (tools; stable), sarif (GitHub code scanning and other CI systems),
        github (pull-request annotations), xcode (Run Script build phase), junit (test reports),
        markdown ($GITHUB_STEP_SUMMARY, PR comments). --output FILE writes the report to FILE and a
        short summary to the terminal. --report FORMAT=FILE adds a report of the same scan (repeatable;
        without =FILE it goes to standard output, where one report at most may go). SARIF and github
        paths are relative to the current folder: run from the repository root.

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
        "Report format: text (the default), json, sarif, github, xcode, junit or markdown.", valueName: "format"))
    var formats: [ReportFormat] = []

    @Option(name: .customLong("output"), help: ArgumentHelp("Write the report to this file; the terminal gets a one-line summary.", valueName: "file"))
    var outputs: [String] = []

    @Option(name: .customLong("report"), help: ArgumentHelp(
        "Also write a report of this format, to FILE or else to standard output (repeatable: one scan, several reports).",
        valueName: "format[=file]"))
    var reports: [ReportRequest] = []

    @OptionGroup var project: ProjectOptions

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
        let session = try Session(project, paths: scanned, jobs: jobs)
        let terminal = session.terminal
        var standIn: Session.StandIn?
        var standInSource: SourceText?
        if let stdinFilename {
            let bytes = terminal.readStandardInput()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loadaudit-stdin-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent((stdinFilename as NSString).lastPathComponent).path
            guard FileManager.default.createFile(atPath: file, contents: bytes) else {
                throw CommandFailure(message: "\(file): cannot write standard input to a temporary file")
            }
            standIn = Session.StandIn(file: file, name: stdinFilename)
            standInSource = SourceText(bytes: [UInt8](bytes))
        }
        defer { if let standIn { try? FileManager.default.removeItem(atPath: (standIn.file as NSString).deletingLastPathComponent) } }
        var result = try session.scan(scanned, standIn: standIn)

        var baselinePath = baseline.map { $0.hasPrefix("/") ? $0 : terminal.currentDirectory + "/" + $0 } ?? session.config?.baseline
        if baseline == nil, let configured = baselinePath, !FileManager.default.fileExists(atPath: configured) {
            terminal.warning("the configuration names the baseline \(configured), which does not exist yet: every finding is new (create it with `loadaudit baseline`)")
            baselinePath = nil
        }
        if strictBaseline, baselinePath == nil {
            throw CommandFailure(message: "--strict-baseline needs a baseline (--baseline FILE, or `baseline:` in .loadaudit.yml)")
        }
        if let baselinePath {
            do {
                let file = try BaselineFile.read(baselinePath)
                let folder = (baselinePath as NSString).deletingLastPathComponent
                result.staleEntries = file.compare(&result.findings, absolutePaths: result.absolutePaths, folder: folder,
                                                   inScope: { session.covers($0, scanning: scanned) })
            } catch let error as BaselineError {
                throw CommandFailure(message: error.description)
            }
        }
        if let diffBase {
            do {
                let folder = SourceDiscovery(currentDirectory: terminal.currentDirectory).absolutePath(scanned.first ?? ".")
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory)
                let changes = try GitChanges.since(diffBase, in: isDirectory.boolValue ? folder : (folder as NSString).deletingLastPathComponent)
                changes.classify(&result.findings, absolutePaths: result.absolutePaths)
                if !allowGateChanges {
                    let gate = try gateChanges(changes, session: session, baselinePath: baselinePath)
                    let base = scanned.count == 1 && isDirectory.boolValue ? folder : terminal.currentDirectory
                    let (findings, absolutePaths) = GateChanges.findings(gate, base: base)
                    result.findings = (result.findings + findings).sorted(by: Finding.reportOrder)
                    result.absolutePaths.merge(absolutePaths) { current, _ in current }
                    if !findings.isEmpty, !result.ruleIds.contains(GateChanges.ruleId) { result.ruleIds.append(GateChanges.ruleId) }
                }
            } catch let error as GitChangesError {
                throw CommandFailure(message: error.description)
            }
        }

        let context = ReportContext(
            result: result,
            rules: session.ruleSet.rules.map(\.description) + [RuleDescription(
                id: UnusedSuppressionRule.id, severity: session.ruleSet.unusedSuppressionSeverity ?? .warning, fix: .manual,
                message: UnusedSuppressionRule.message, help: "A loadaudit:ignore comment that silences nothing, or names no rule.", helpURI: nil)]
                + (result.ruleIds.contains(GateChanges.ruleId) ? [GateChanges.description] : []),
            toolVersion: loadauditVersion,
            currentDirectory: terminal.currentDirectory,
            comparesToBaseline: baselinePath != nil,
            diffBase: diffBase,
            ratchetCommand: baselinePath.map { "loadaudit baseline --output \(shellQuoted(relativeToCurrent($0, terminal))) \(scanned.map(shellQuoted).joined(separator: " "))".trimmingCharacters(in: .whitespaces) },
            baselineFolder: baselinePath.map { ($0 as NSString).deletingLastPathComponent }
        )
        var cache: [String: SourceText] = [:]
        let lines: TextReport.LineProvider = { file, line in
            if let standInSource, file == stdinFilename { return standInSource.lineText(line) }
            guard let path = result.absolutePaths[file] else { return nil }
            if cache[path] == nil, case .success(let read) = SourceReader.read(path, maximumSize: ProjectScanner.maximumFileSize) {
                cache[path] = SourceText(bytes: read.0)
            }
            return cache[path]?.lineText(line)
        }
        var written: [String] = []
        for request in requestedReports {
            guard let file = request.file else {
                terminal.write(request.format.render(context, colour: terminal.wantsColour(color), lines: lines))
                continue
            }
            let report = request.format.render(context, colour: false, lines: lines)
            let path = file.hasPrefix("/") ? file : terminal.currentDirectory + "/" + file
            do {
                try Data(report.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandFailure(message: "\(file): cannot write the report (\(error.localizedDescription))")
            }
            written.append(file)
        }
        if !written.isEmpty, !requestedReports.contains(where: { $0.file == nil }) {
            terminal.write(oneLineSummary(result, context) + " \(written.count == 1 ? "Report" : "Reports"): \(written.joined(separator: ", "))\n")
        }

        let threshold = (failOn ?? session.config?.failOn.map { $0.map { FailOn(rawValue: $0.rawValue)! } ?? .never } ?? .warning).threshold
        // A weakened gate fails whatever the failing severity: weakening that is what it is about.
        let failingNew = threshold.map { limit in result.newFindings.contains { $0.severity >= limit } } ?? false
            || result.findings.contains { $0.ruleId == GateChanges.ruleId }
        if failingNew || (strictBaseline && !result.staleEntries.isEmpty) {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    /// What the change under review does to the gate: `.loadaudit.yml` and the baseline against
    /// their versions at the merge base.
    private func gateChanges(_ changes: GitChanges, session: Session, baselinePath: String?) throws -> [GateChanges.Change] {
        var found: [GateChanges.Change] = []
        if let config = session.config {
            let text = (try? String(contentsOfFile: config.path, encoding: .utf8)) ?? ""
            // The merge base's configuration, read as if it were here; one that no longer reads (or
            // names rules that are gone) is compared as no configuration.
            let old = changes.textAtMergeBase(of: config.path).flatMap { try? ProjectConfig.parse($0, path: config.path) }
            let oldRules = try (try? Session.rules(project.rules, config: old)) ?? Session.rules(project.rules, config: nil)
            found += GateChanges.configChanges(old: old, new: config, oldRules: oldRules, newRules: session.ruleSet,
                                               failOnGiven: failOn != nil, path: config.path, text: text)
        }
        if let baselinePath, let new = try? BaselineFile.read(baselinePath) {
            let text = (try? String(contentsOfFile: baselinePath, encoding: .utf8)) ?? ""
            let old = changes.textAtMergeBase(of: baselinePath).flatMap { try? JSONDecoder().decode(BaselineFile.self, from: Data($0.utf8)) }
            found += GateChanges.baselineChanges(old: old, new: new, path: baselinePath, text: text)
        }
        return found
    }

    private func oneLineSummary(_ result: ScanResult, _ context: ReportContext) -> String {
        let new = result.newFindings.count
        if context.comparesToBaseline {
            let fixed = context.readsBaseline ? ", \(result.staleEntries.count) fixed since the baseline" : ""
            return "loadaudit: \(new) new, \(result.findings.count - new) existing\(fixed) (\(counted(result.filesScanned, "file")))."
        }
        return "loadaudit: \(counted(result.findings.count, "finding")) in \(counted(result.filesScanned, "file"))."
    }

    private func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private func relativeToCurrent(_ path: String, _ terminal: Terminal) -> String {
        RelativePath.from(terminal.currentDirectory, to: path)
    }
}

func shellQuoted(_ text: String) -> String {
    text.range(of: #"^[A-Za-z0-9_./=:@%+-]+$"#, options: .regularExpression) != nil ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

extension Rule {
    var description: RuleDescription {
        RuleDescription(id: id, severity: severity, fix: fix, message: message, help: help, helpURI: helpURI)
    }
}
