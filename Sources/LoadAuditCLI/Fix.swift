import ArgumentParser
import Audit
import AuditModel
import Foundation

struct Fix: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Apply the replacements: safe ones by default, unsafe ones with --unsafe.",
        usage: "loadaudit fix [<options>] [<path> ...]",
        discussion: helpProse("""
        Rewrites only the bytes of each deprecated call and the modifiers its replacement absorbs; every
        other byte (indentation, comments, line endings, a byte-order mark, the final newline) stays.
        Every rewritten file is parsed again first: a rewrite that would add a syntax error is refused and
        the file left untouched. Files are written atomically (a temporary file, then a rename) with their
        permissions kept; a file that changed on disk meanwhile, a read-only file, or a symbolic link
        leading outside the given folders is reported and not written. Manual findings are listed (at their
        lines in the files as the run leaves them: with --dry-run, where scan puts them), never touched.
        Running fix twice changes nothing the second time.

        --dry-run writes nothing and prints a unified diff that `git apply` and `patch -p1` accept from
        where loadaudit ran (its paths are relative to the current folder); the summary goes to
        standard error.

        --split-by owner|module|folder --output-dir DIR changes no source file: it writes the same
        rewrite as one patch per code owner (CODEOWNERS in .github/, the top or docs/ of the
        repository; the last matching line wins; files with several owners go to the patch of all of
        them, unowned files to unowned.patch), per module of the project, or per top-level folder of
        the repository. Each patch applies alone with `git apply` from where loadaudit ran, no two
        touch the same file, and together they are the whole fix. A table (patch, owner, files, fixes
        by class) goes to standard output, the summary to standard error. --max-files N cuts a larger
        group into numbered patches; with --dry-run the table lists the patches and nothing is written.

        EXIT CODES
          0  done (or, with --dry-run, nothing to change)
          1  with --dry-run: there are changes;
             without: some files could not be fixed (see the summary)
             (--split-by: as without --dry-run, or as with it when given)
          2  bad usage, a bad rules file, an input path that cannot be read,
             or no .swift file to fix (--allow-empty lets that pass)

        EXAMPLES
          loadaudit fix --dry-run ./App              Show what would change
          loadaudit fix --dry-run App > m.diff && git apply m.diff
                                                     The same as fix, through git
          loadaudit fix ./App                        Apply the safe replacements
          loadaudit fix --unsafe --rule loading-overlay ./App
          loadaudit fix --split-by owner --output-dir patches .
                                                     One patch per code owner, for each team to review
        """)
    )

    @Argument(help: ArgumentHelp("Files or folders to fix.", valueName: "path"))
    var paths: [String] = []

    @Flag(name: .customLong("dry-run"), help: "Write nothing; print a unified diff of the changes.")
    var dryRun = false

    @Flag(help: "Also apply unsafe replacements (each needs a human glance: review the diff).")
    var unsafe = false

    @OptionGroup var project: ProjectOptions

    @OptionGroup var empty: EmptyScanOption

    @Option(help: "Colour in the diff: auto (only on a terminal, and not when NO_COLOR is set), always, never.")
    var color: ColourChoice = .auto

    @OptionGroup var split: FixSplitOptions

    func validate() throws { try split.validate(dryRun: dryRun) }

    func run() throws {
        let audit = try project.audit(paths: paths, allowsEmpty: empty.allowEmpty)
        let terminal = CurrentTerminal.terminal
        var plan = try audit.fix(paths, classes: unsafe ? [.safe, .unsafe] : [.safe])
        for problem in plan.scan.problems {
            terminal.warning(problem.summary)
        }
        if let key = split.splitBy {
            return try runSplit(plan, audit: audit, by: key, terminal: terminal)
        }
        if dryRun {
            let colour = terminal.wantsColour(color)
            for file in plan.files where file.outcome == .fixed {
                if let diff = file.diff(colour: colour) {
                    terminal.write(diff)
                }
            }
        } else {
            write(&plan, roots: writableRoots(paths, currentDirectory: terminal.currentDirectory))
        }
        let summary = FixSummary(plan: plan, dryRun: dryRun, unsafeApplied: unsafe).render()
        if dryRun { terminal.writeError(summary) } else { terminal.write(summary) }

        let changed = plan.files.contains { $0.outcome == .fixed && $0.fixed != $0.original }
        let failed = plan.files.contains { $0.outcome != .fixed }
        if dryRun ? (changed || failed) : failed {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    /// Writes every rewritten file of the plan through the atomic writer; a file it refuses (read-only,
    /// changed on disk, a link leading outside `roots`) is marked not written, its original untouched.
    private func write(_ plan: inout FixPlanner.Plan, roots: [String]) {
        for index in plan.files.indices where plan.files[index].outcome == .fixed {
            let file = plan.files[index]
            do {
                try AtomicWriter.replace(file.absolutePath, with: file.fixed, original: file.original, roots: roots)
            } catch let refusal as WriteRefusal {
                plan.files[index].outcome = .notWritten(reason: refusal.description)
            } catch {
                plan.files[index].outcome = .notWritten(reason: WriteRefusal.failed(error.localizedDescription).description)
            }
        }
    }

    /// The real paths a fix may write into: the folders given, and the folders of the files given.
    private func writableRoots(_ paths: [String], currentDirectory: String) -> [String] {
        (paths.isEmpty ? ["."] : paths).map { path in
            let absolute = URL(fileURLWithPath: path.hasPrefix("/") ? path : currentDirectory + "/" + path).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
            let folder = isDirectory.boolValue ? absolute : (absolute as NSString).deletingLastPathComponent
            guard let resolved = realpath(folder, nil) else { return folder }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }
}

/// The closing account of a fix: what changed, what was skipped and why, what is left for people.
struct FixSummary {
    let plan: FixPlanner.Plan
    let dryRun: Bool
    let unsafeApplied: Bool

    func render() -> String {
        var text = ""
        let fixed = plan.files.filter { $0.outcome == .fixed && $0.fixed != $0.original }
        var byRule: [String: Int] = [:]
        for file in fixed { byRule.merge(file.editsByRule, uniquingKeysWith: +) }
        let edits = byRule.values.reduce(0, +)
        let verb = dryRun ? "Would fix" : "Fixed"
        if fixed.isEmpty {
            text += dryRun ? "Nothing to fix.\n" : "Nothing fixed.\n"
        } else {
            let rules = byRule.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text += "\(verb) \(counted(fixed.count, "file")): \(counted(edits, "edit")) (\(rules))\n"
            for file in fixed {
                text += "  \(file.file): \(counted(file.editsByRule.values.reduce(0, +), "edit"))\n"
            }
        }
        for file in plan.files {
            switch file.outcome {
            case .fixed: break
            case .refused(let reason, let ruleId, let line, let column):
                text += "not fixed: \(file.file):\(line):\(column): \(reason) [\(ruleId)]\n"
            case .notWritten(let refusal):
                text += "not fixed: \(file.file): \(refusal)\n"
            }
        }
        // Where each is in its file after this run: as the fix left it in a file it wrote, as the
        // file was in a dry run or a file not written.
        let written = dryRun ? [] : Set(plan.files.filter { $0.outcome == .fixed }.map(\.file))
        let left = plan.left.map { ($0.finding, written.contains($0.finding.file) ? $0.finding.start : $0.startAsFound) }
        let unsafe = left.filter { $0.0.fix == .unsafe }
        if !unsafe.isEmpty, !unsafeApplied {
            text += "\(counted(unsafe.count, "unsafe fix", "unsafe fixes")) skipped (review, then apply with --unsafe):\n"
            for (finding, start) in unsafe { text += "  \(location(finding, start)) \(finding.message) [\(finding.ruleId)]\n" }
        }
        let manual = left.filter { $0.0.fix == .manual }
        if !manual.isEmpty {
            text += "\(counted(manual.count, "manual finding")) left for a person:\n"
            for (finding, start) in manual { text += "  \(location(finding, start)) \(finding.message) [\(finding.ruleId)]\n" }
        }
        return text
    }

    private func location(_ finding: Finding, _ start: SourcePoint) -> String {
        "\(finding.file):\(start.line):\(start.column):"
    }
}
