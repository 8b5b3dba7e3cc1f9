import ArgumentParser
import Audit
import AuditModel
import Foundation

extension FixSplitKey: ExpressibleByArgument {}

/// `fix --split-by owner|module|folder --output-dir DIR [--max-files N]`.
struct FixSplitOptions: ParsableArguments {
    @Option(name: .customLong("split-by"), help: ArgumentHelp(
        "Write the fix as one patch per code owner, module or top-level folder instead of changing the files.",
        valueName: "owner|module|folder"))
    var splitBy: FixSplitKey?

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("With --split-by: the folder the patches are written to (made if missing).", valueName: "dir"))
    var outputDir: String?

    @Option(name: .customLong("max-files"), help: ArgumentHelp("With --split-by: at most N files a patch; a larger group is cut into numbered patches.", valueName: "n"))
    var maxFiles: Int?

    func validate(dryRun: Bool) throws {
        guard splitBy != nil else {
            if outputDir != nil { throw ValidationError("--output-dir goes with --split-by") }
            if maxFiles != nil { throw ValidationError("--max-files goes with --split-by") }
            return
        }
        if outputDir == nil, !dryRun { throw ValidationError("--split-by needs --output-dir DIR (or --dry-run to list the patches)") }
        if let maxFiles, maxFiles < 1 { throw ValidationError("--max-files must be 1 or more, not \(maxFiles)") }
    }
}

extension Fix {
    /// Writes the plan as patches (or, with --dry-run, lists them); the files themselves are untouched.
    func runSplit(_ plan: FixPlanner.Plan, audit: Audit, by key: FixSplitKey, terminal: Terminal) throws {
        let split = try audit.split(plan, paths: paths, by: key, maxFiles: self.split.maxFiles)
        for warning in split.warnings { terminal.warning(warning) }
        let folder = self.split.outputDir
        if !dryRun, let folder {
            let directory = try Self.outputFolder(folder, terminal: terminal)
            for patch in split.patches {
                do { try AtomicWriter.write(Array(patch.text.utf8), to: directory + "/" + patch.name) } catch {
                    throw CommandFailure(message: "\(folder)/\(patch.name): cannot write the patch (\(error.localizedDescription))")
                }
            }
        }
        terminal.write(Self.table(split, folder: dryRun ? nil : folder))
        terminal.writeError(FixSummary(plan: plan, dryRun: true, unsafeApplied: unsafe).render())
        let changed = !split.patches.isEmpty
        let failed = plan.files.contains { $0.outcome != .fixed }
        if dryRun ? (changed || failed) : failed {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    /// The output folder as an absolute path, made if missing; one line when it cannot be used.
    static func outputFolder(_ folder: String, terminal: Terminal) throws -> String {
        let path = terminal.absolutePath(folder)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure(message: "\(folder): --output-dir is a file, not a folder") }
        } else {
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw CommandFailure(message: "\(folder): cannot make the --output-dir folder (\(error.localizedDescription))")
            }
        }
        guard access(path, W_OK) == 0 else { throw CommandFailure(message: "\(folder): the --output-dir folder is not writable") }
        return path
    }

    /// patch, owner, files, fixes by class; then the totals.
    static func table(_ split: FixSplit, folder: String?) -> String {
        let count = counted(split.patches.count, "patch", "patches")
        guard !split.patches.isEmpty else { return "Nothing to fix: no patch\(folder == nil ? "" : " written").\n" }
        var text = folder.map { "Wrote \(count) to \($0) (by \(split.key.rawValue)):\n" } ?? "Would write \(count) (by \(split.key.rawValue)):\n"
        let header = ["patch", split.key.rawValue, "files", "safe", "unsafe"]
        var rows = split.patches.map { patch in
            [patch.name, patch.owner, String(patch.files.count), String(patch.fixesByClass[.safe] ?? 0), String(patch.fixesByClass[.unsafe] ?? 0)]
        }
        let total = { (clazz: FixClass) in split.patches.reduce(0) { $0 + ($1.fixesByClass[clazz] ?? 0) } }
        rows.append(["total", "", String(split.patches.reduce(0) { $0 + $1.files.count }), String(total(.safe)), String(total(.unsafe))])
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.indices.map { column -> String in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return column < 2 ? row[column] + padding : padding + row[column]
            }
            text += cells.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }
        return text
    }
}
