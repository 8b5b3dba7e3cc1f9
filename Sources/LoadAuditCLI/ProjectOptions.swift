import ArgumentParser
import Audit
import AuditModel
import Foundation

/// The options that choose the rules: rules files, rule ids, the configuration file.
struct RuleOptions: ParsableArguments {
    @Option(name: .customLong("rules"), help: ArgumentHelp(
        "A rules file to use instead of the built-in loading-migration rules (repeat to merge several), or a built-in file's name: loading-migration, swiftui-deprecations, skeleton-first.",
        valueName: "file"))
    var rulesFiles: [String] = []

    @Option(name: .customLong("rule"), help: ArgumentHelp("Run only this rule (repeatable).", valueName: "id"))
    var ruleIds: [String] = []

    @Option(help: ArgumentHelp("The configuration file (default: the nearest .loadaudit.yml at or above the first path).", valueName: "file"))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Ignore .loadaudit.yml files.")
    var noConfig = false
}

/// `--allow-empty`, for the commands that scan the paths they are given (scan, fix, baseline).
struct EmptyScanOption: ParsableArguments {
    @Flag(name: .customLong("allow-empty"), help: """
        Let a run over no .swift file pass, with a warning (a hook given only skipped files); without it, \
        that is an error (exit 2): a misspelt folder in CI would check nothing.
        """)
    var allowEmpty = false
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

extension RuleOptions {
    /// The setup these options choose, before how files are found and cached.
    func setup(_ terminal: Terminal) -> AuditSetup {
        var setup = AuditSetup(currentDirectory: terminal.currentDirectory, toolVersion: loadauditVersion)
        setup.rulesFiles = rulesFiles
        setup.ruleIds = ruleIds
        setup.configFile = config
        setup.readsConfig = !noConfig
        return setup
    }
}

extension ProjectOptions {
    /// The audit these options choose for `paths` (`AuditError` becomes the command's one-line error).
    func audit(paths: [String], jobs: Int? = nil, allowsEmpty: Bool = false) throws -> Audit {
        let terminal = CurrentTerminal.terminal
        var setup = rules.setup(terminal)
        setup.allowsEmpty = allowsEmpty
        setup.honourGitignore = !noGitignore
        setup.caches = cache
        setup.cacheFolder = cacheDir
        setup.jobs = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        setup.prefilter = !noPrefilter
        if ProcessInfo.processInfo.environment["LOADAUDIT_TRACE"] == "1" {
            let lock = NSLock()
            setup.trace = { line in
                lock.lock()
                defer { lock.unlock() }
                FileHandle.standardError.write(Data("loadaudit: trace: \(line)\n".utf8))
            }
        }
        if ProcessInfo.processInfo.environment["LOADAUDIT_CHECK_ANCHOR_CUT"] == "1" {
            setup.anchorCutCheck = { line in FileHandle.standardError.write(Data("loadaudit: anchor cut check: \(line)\n".utf8)) }
        }
        return try Audit(setup, paths: paths)
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

/// `Audit.scanFindings` for the terminal: the progress line while it runs, then its warnings on
/// standard error.
func scanShowingProgress(_ audit: Audit, paths: [String]) throws -> ScanResult {
    let terminal = CurrentTerminal.terminal
    let progress = ProgressLine(terminal: terminal)
    let (result, warnings): (ScanResult, [String])
    do {
        defer { progress.finish() }
        (result, warnings) = try audit.scanFindings(paths, progress: progress.isActive ? progress.update : nil)
    }
    for warning in warnings { terminal.warning(warning) }
    return result
}
