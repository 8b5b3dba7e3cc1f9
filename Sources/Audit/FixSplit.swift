import AuditFix
import AuditHistory
import AuditModel
import AuditProject
import Foundation

/// What `fix --split-by` cuts the fix by.
public enum FixSplitKey: String, CaseIterable, Sendable {
    /// The code owners of each file (CODEOWNERS; the last matching line wins).
    case owner
    /// The module of each file in the project model (a package target, an Xcode project, a project folder).
    case module
    /// The first folder of each file's path in the repository.
    case folder
}

/// A fix cut into patches: each file's diff (the one `fix --dry-run` prints) in exactly one patch, so
/// each patch applies alone to the base and all of them together are the whole fix.
public struct FixSplit {
    public struct Patch: Equatable {
        /// The patch's file name: the owner, file-name-safe (`shopfront-payments.patch`), numbered
        /// when `--max-files` cuts it (`shopfront-payments-2.patch`).
        public var name: String
        /// Whose it is, as written: `@org/team`, several owners joined by a space, `(no owner)`, a
        /// module's name or `(no module)`, a folder or `(top level)`.
        public var owner: String
        /// The files it changes, as `fix` names them (relative to the current folder).
        public var files: [String]
        /// The fixes it applies, by class (`safe`, `unsafe`): each a finding of the scan the fix removed.
        public var fixesByClass: [FixClass: Int]
        /// The unified diff, `git apply`'s and `patch -p1`'s input from where loadaudit ran.
        public var text: String
    }

    public var key: FixSplitKey
    public var patches: [Patch]
    /// What the run has to say besides (CODEOWNERS lines skipped).
    public var warnings: [String]
    /// The folder owners and folders are read from: the repository's work tree (else the project
    /// root, else the current folder).
    public var root: String
    /// The CODEOWNERS file read, relative to `root` (`--split-by owner`).
    public var codeOwnersFile: String?
}

extension Audit {
    /// Cuts a fix's plan into patches by `key`; with `maxFiles`, a group of more files is cut into
    /// numbered patches of at most that many. Throws (one line) when owners are asked for and there is
    /// no CODEOWNERS.
    public func split(_ plan: FixPlanner.Plan, paths: [String], by key: FixSplitKey, maxFiles: Int? = nil) throws -> FixSplit {
        let start = URL(fileURLWithPath: setup.absolute(paths.first ?? ".")).standardizedFileURL.path
        let repository = Self.repositoryRoot(above: start)
        var root = repository ?? projectRoot(for: paths) ?? URL(fileURLWithPath: setup.currentDirectory).standardizedFileURL.path
        var warnings: [String] = []
        var codeOwners: CodeOwners?
        if key == .owner {
            // Outside a repository, the nearest folder above with a CODEOWNERS in one of its places.
            if repository == nil, let folder = Self.folder(above: start, where: { CodeOwners.load(top: $0) != nil }) { root = folder }
            guard let owners = CodeOwners.load(top: root) else {
                throw AuditError("\(root): no CODEOWNERS (looked for .github/CODEOWNERS, CODEOWNERS and docs/CODEOWNERS) for --split-by owner")
            }
            codeOwners = owners
            warnings = owners.problems
        }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        /// The path from `root`, nil for a file outside it.
        func relative(_ file: FixPlanner.FileResult) -> String? {
            let path = URL(fileURLWithPath: file.absolutePath).standardizedFileURL.path
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
        }
        func group(of file: FixPlanner.FileResult) -> (owner: String, name: String) {
            switch key {
            case .owner:
                // A file outside the repository has no owner there.
                guard let path = relative(file), let codeOwners, let owners = codeOwners.owners(of: path), !owners.isEmpty else {
                    return (CodeOwners.noOwner, "unowned")
                }
                return (codeOwners.group(of: path), owners.map { Self.fileNameSafe($0) }.joined(separator: "+"))
            case .module:
                guard let model = plan.model, let module = model.module(of: file.file) ?? model.module(containing: file.absolutePath) else {
                    return ("(no module)", "no-module")
                }
                let name = model.modules[module].name
                return (name, Self.fileNameSafe(name))
            case .folder:
                guard let path = relative(file), let slash = path.firstIndex(of: "/") else { return ("(top level)", "top-level") }
                let folder = String(path[..<slash])
                return (folder, Self.fileNameSafe(folder))
            }
        }
        // The fixed files' patches, by group, in the plan's order.
        var groups: [(owner: String, name: String, files: [FixPlanner.FileResult])] = []
        var index: [String: Int] = [:]
        for file in plan.files where file.outcome == .fixed && file.fixed != file.original {
            let (owner, name) = group(of: file)
            if let at = index[owner] { groups[at].files.append(file) } else {
                index[owner] = groups.count
                groups.append((owner, name, [file]))
            }
        }
        // Two owners whose safe names agree (`@a/b` and `@a-b`) get distinct patches.
        var used: Set<String> = []
        var patches: [FixSplit.Patch] = []
        for group in groups.sorted(by: { ($0.name, $0.owner) < ($1.name, $1.owner) }) {
            var name = group.name
            var suffix = 2
            while used.contains(name) {
                name = "\(group.name)_\(suffix)"
                suffix += 1
            }
            used.insert(name)
            let size = max(1, maxFiles ?? group.files.count)
            let parts = stride(from: 0, to: group.files.count, by: size).map { Array(group.files[$0..<min($0 + size, group.files.count)]) }
            for (number, files) in parts.enumerated() {
                let patchName = parts.count == 1 ? name + ".patch" : "\(name)-\(number + 1).patch"
                patches.append(FixSplit.Patch(name: patchName, owner: group.owner, files: files.map(\.file),
                                              fixesByClass: Self.fixesByClass(files, plan: plan), text: files.compactMap(Self.diff).joined()))
            }
        }
        return FixSplit(key: key, patches: patches, warnings: warnings, root: root, codeOwnersFile: codeOwners?.file)
    }

    /// A fixed file's diff, exactly as `fix --dry-run` prints it (without colour).
    static func diff(_ file: FixPlanner.FileResult) -> String? {
        UnifiedDiff.make(path: file.file, old: file.original, new: file.fixed, applied: file.applied)
    }

    /// The scan's findings in `files` that the fix applied (of a class the fix applies, with edits)
    /// and left no more, by class.
    static func fixesByClass(_ files: [FixPlanner.FileResult], plan: FixPlanner.Plan) -> [FixClass: Int] {
        let names = Set(files.map(\.file))
        let applicable = { (finding: Finding) in names.contains(finding.file) && finding.fix != .manual && !finding.edits.isEmpty }
        var counts: [FixClass: Int] = [:]
        for finding in plan.scan.findings where applicable(finding) { counts[finding.fix, default: 0] += 1 }
        for left in plan.left where applicable(left.finding) { counts[left.finding.fix, default: 0] -= 1 }
        return counts.filter { $0.value > 0 }
    }

    /// An owner's, module's or folder's name as a file name: letters, digits, `.`, `_` and `-` kept,
    /// a leading `@` or `.` dropped, every other run of characters one `-`.
    static func fileNameSafe(_ text: String) -> String {
        var name = ""
        for character in text.drop(while: { $0 == "@" || $0 == "." }) {
            if character.isASCII, character.isLetter || character.isNumber || "._-".contains(character) {
                name.append(character)
            } else if !name.hasSuffix("-") {
                name.append("-")
            }
        }
        while name.hasSuffix("-") { name.removeLast() }
        return name.isEmpty ? "patch" : name
    }

    /// The nearest folder at or above `path` holding `.git` (a folder, or a file in a linked work tree).
    static func repositoryRoot(above path: String) -> String? {
        folder(above: path) { FileManager.default.fileExists(atPath: $0 + "/.git") }
    }

    static func folder(above path: String, where test: (String) -> Bool) -> String? {
        var isDirectory: ObjCBool = false
        var folder = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? path : (path as NSString).deletingLastPathComponent
        while true {
            if test(folder) { return folder }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return nil }
            folder = parent
        }
    }
}
