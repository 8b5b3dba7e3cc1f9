import ArgumentParser
import Audit
import AuditBaseline
import AuditModel
import Foundation

struct Baseline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Record today's findings as accepted, so CI fails only on new ones.",
        usage: "loadaudit baseline [<options>] [<path> ...]",
        discussion: helpProse("""
        Writes every current finding to a baseline file (default: the `baseline:` of .loadaudit.yml, else
        .loadaudit-baseline.json in the scanned folder). The file is sorted, pretty and stable: it holds
        rule ids, paths relative to its own folder and fingerprints, never line numbers or timestamps, so
        it changes only when findings do, and reviews well in a pull request. A fingerprint survives lines
        inserted or removed above a use, re-indentation, and other uses added or removed.

        Re-run it after fixing usages to ratchet the baseline down (`scan` tells when entries are stale).

        EXAMPLES
          loadaudit baseline .
          loadaudit baseline --output ci/loadaudit-baseline.json App
        """)
    )

    @Argument(help: ArgumentHelp("Files or folders to scan.", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Where to write the baseline.", valueName: "file"))
    var output: String?

    @OptionGroup var project: ProjectOptions

    @OptionGroup var empty: EmptyScanOption

    func run() throws {
        let audit = try project.audit(paths: paths, allowsEmpty: empty.allowEmpty)
        let terminal = CurrentTerminal.terminal
        let result = try scanShowingProgress(audit, paths: paths)
        let path = output.map(terminal.absolutePath) ?? audit.defaultBaselinePath(for: paths)
        let folder = (path as NSString).deletingLastPathComponent
        let previous = try? BaselineFile.read(path)
        // A scan of part of the project updates that part: the other entries stay as they were.
        // So does a run of some rules only: the entries of the rules that did not run stay.
        let (baseline, kept, notChecked) = previous?.updated(with: result.findings, absolutePaths: result.absolutePaths, folder: folder,
                                                             inScope: { audit.covers($0, scanning: paths) },
                                                             checked: { !audit.ruleSet.isNotRunning($0) })
            ?? (BaselineFile(findings: result.findings, absolutePaths: result.absolutePaths, folder: folder), 0, 0)
        do {
            try AtomicWriter.write(Array(baseline.encoded().utf8), to: path)
        } catch {
            throw CommandFailure(message: "\(RelativePath.from(terminal.currentDirectory, to: path)): cannot write the baseline (\(error.localizedDescription))")
        }
        var message = "Wrote \(RelativePath.from(terminal.currentDirectory, to: path)): \(baseline.findings.count) findings"
        if let previous {
            let before = Set(previous.findings.map { "\($0.ruleId)|\($0.file)|\($0.fingerprint)" })
            let after = Set(baseline.findings.map { "\($0.ruleId)|\($0.file)|\($0.fingerprint)" })
            message += " (\(after.subtracting(before).count) added, \(before.subtracting(after).count) removed since the previous baseline"
            if kept > 0 { message += "; \(kept) outside the scanned paths kept as they were" }
            if notChecked > 0 { message += "; \(notChecked) of rules that did not run kept as they were" }
            message += ")"
        }
        terminal.write(message + ".\n")
    }
}
