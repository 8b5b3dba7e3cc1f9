// Audit: the library layer between the command line and the stages. It turns the command line's
// choices into a configuration, a ruleset and a scanner (`Audit.init`), then runs `scan`, `fix` and `progress` as
// named steps (ScanSteps.swift, FixPlanner.swift, ProgressSteps.swift; the walks are in docs/architecture.md).
// The rule authors' tools take their values here too (the rules' examples run as tests, a file's tree for
// `syntax`: RuleExampleChecks.swift, RuleAuthorTools.swift), so the command line does no work around it.
// It owns: choosing the configuration and rules, the project root, the scan's gate (baseline, diff
// base, gate changes, whether the run fails) and the fix's plan. It must not print, write files or
// exit: it returns what happened, and throws `AuditError` (one line naming the file) for bad input.

import AuditBaseline
import AuditConfig
import AuditModel
import AuditProject
import AuditRules
import AuditScan
import Foundation

/// Bad input the run cannot go on with: one line, naming the file and what is wrong. `warnings` are
/// what the run had to say before it stopped (files it skipped), shown before the error.
public struct AuditError: Error, CustomStringConvertible {
    public let message: String
    public var warnings: [String] = []
    /// Where the mistakes are, for tools that show them in the file (a bad rules file or
    /// configuration, each at its line); empty when the error is about no file's text.
    public var places: [AuditErrorPlace] = []

    public init(_ message: String, warnings: [String] = []) {
        self.message = message
        self.warnings = warnings
    }

    public var description: String { message }
}

/// What the command line chose: where the run stands, which rules, how files are found and cached.
public struct AuditSetup {
    /// The folder relative paths are taken from.
    public var currentDirectory: String
    /// `--rules`: rules files used instead of the built-in rules (relative to `currentDirectory`).
    public var rulesFiles: [String] = []
    /// `--rule`: run only these rules.
    public var ruleIds: [String] = []
    /// `--config`: the configuration file; nil looks for the nearest `.loadaudit.yml` above the first path.
    public var configFile: String?
    /// False with `--no-config`.
    public var readsConfig = true
    public var honourGitignore = true
    /// Keep per-file results between runs: in `cacheFolder`, else in `.loadaudit-cache` beside the
    /// configuration (or in the current folder).
    public var caches = false
    public var cacheFolder: String?
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// False parses every file (a check that the prefilter changes nothing).
    public var prefilter = true
    /// `--allow-empty`: a run that finds no Swift file to scan goes on (with a warning) instead of
    /// stopping, where none is normal (a hook given only skipped files).
    public var allowsEmpty = false
    /// The version the cache keys on.
    public var toolVersion: String
    /// Told what the prefilter picks and what each parse costs (`LOADAUDIT_TRACE=1`).
    public var trace: (@Sendable (String) -> Void)?
    /// Told of each file the anchor cut would wrongly leave for later (`LOADAUDIT_CHECK_ANCHOR_CUT=1`:
    /// every file the cut leaves is parsed whole too; `ProjectScanner.anchorCutCheck`).
    public var anchorCutCheck: (@Sendable (String) -> Void)?

    public init(currentDirectory: String, toolVersion: String) {
        self.currentDirectory = currentDirectory
        self.toolVersion = toolVersion
    }

    func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : currentDirectory + "/" + path }
}

/// A project's configuration, its rules and the scanner built from them: what `scan` and `fix` run.
public struct Audit {
    public let setup: AuditSetup
    public let config: ProjectConfig?
    public let ruleSet: RuleSet
    public internal(set) var scanner: ProjectScanner

    /// Reads the configuration (found from `paths`, the paths the run is given) and the rules.
    public init(_ setup: AuditSetup, paths: [String]) throws {
        self.setup = setup
        (config, ruleSet) = try Self.loadRules(setup, paths: paths)
        let admits: @Sendable (String) -> Bool = { [config] path in config?.admits(path) ?? true }
        var cache: ResultCache?
        if setup.caches || setup.cacheFolder != nil {
            let folder = setup.cacheFolder.map(setup.absolute) ?? ((config?.folder ?? setup.currentDirectory) + "/.loadaudit-cache")
            do {
                cache = try ResultCache(folder: folder, rulesKey: "\(setup.toolVersion)|\(ruleSet.cacheKey)")
            } catch {
                throw AuditError("\(folder): cannot create the cache folder (\(error.localizedDescription))")
            }
        }
        var scanner = ProjectScanner(
            engine: RuleEngine(ruleSet: ruleSet),
            discovery: SourceDiscovery(currentDirectory: setup.currentDirectory, honourGitignore: setup.honourGitignore, admits: admits),
            jobs: setup.jobs, prefilter: setup.prefilter, cache: cache
        )
        scanner.trace = setup.trace
        scanner.anchorCutCheck = setup.anchorCutCheck
        self.scanner = scanner
    }

    /// The configuration (the nearest `.loadaudit.yml` at or above the first path, unless told
    /// otherwise) and the rules it and the setup choose.
    public static func loadRules(_ setup: AuditSetup, paths: [String]) throws -> (ProjectConfig?, RuleSet) {
        do {
            var configPath: String?
            if let explicit = setup.configFile {
                configPath = setup.absolute(explicit)
                guard FileManager.default.fileExists(atPath: configPath!) else { throw AuditError("\(explicit): no such configuration file") }
            } else if setup.readsConfig {
                configPath = ProjectConfig.find(from: setup.absolute(paths.first ?? "."))
            }
            let config = try configPath.map(ProjectConfig.load)
            let ruleSet = try rules(setup, config: config)
            if ruleSet.rules.isEmpty {
                if let config, !config.builtInRules, setup.rulesFiles.isEmpty, config.rulesFiles.isEmpty {
                    throw AuditError("\(RelativePath.from(setup.currentDirectory, to: config.path)): built-in-rules is false and no rules file is named: no rule would run")
                }
                throw AuditError("no rule would run: every rule is switched off")
            }
            return (config, ruleSet)
        } catch let error as RulesFileError {
            throw AuditError(error, from: setup.currentDirectory)
        }
    }

    /// The rules the setup and a configuration choose: the setup's rules files, else the built-in
    /// rules unless the configuration turns them off, plus its rules files, with its severities.
    /// `version` reads another version of the rules files (the merge base's, for the gate): a file's
    /// text, or nil for a file that is not there.
    static func rules(_ setup: AuditSetup, config: ProjectConfig?, version: RulesFileVersion = .onDisk) throws -> RuleSet {
        var ruleSet = RuleSet()
        // The mistakes of the command line's files and of the configuration's are reported together.
        var errors: [RulesFileError] = []
        // A file named both on the command line and in the configuration (same resolved path) is read once.
        var read: Set<String> = []
        if !setup.rulesFiles.isEmpty {
            (ruleSet, errors) = readRulesFiles(setup.rulesFiles, from: setup.currentDirectory, version: version, alreadyRead: &read)
        } else if config?.builtInRules ?? true {
            ruleSet = RuleSet.builtIn()
        }
        if let config, !config.rulesFiles.isEmpty {
            let (configured, mistakes) = readRulesFiles(config.rulesFiles, from: config.folder, version: version, alreadyRead: &read)
            errors += mistakes
            errors += ruleSet.adding(configured, from: config.path)
        }
        if let error = RulesFileError.combining(errors) { throw error }
        if let config { try config.apply(to: &ruleSet) }
        return try ruleSet.selecting(setup.ruleIds)
    }

    /// The rules files `rules test` checks when none is named, chosen as a scan chooses its rules:
    /// the built-in files unless the nearest `.loadaudit.yml` at or above `folder` says
    /// `built-in-rules: false`, then that configuration's rules files (relative to its folder).
    public static func rulesFilesToTest(from folder: String) throws -> [(name: String, folder: String)] {
        let config = try ProjectConfig.find(from: folder).map(ProjectConfig.load)
        var files = (config?.builtInRules ?? true) ? RuleSet.builtInNames.map { (name: $0, folder: folder) } : []
        if let config { files += config.rulesFiles.map { (name: $0, folder: config.folder) } }
        if files.isEmpty, let config {
            throw AuditError("\(RelativePath.from(folder, to: config.path)): built-in-rules is false and no rules file is named: no rule would run")
        }
        return files
    }

    /// Which text of a rules file the rules are read from.
    enum RulesFileVersion {
        case onDisk
        /// Another version: the file's text, or nil where it did not exist (then it is left out).
        case other((String) -> String?)
    }

    /// Rules files merged in order; a name of a built-in file (`swiftui-deprecations`) that is no file
    /// in `folder` takes the built-in one.
    public static func rulesFiles(_ names: [String], from folder: String) throws -> RuleSet {
        try rulesFiles(names, from: folder, version: .onDisk)
    }

    static func rulesFiles(_ names: [String], from folder: String, version: RulesFileVersion) throws -> RuleSet {
        var read: Set<String> = []
        let (merged, errors) = readRulesFiles(names, from: folder, version: version, alreadyRead: &read)
        if let error = RulesFileError.combining(errors) { throw error }
        return merged
    }

    /// The rules of the files that read well, and every mistake of every file (each file is read,
    /// whatever the mistakes of those before it). A file whose resolved path is in `alreadyRead`
    /// (named twice, here or before) is read once; the paths read are added to it.
    static func readRulesFiles(_ names: [String], from folder: String, version: RulesFileVersion,
                               alreadyRead: inout Set<String>) -> (RuleSet, [RulesFileError]) {
        var merged = RuleSet()
        var errors: [RulesFileError] = []
        for name in names {
            let path = name.hasPrefix("/") ? name : folder + "/" + name
            let key = builtInNamed(name, path) ? "built-in:" + name : URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            guard alreadyRead.insert(key).inserted else { continue }
            let (ruleSet, mistakes): (RuleSet, [RulesFileError])
            if !name.contains("/"), !FileManager.default.fileExists(atPath: path), let builtIn = try? RuleSet.builtIn(named: name) {
                (ruleSet, mistakes) = (builtIn, [])
            } else if case .other(let text) = version {
                guard let text = text(path) else { continue }
                (ruleSet, mistakes) = RuleSet.read(text: text, file: path)
            } else {
                (ruleSet, mistakes) = RuleSet.read(files: [path])
            }
            errors += mistakes
            errors += merged.adding(ruleSet, from: builtInNamed(name, path) ? "--rules \(name)" : path)
        }
        return (merged, errors)
    }

    private static func builtInNamed(_ name: String, _ path: String) -> Bool {
        !name.contains("/") && !FileManager.default.fileExists(atPath: path) && RuleSet.builtInNames.contains(name)
    }

    /// The rules files this run reads (absolute): `--rules` files and the configuration's, not the built-in ones.
    func rulesFilePaths() -> [String] {
        var paths: [String] = []
        for name in setup.rulesFiles {
            let path = setup.absolute(name)
            if name.contains("/") || FileManager.default.fileExists(atPath: path) { paths.append(path) }
        }
        for name in config?.rulesFiles ?? [] where name.hasPrefix("/") { paths.append(name) }
        return paths
    }

    /// The project folder around `paths`, whose every file's facts (declarations, imports,
    /// re-exports, the pieces of rotating text) count whatever part of it is scanned: the folder of
    /// `.loadaudit.yml`, else the git work tree (the nearest folder with a `.git`), else the outermost
    /// folder around them holding a package manifest (`Package.swift`) or an Xcode project or
    /// workspace, else none. A file named alone (the pre-commit hook's way) is so judged within its
    /// package as the whole tree judges it.
    public func projectRoot(for paths: [String]) -> String? {
        if let config { return config.folder }
        var folder = URL(fileURLWithPath: setup.absolute(paths.first ?? ".")).standardizedFileURL.path
        var outermostProject: String?
        while true {
            if FileManager.default.fileExists(atPath: folder + "/.git") { return folder }
            if Self.holdsProjectFile(folder) { outermostProject = folder }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return outermostProject }
            folder = parent
        }
    }

    /// Whether `folder` holds a `Package.swift`, an `.xcodeproj` or an `.xcworkspace`.
    static func holdsProjectFile(_ folder: String) -> Bool {
        if FileManager.default.fileExists(atPath: folder + "/Package.swift") { return true }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return names.contains { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }
    }

    /// Whether a file (absolute path) is one this run's scan covers: under one of `paths` (none: the
    /// current folder), or one of them, and in the configuration's scope. A baseline entry outside is
    /// neither fixed nor dropped by a scan of part of the project.
    public func covers(_ absolutePath: String, scanning paths: [String]) -> Bool {
        let file = URL(fileURLWithPath: absolutePath).standardizedFileURL.path
        let inPaths = (paths.isEmpty ? ["."] : paths).contains { path in
            Self.path(file, isIn: URL(fileURLWithPath: setup.absolute(path)).standardizedFileURL.path)
        }
        return inPaths && (config?.includes(file) ?? true)
    }

    /// Whether `path` is `folder` or below it (both absolute and standardized).
    static func path(_ path: String, isIn folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// Where a baseline goes when not told: the configuration's, else in the one folder scanned, else
    /// in the current directory.
    public func defaultBaselinePath(for paths: [String]) -> String {
        if let baseline = config?.baseline { return baseline }
        if paths.count == 1 {
            let path = setup.absolute(paths[0])
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: path).standardizedFileURL.appendingPathComponent(BaselineFile.defaultName).path
            }
        }
        return URL(fileURLWithPath: setup.currentDirectory).appendingPathComponent(BaselineFile.defaultName).path
    }

    /// A run that scanned no Swift file checks nothing: in CI, a misspelt folder would pass. An error
    /// naming the paths (and how many files were skipped), unless `--allow-empty`.
    func emptyScanError(_ result: ScanResult, paths: [String]) -> AuditError? {
        guard result.filesScanned == 0, !setup.allowsEmpty else { return nil }
        let named = paths.isEmpty ? "." : paths.joined(separator: ", ")
        let allow = "(--allow-empty lets a run over none pass)"
        guard !result.problems.isEmpty else { return AuditError("no .swift file to scan under \(named) \(allow)") }
        return AuditError("no .swift file could be scanned under \(named): \(result.problems.count) skipped \(allow)",
                          warnings: result.problems.map(\.summary))
    }

    /// After a walk of the configuration's whole folder, an include or exclude pattern that matched no
    /// file is a mistake (`./Features/**` written for `Features/**` in older versions, a misspelt
    /// folder): stop, naming it, rather than pass CI having scanned nothing, or everything.
    func unmatchedPatternsError(_ paths: [String]) -> AuditError? {
        guard let config else { return nil }
        let walked = (paths.isEmpty ? ["."] : paths).map { URL(fileURLWithPath: setup.absolute($0)).standardizedFileURL.path }
        let folder = URL(fileURLWithPath: config.folder).standardizedFileURL.path
        guard walked.contains(where: { Self.path(folder, isIn: $0) }) else { return nil }
        let unmatched = config.unmatchedPatterns
        guard !unmatched.isEmpty else { return nil }
        let file = RelativePath.from(setup.currentDirectory, to: config.path)
        return AuditError("\(file): \(unmatched.joined(separator: ", ")) \(unmatched.count == 1 ? "matches" : "match") no .swift file")
    }
}

/// The project model of a tree, for people (`loadaudit syntax --project`): every file read and parsed,
/// whatever the rules look for, so that every module's declarations show.
public struct ProjectDescription {
    public let model: ProjectModel
    /// Each file (display path) with what it imports, in report order.
    public let files: [(file: String, imports: [String])]
}

extension Audit {
    public func describeProject(_ paths: [String]) throws -> ProjectDescription {
        let reader = ProjectScanner(engine: scanner.engine, discovery: scanner.discovery, jobs: scanner.jobs, prefilter: false)
        do {
            let (_, files, context) = try reader.scanFiles(paths, within: projectRoot(for: paths), keepSources: true)
            return ProjectDescription(model: context.model, files: files.map { ($0.reference.displayPath, $0.analysis.imports.sorted()) })
        } catch let error as InputPathError {
            throw AuditError(error.description)
        }
    }
}
