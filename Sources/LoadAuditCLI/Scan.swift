import ArgumentParser
import AuditBaseline
import AuditModel
import AuditReport
import AuditRules
import AuditScan
import Foundation
import TreeSitter

extension ReportFormat: ExpressibleByArgument {}
extension ColourChoice: ExpressibleByArgument {}

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
        short summary to the terminal. SARIF and github paths are relative to the current folder: run
        from the repository root.

        SUPPRESSIONS: `// loadaudit:ignore raw-progress-view - reason` on the line before a use or at the
        end of its line; `// loadaudit:ignore-file loading-dots` anywhere in a file. A suppression that
        silences nothing is reported as unused-suppression.

        EXAMPLES
          loadaudit scan ./App
          loadaudit scan --format json ./App > loadaudit.json
          loadaudit scan --baseline .loadaudit-baseline.json \\
              --format sarif --output loadaudit.sarif .
          loadaudit scan --diff-base origin/main --format github .
          loadaudit scan --rules design-system.yml --fail-on error Sources
        """)
    )

    @Argument(help: ArgumentHelp("Files or folders to scan.", valueName: "path"))
    var paths: [String] = []

    @Option(help: "Report format: text, json, sarif, github, xcode, junit or markdown.")
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file; the terminal gets a one-line summary.", valueName: "file"))
    var output: String?

    @OptionGroup var project: ProjectOptions

    @Option(help: ArgumentHelp("A baseline file: its findings are existing and do not fail the run.", valueName: "file"))
    var baseline: String?

    @Flag(name: .customLong("strict-baseline"), help: "Also fail when baseline entries are fixed, until the baseline is ratcheted down.")
    var strictBaseline = false

    @Option(name: .customLong("diff-base"), help: ArgumentHelp("Only findings on lines added or changed since the merge base with this git ref fail.", valueName: "ref"))
    var diffBase: String?

    @Option(name: .customLong("fail-on"), help: "Exit 1 when a new finding has at least this severity: note, warning, error, or never (default: warning, or the configuration's).")
    var failOn: FailOn?

    @Option(help: "Files parsed in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Colour in text output: auto (only on a terminal, and not when NO_COLOR is set), always, never.")
    var color: ColourChoice = .auto

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if strictBaseline, baseline == nil { /* the configuration may name one: checked in run() */ }
    }

    func run() throws {
        let session = try Session(project, paths: paths, jobs: jobs)
        let terminal = session.terminal
        var result = try session.scan(paths)

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
                                                   inScope: { session.covers($0, scanning: paths) })
            } catch let error as BaselineError {
                throw CommandFailure(message: error.description)
            }
        }
        if let diffBase {
            do {
                let folder = SourceDiscovery(currentDirectory: terminal.currentDirectory).absolutePath(paths.first ?? ".")
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory)
                let changes = try GitChanges.since(diffBase, in: isDirectory.boolValue ? folder : (folder as NSString).deletingLastPathComponent)
                changes.classify(&result.findings, absolutePaths: result.absolutePaths)
            } catch let error as GitChangesError {
                throw CommandFailure(message: error.description)
            }
        }

        let context = ReportContext(
            result: result,
            rules: session.ruleSet.rules.map(\.description) + [RuleDescription(
                id: UnusedSuppressionRule.id, severity: session.ruleSet.unusedSuppressionSeverity ?? .warning, fix: .manual,
                message: UnusedSuppressionRule.message, help: "A loadaudit:ignore comment that silences nothing, or names no rule.", helpURI: nil)],
            toolVersion: loadauditVersion,
            currentDirectory: terminal.currentDirectory,
            comparesToBaseline: baselinePath != nil,
            diffBase: diffBase,
            ratchetCommand: baselinePath.map { "loadaudit baseline --output \(shellQuoted(relativeToCurrent($0, terminal))) \(paths.map(shellQuoted).joined(separator: " "))".trimmingCharacters(in: .whitespaces) },
            baselineFolder: baselinePath.map { ($0 as NSString).deletingLastPathComponent }
        )
        var cache: [String: SourceText] = [:]
        let lines: TextReport.LineProvider = { file, line in
            guard let path = result.absolutePaths[file] else { return nil }
            if cache[path] == nil, case .success(let read) = SourceReader.read(path, maximumSize: ProjectScanner.maximumFileSize) {
                cache[path] = SourceText(bytes: read.0)
            }
            return cache[path]?.lineText(line)
        }
        if let output {
            let report = format.render(context, colour: false, lines: lines)
            let path = output.hasPrefix("/") ? output : terminal.currentDirectory + "/" + output
            do {
                try Data(report.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandFailure(message: "\(output): cannot write the report (\(error.localizedDescription))")
            }
            terminal.write(oneLineSummary(result, context) + " Report: \(output)\n")
        } else {
            terminal.write(format.render(context, colour: terminal.wantsColour(color), lines: lines))
        }

        let threshold = (failOn ?? session.config?.failOn.map { $0.map { FailOn(rawValue: $0.rawValue)! } ?? .never } ?? .warning).threshold
        let failingNew = threshold.map { limit in result.newFindings.contains { $0.severity >= limit } } ?? false
        if failingNew || (strictBaseline && !result.staleEntries.isEmpty) {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    private func oneLineSummary(_ result: ScanResult, _ context: ReportContext) -> String {
        let new = result.newFindings.count
        if context.comparesToBaseline {
            let fixed = context.readsBaseline ? ", \(result.staleEntries.count) fixed since the baseline" : ""
            return "loadaudit: \(new) new, \(result.findings.count - new) existing\(fixed) (\(result.filesScanned) files)."
        }
        return "loadaudit: \(result.findings.count) findings in \(result.filesScanned) files."
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
