import ArgumentParser
import AuditModel
import AuditReport
import AuditRules
import AuditScan
import Foundation
import TreeSitter

enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

/// The lowest severity that makes the run fail, or `never`.
enum FailOn: String, CaseIterable, ExpressibleByArgument {
    case note, warning, error, never

    var threshold: Severity? { Severity(rawValue: rawValue) }
}

extension ColourChoice: ExpressibleByArgument {}

/// Options shared by every command that runs rules.
struct RuleOptions: ParsableArguments {
    @Option(name: .customLong("rules"), help: ArgumentHelp(
        "A rules file to use instead of the built-in loading-migration rules (repeat to merge several).",
        valueName: "file"))
    var rulesFiles: [String] = []

    @Option(name: .customLong("rule"), help: ArgumentHelp("Run only this rule (repeatable).", valueName: "id"))
    var ruleIds: [String] = []

    func loadRuleSet() throws -> RuleSet {
        do {
            let base = rulesFiles.isEmpty ? RuleSet.builtIn() : try RuleSet.load(files: rulesFiles.map(absolute))
            return try base.selecting(ruleIds)
        } catch let error as RulesFileError {
            throw CommandFailure(message: error.description)
        }
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : CurrentTerminal.terminal.currentDirectory + "/" + path
    }
}

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report deprecated loading indicators and their replacements.",
        discussion: """
        Scans the .swift files under each PATH (default: the current folder). Skips .build*, .git, Pods,
        Carthage, DerivedData, .swiftpm and SourcePackages, and what .gitignore ignores inside a git work tree.
        A file named on the command line is always scanned.

        Each finding has a fix class: safe (mechanical rewrite), unsafe (needs a human glance) or manual
        (no automatic rewrite). Paths in reports are relative to the scanned folder (to the current folder
        when several paths are given); lines and columns are 1-based, columns count characters.

        EXAMPLES
          loadaudit scan ./App
          loadaudit scan --format json ./App > loadaudit.json
          loadaudit scan --rules design-system.yml --fail-on error Sources
          loadaudit scan --rule raw-progress-view --rule themed-spinner App/Features/Games
        """
    )

    @Argument(help: ArgumentHelp("Files or folders to scan.", valueName: "path"))
    var paths: [String] = []

    @Option(help: "Report format: text (for people) or json (stable, for tools).")
    var format: ReportFormat = .text

    @OptionGroup var ruleOptions: RuleOptions

    @Option(name: .customLong("fail-on"), help: "Exit 1 when a finding has at least this severity: note, warning, error, or never.")
    var failOn: FailOn = .warning

    @Option(help: "Files parsed in parallel (default: the number of cores).")
    var jobs: Int?

    @Flag(name: .customLong("no-gitignore"), help: "Scan files even when .gitignore ignores them.")
    var noGitignore = false

    @Option(help: "Colour in text output: auto (only on a terminal, and not when NO_COLOR is set), always, never.")
    var color: ColourChoice = .auto

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let terminal = CurrentTerminal.terminal
        let ruleSet = try ruleOptions.loadRuleSet()
        let scanner = Scanner(
            engine: RuleEngine(ruleSet: ruleSet),
            discovery: SourceDiscovery(currentDirectory: terminal.currentDirectory, honourGitignore: !noGitignore),
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount
        )
        let result: ScanResult
        do {
            result = try scanner.scan(paths)
        } catch let error as InputPathError {
            throw CommandFailure(message: error.description)
        } catch let error as TreeSitterError {
            throw CommandFailure(message: error.description)
        }
        for problem in result.problems {
            terminal.warning(problem.summary)
        }
        if result.filesScanned == 0 && result.problems.isEmpty {
            terminal.warning("no .swift files found under \(paths.isEmpty ? "." : paths.joined(separator: ", "))")
        }
        switch format {
        case .json:
            terminal.write(JSONReport.render(result, toolVersion: loadauditVersion))
        case .text:
            var cache: [String: SourceText] = [:]
            let report = TextReport(colour: terminal.wantsColour(color)) { file, line in
                guard let path = result.absolutePaths[file] else { return nil }
                if cache[path] == nil, case .success(let source) = SourceReader.read(path, maximumSize: Scanner.maximumFileSize) {
                    cache[path] = source
                }
                return cache[path]?.lineText(line)
            }
            terminal.write(report.render(result))
        }
        if let threshold = failOn.threshold, result.findings.contains(where: { $0.severity >= threshold }) {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}
