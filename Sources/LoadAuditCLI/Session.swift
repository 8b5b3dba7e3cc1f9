import ArgumentParser
import AuditBaseline
import AuditConfig
import AuditModel
import AuditRules
import AuditScan
import Foundation

/// Options every command that reads a project shares: rules, configuration, ignore files.
struct ProjectOptions: ParsableArguments {
    @Option(name: .customLong("rules"), help: ArgumentHelp(
        "A rules file to use instead of the built-in loading-migration rules (repeat to merge several).",
        valueName: "file"))
    var rulesFiles: [String] = []

    @Option(name: .customLong("rule"), help: ArgumentHelp("Run only this rule (repeatable).", valueName: "id"))
    var ruleIds: [String] = []

    @Option(help: ArgumentHelp("The configuration file (default: the nearest .loadaudit.yml at or above the first path).", valueName: "file"))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Ignore .loadaudit.yml files.")
    var noConfig = false

    @Flag(name: .customLong("no-gitignore"), help: "Read files even when .gitignore ignores them.")
    var noGitignore = false
}

/// Everything a command needs once its options are read: configuration, rules, scanner.
struct Session {
    let terminal: Terminal
    let config: ProjectConfig?
    let ruleSet: RuleSet
    let scanner: ProjectScanner

    init(_ options: ProjectOptions, paths: [String], jobs: Int? = nil) throws {
        terminal = CurrentTerminal.terminal
        let cwd = terminal.currentDirectory
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        do {
            var configPath: String?
            if let explicit = options.config {
                configPath = absolute(explicit)
                guard FileManager.default.fileExists(atPath: configPath!) else {
                    throw CommandFailure(message: "\(explicit): no such configuration file")
                }
            } else if !options.noConfig {
                configPath = ProjectConfig.find(from: absolute(paths.first ?? "."))
            }
            let config = try configPath.map(ProjectConfig.load)
            var ruleSet = RuleSet()
            if !options.rulesFiles.isEmpty {
                ruleSet = try RuleSet.load(files: options.rulesFiles.map(absolute))
            } else if config?.builtInRules ?? true {
                ruleSet = RuleSet.builtIn()
            }
            if let config, !config.rulesFiles.isEmpty {
                try ruleSet.merge(RuleSet.load(files: config.rulesFiles), from: config.path)
            }
            if let config { try config.apply(to: &ruleSet) }
            ruleSet = try ruleSet.selecting(options.ruleIds)
            self.config = config
            self.ruleSet = ruleSet
        } catch let error as RulesFileError {
            throw CommandFailure(message: error.description)
        }
        let admits: @Sendable (String) -> Bool = { [config] path in config?.admits(path) ?? true }
        scanner = ProjectScanner(
            engine: RuleEngine(ruleSet: ruleSet),
            discovery: SourceDiscovery(currentDirectory: cwd, honourGitignore: !options.noGitignore, admits: admits),
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount
        )
    }

    /// Scans, fingerprints, and reports problems on standard error.
    func scan(_ paths: [String]) throws -> ScanResult {
        var result: ScanResult
        do {
            result = try scanner.scan(paths)
        } catch let error as InputPathError {
            throw CommandFailure(message: error.description)
        }
        Fingerprint.assign(&result.findings)
        for problem in result.problems {
            terminal.warning(problem.summary)
        }
        if result.filesScanned == 0 && result.problems.isEmpty {
            terminal.warning("no .swift files found under \(paths.isEmpty ? "." : paths.joined(separator: ", "))")
        }
        return result
    }

    /// The folder a default baseline lives in: the one folder scanned, or the current directory.
    func defaultBaselinePath(for paths: [String]) -> String {
        if let baseline = config?.baseline { return baseline }
        let cwd = terminal.currentDirectory
        if paths.count == 1 {
            let path = paths[0].hasPrefix("/") ? paths[0] : cwd + "/" + paths[0]
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: path).standardizedFileURL.appendingPathComponent(BaselineFile.defaultName).path
            }
        }
        return URL(fileURLWithPath: cwd).appendingPathComponent(BaselineFile.defaultName).path
    }
}
