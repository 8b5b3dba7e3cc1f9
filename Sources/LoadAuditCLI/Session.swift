import ArgumentParser
import AuditBaseline
import AuditConfig
import AuditModel
import AuditRules
import AuditScan
import Foundation

/// The options that choose the rules: rules files, rule ids, the configuration file.
struct RuleOptions: ParsableArguments {
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
}

/// Options every command that reads a project shares: the rules, then how files are found and cached.
struct ProjectOptions: ParsableArguments {
    @OptionGroup var rules: RuleOptions

    @Flag(name: .customLong("no-gitignore"), help: "Read files even when .gitignore ignores them.")
    var noGitignore = false

    @Flag(help: "Keep per-file results in .loadaudit-cache/ (beside .loadaudit.yml, or in the current folder) so a re-run parses only changed files.")
    var cache = false

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Keep per-file results in this folder (implies --cache).", valueName: "folder"))
    var cacheDir: String?

    @Flag(name: .customLong("no-prefilter"), help: ArgumentHelp("Parse every file, even those that cannot match (for checking the prefilter; slower).", visibility: .hidden))
    var noPrefilter = false
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
        let (config, ruleSet) = try Self.loadRules(options.rules, paths: paths)
        self.config = config
        self.ruleSet = ruleSet
        let admits: @Sendable (String) -> Bool = { [config] path in config?.admits(path) ?? true }
        var cache: ResultCache?
        if options.cache || options.cacheDir != nil {
            let folder = options.cacheDir.map(absolute) ?? ((config?.folder ?? cwd) + "/.loadaudit-cache")
            do {
                cache = try ResultCache(folder: folder, rulesKey: "\(loadauditVersion)|\(ruleSet.cacheKey)")
            } catch {
                throw CommandFailure(message: "\(folder): cannot create the cache folder (\(error.localizedDescription))")
            }
        }
        var scanner = ProjectScanner(
            engine: RuleEngine(ruleSet: ruleSet),
            discovery: SourceDiscovery(currentDirectory: cwd, honourGitignore: !options.noGitignore, admits: admits),
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            prefilter: !options.noPrefilter,
            cache: cache
        )
        if ProcessInfo.processInfo.environment["LOADAUDIT_TRACE"] == "1" {
            let lock = NSLock()
            scanner.trace = { line in
                lock.lock()
                defer { lock.unlock() }
                FileHandle.standardError.write(Data("loadaudit: trace: \(line)\n".utf8))
            }
        }
        self.scanner = scanner
    }

    /// The configuration (the nearest `.loadaudit.yml` at or above the first path, unless told
    /// otherwise) and the rules it and the options choose.
    static func loadRules(_ options: RuleOptions, paths: [String]) throws -> (ProjectConfig?, RuleSet) {
        let cwd = CurrentTerminal.terminal.currentDirectory
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
            let ruleSet = try rules(options, config: config)
            if ruleSet.rules.isEmpty {
                if let config, !config.builtInRules, options.rulesFiles.isEmpty, config.rulesFiles.isEmpty {
                    throw CommandFailure(message: "\(RelativePath.from(cwd, to: config.path)): built-in-rules is false and no rules file is named: no rule would run")
                }
                throw CommandFailure(message: "no rule would run: every rule is switched off")
            }
            return (config, ruleSet)
        } catch let error as RulesFileError {
            throw CommandFailure(message: error.description)
        }
    }

    /// The rules the options and a configuration choose: the options' rules files, else the built-in
    /// rules unless the configuration turns them off, plus its rules files, with its severities.
    static func rules(_ options: RuleOptions, config: ProjectConfig?) throws -> RuleSet {
        let cwd = CurrentTerminal.terminal.currentDirectory
        var ruleSet = RuleSet()
        if !options.rulesFiles.isEmpty {
            ruleSet = try RuleSet.load(files: options.rulesFiles.map { $0.hasPrefix("/") ? $0 : cwd + "/" + $0 })
        } else if config?.builtInRules ?? true {
            ruleSet = RuleSet.builtIn()
        }
        if let config, !config.rulesFiles.isEmpty {
            try ruleSet.merge(RuleSet.load(files: config.rulesFiles), from: config.path)
        }
        if let config { try config.apply(to: &ruleSet) }
        return try ruleSet.selecting(options.ruleIds)
    }

    /// A file scanned under another name: the text of standard input, written to `file`, reported
    /// as `name` (its path in the project, for the reports, the baseline and the configuration).
    struct StandIn {
        let file: String
        let name: String
    }

    /// Scans, fingerprints, and reports problems on standard error.
    func scan(_ paths: [String], standIn: StandIn? = nil) throws -> ScanResult {
        var result: ScanResult
        let progress = ProgressLine(terminal: terminal)
        defer { progress.finish() }
        do {
            result = try scanner.scan(standIn.map { [$0.file] } ?? paths, within: standIn == nil ? projectRoot(for: paths) : nil,
                                      progress: progress.isActive ? progress.update : nil)
        } catch let error as InputPathError {
            throw CommandFailure(message: error.description)
        }
        if let standIn {
            let shown = result.absolutePaths.first { $0.value == standIn.file }?.key ?? standIn.file
            result.findings = result.findings.map { $0.renamingFile(shown, to: standIn.name) }
            result.problems = result.problems.map { problem in
                problem.file == shown ? FileProblem(file: standIn.name, kind: problem.kind, line: problem.line, column: problem.column, detail: problem.detail) : problem
            }
            result.absolutePaths[shown] = nil
            result.absolutePaths[standIn.name] = URL(fileURLWithPath: standIn.name.hasPrefix("/") ? standIn.name : terminal.currentDirectory + "/" + standIn.name)
                .standardizedFileURL.path
        }
        Fingerprint.assign(&result.findings)
        for problem in result.problems {
            terminal.warning(problem.summary)
        }
        if standIn == nil { try checkPatternsMatched(paths) }
        if result.filesScanned == 0 && result.problems.isEmpty {
            terminal.warning("no .swift files found under \(paths.isEmpty ? "." : paths.joined(separator: ", "))")
        }
        return result
    }

    /// The project folder around `paths`, whose every file's facts (declarations, imports,
    /// re-exports, the pieces of rotating text) count whatever part of it is scanned: the folder of
    /// `.loadaudit.yml`, else the git work tree (the nearest folder with a `.git`), else none.
    func projectRoot(for paths: [String]) -> String? {
        if let config { return config.folder }
        let cwd = terminal.currentDirectory
        let first = paths.first ?? "."
        var folder = URL(fileURLWithPath: first.hasPrefix("/") ? first : cwd + "/" + first).standardizedFileURL.path
        while true {
            if FileManager.default.fileExists(atPath: folder + "/.git") { return folder }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return nil }
            folder = parent
        }
    }

    /// After a walk of the configuration's whole folder, an include or exclude pattern that matched no
    /// file is a mistake (`./Features/**` written for `Features/**` in older versions, a misspelt
    /// folder): stop, naming it, rather than pass CI having scanned nothing, or everything.
    private func checkPatternsMatched(_ paths: [String]) throws {
        guard let config else { return }
        let cwd = terminal.currentDirectory
        let walked = (paths.isEmpty ? ["."] : paths).map { URL(fileURLWithPath: $0.hasPrefix("/") ? $0 : cwd + "/" + $0).standardizedFileURL.path }
        let folder = URL(fileURLWithPath: config.folder).standardizedFileURL.path
        guard walked.contains(where: { Self.path(folder, isIn: $0) }) else { return }
        let unmatched = config.unmatchedPatterns
        guard !unmatched.isEmpty else { return }
        let file = RelativePath.from(cwd, to: config.path)
        throw CommandFailure(message: "\(file): \(unmatched.joined(separator: ", ")) \(unmatched.count == 1 ? "matches" : "match") no .swift file")
    }

    /// Whether a file (absolute path) is one this run's scan covers: under one of `paths` (none: the
    /// current folder), or one of them, and in the configuration's scope. A baseline entry outside is
    /// neither fixed nor dropped by a scan of part of the project.
    func covers(_ absolutePath: String, scanning paths: [String]) -> Bool {
        let cwd = terminal.currentDirectory
        let file = URL(fileURLWithPath: absolutePath).standardizedFileURL.path
        let inPaths = (paths.isEmpty ? ["."] : paths).contains { path in
            let scanned = URL(fileURLWithPath: path.hasPrefix("/") ? path : cwd + "/" + path).standardizedFileURL.path
            return Self.path(file, isIn: scanned)
        }
        return inPaths && (config?.includes(file) ?? true)
    }

    /// Whether `path` is `folder` or below it (both absolute and standardized).
    private static func path(_ path: String, isIn folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
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

/// "Scanning 1,234 of 5,000 files" on standard error, for runs longer than about a second, only when
/// standard error is a terminal: logs and CI output stay clean.
final class ProgressLine: @unchecked Sendable {
    let isActive: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let lock = NSLock()
    private let terminal: Terminal

    init(terminal: Terminal) {
        self.terminal = terminal
        isActive = terminal.errorIsTerminal
    }

    func update(_ done: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(started) > 1, now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
        drawn = true
        terminal.writeError("\r\u{1B}[2KScanning: \(done) of \(total) files")
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { terminal.writeError("\r\u{1B}[2K") }
    }
}
