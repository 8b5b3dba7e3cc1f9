import AuditGit
import AuditModel
import AuditProject
import CFolderEntries
import Foundation

/// A Swift file to scan: where it is, and the path reports show for it.
public struct SourceFileReference: Hashable, Sendable {
    public let absolutePath: String
    public let displayPath: String
}

/// A path given on the command line that cannot be scanned at all: the run stops (exit 2).
public struct InputPathError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { "\(path): \(problem)" }
}

/// Finds the Swift files under the given paths. Skips build products and dependency folders, honours
/// `.gitignore` inside a git work tree, follows symbolic links but never loops.
public struct SourceDiscovery {
    /// Folders that hold build products or other people's code, never the app's own sources (and, by
    /// their suffix, `skippedFolderSuffixes`).
    public static let skippedFolderNames: Set<String> = [".git", "Pods", "Carthage", "DerivedData", ".swiftpm", "SourcePackages"]

    /// The suffixes of the bundle folders Xcode keeps its own data in, which hold no compiled Swift: asset
    /// catalogs (`.imageset`, `.colorset`, `.appiconset` folders, a few thousand in a large app; SwiftPM
    /// treats an `.xcassets` as one opaque resource too) and the project and workspace bundles (an
    /// `.xcodeproj`'s `project.pbxproj`, `xcshareddata`, `xcuserdata`). The walk notes the bundle itself
    /// in its parent (an `.xcodeproj` names a module) but never reads inside: no entry in one is a project
    /// marker (`project.xcworkspace` is named as none), and `ProjectFolders.fromPaths` stops at the
    /// project bundles as well. `.lproj` folders are walked: SwiftPM compiles a `.swift` file inside one.
    public static let skippedFolderSuffixes = [".xcassets", ".xcodeproj", ".xcworkspace"]

    public static func isSkippedFolder(_ name: String) -> Bool {
        skippedFolderNames.contains(name) || name.hasPrefix(".build") || skippedFolderSuffixes.contains { name.hasSuffix($0) }
    }

    public let currentDirectory: String
    public let honourGitignore: Bool
    /// Decides about each walked file (absolute path): the configuration's include and exclude globs.
    /// Files named on the command line are not asked.
    public let admits: @Sendable (String) -> Bool
    /// During a walk of the project around the scanned folders: the project folder (see `display`).
    private var namingRoot: String?

    public init(
        currentDirectory: String = FileManager.default.currentDirectoryPath, honourGitignore: Bool = true,
        admits: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        self.currentDirectory = currentDirectory
        self.honourGitignore = honourGitignore
        self.admits = admits
    }

    public struct Result {
        public var files: [SourceFileReference] = []
        public var problems: [FileProblem] = []
        /// The folders the walk found that make a project (`Package.swift`, an `.xcodeproj`, a `.git`,
        /// ...): what the project model finds modules from.
        public var projectFolders = ProjectFolders()
        /// The folders walked (absolute), and the folders of the files named.
        public var roots: [String] = []
    }

    /// The paths given, checked: each exists and is readable (or the run stops).
    public struct Inputs: Sendable {
        /// For a folder, also what `.gitignore` leaves out below it.
        fileprivate let resolved: [(given: String, absolute: String, isDirectory: Bool, ignored: Set<String>)]
        /// Reports show paths relative to this folder.
        public let base: String
        /// When the walk covers the project around the paths asked for: those paths (folders or files). Files
        /// outside them are read for the project's facts only.
        fileprivate var scope: [String]?
        /// The project folder then: its files outside `base` are named from `base` with `../`.
        fileprivate var root: String?

        /// Whether a walked file (absolute path) is one of the paths asked for, or under one.
        public func isInScope(_ absolutePath: String) -> Bool {
            guard let scope else { return true }
            return scope.contains { absolutePath == $0 || absolutePath.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }

        /// The files named (absolute paths), not walked to: a walk of a folder holding one reaches it again.
        var namedFiles: Set<String> { Set(resolved.lazy.filter { !$0.isDirectory }.map(\.absolute)) }

        /// Whether `path` (absolute) is below the project folder walked around the paths asked for.
        func isInsideRoot(_ path: String) -> Bool {
            guard let root else { return false }
            return path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }

        /// The absolute path behind a display path of this walk.
        public func absolutePath(ofDisplayed path: String) -> String {
            path.hasPrefix("/") ? path : URL(fileURLWithPath: (base.hasSuffix("/") ? base : base + "/") + path).standardizedFileURL.path
        }
    }

    /// The inputs for a scan of the folders `paths` inside the project folder `root`: the whole project
    /// is walked, so that facts from every file count (an own `ProgressView` declared elsewhere, a
    /// re-export), while reports name files as a scan of `paths` does and keep to them
    /// (`Inputs.isInScope`). A file named is judged as the walk of the project judges it: the
    /// project's files are read for their facts, and the file is read too when the walk would pass it
    /// by (named files are scanned whatever ignores them). Nil when that does not apply: a path not
    /// inside `root`, or `root` itself among them.
    public func resolve(_ paths: [String], within root: String) throws -> Inputs? {
        let rootPath = absolutePath(root)
        // Decided on the paths alone, before `resolve` asks git what `.gitignore` leaves out (a process
        // of ten milliseconds and more before the walk can start): when this is nil the caller resolves
        // the same paths again, and a scan of the project folder itself asked git twice.
        let folders = (paths.isEmpty ? ["."] : paths).map(absolutePath)
        guard !folders.contains(rootPath),
              folders.allSatisfy({ $0.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/") }) else { return nil }
        var requested = try resolve(paths)
        let walked = try resolve([root])
        // A folder asked for that the walk of the project never enters (a skipped name such as `Pods`, or
        // what `.gitignore` ignores) is walked on its own: a path named on the command line is scanned
        // (its own ignore rules apply below it, see `GitIgnored.paths`). A file named is always read on
        // its own as well: where the walk reaches it too, it counts once (`FileIdentity`).
        let projectIgnored = walked.resolved.first?.ignored ?? []
        let leftOut = requested.resolved.filter { !$0.isDirectory || Self.isLeftOut($0.absolute, byWalkOf: rootPath, ignoring: projectIgnored) }
        requested = Inputs(resolved: walked.resolved + leftOut, base: requested.base, scope: folders, root: rootPath)
        return requested
    }

    /// Whether the walk of `root` (with what `.gitignore` ignores there) passes by `folder`, a folder
    /// below it: one of the folders on the way is skipped by its name or ignored.
    static func isLeftOut(_ folder: String, byWalkOf root: String, ignoring ignored: Set<String>) -> Bool {
        let names = folder.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1).split(separator: "/")
        var relative = ""
        for name in names {
            relative += name + "/"
            if isSkippedFolder(String(name)) || ignored.contains(relative) { return true }
        }
        return false
    }

    /// The files under `paths`, each once, sorted by display path (the order of every report).
    public func discover(_ paths: [String]) throws -> Result {
        var result = try walk(resolve(paths))
        let first = FileIdentity.firstOfEach(result.files.map { FileIdentity(path: $0.absolutePath) })
        result.files = result.files.indices.filter { first[$0] }.map { result.files[$0] }
        result.files.sort(by: Self.inReportOrder)
        return result
    }

    /// Checks the given paths (none: the current folder); throws for the first that cannot be scanned,
    /// and for a folder in a git work tree whose `.gitignore` git cannot read for us.
    public func resolve(_ paths: [String]) throws -> Inputs {
        let inputs = paths.isEmpty ? ["."] : paths
        var resolved: [(given: String, absolute: String, isDirectory: Bool, ignored: Set<String>)] = []
        for path in inputs {
            let absolute = absolutePath(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                throw InputPathError(path: path, problem: lstatExists(absolute) ? "broken symbolic link (or a link loop)" : "no such file or directory")
            }
            guard FileManager.default.isReadableFile(atPath: absolute) else {
                throw InputPathError(path: path, problem: "permission denied")
            }
            var ignored: Set<String> = []
            if isDirectory.boolValue, honourGitignore {
                do { ignored = try GitIgnored.paths(in: absolute) } catch let error as GitIgnored.Failure {
                    throw InputPathError(path: path, problem: "\(error.reason), so its .gitignore cannot be honoured (fix that, or scan with --no-gitignore)")
                }
            }
            resolved.append((path, absolute, isDirectory.boolValue, ignored))
        }
        // Every output names files relative to the current directory (as compilers, git and CI systems
        // do): a diff applies, and an annotation lands, from where loadaudit ran.
        let base = currentDirectory
        return Inputs(resolved: resolved, base: base, scope: nil, root: nil)
    }

    /// Walks the inputs. `found` is told of each file as the walk reaches it (folder by folder, for
    /// work that need not wait for the whole tree); the result lists them in that order too. A file
    /// reached twice (through a link, or named too) is listed twice: telling it costs a `stat` of
    /// every file, which the scanner has for free from the descriptor it reads through (the first in
    /// walk order counts, see `FileIdentity`).
    public func walk(_ inputs: Inputs, found: ((SourceFileReference) -> Void)? = nil) -> Result {
        guard inputs.root == nil || namingRoot == inputs.root else {
            var naming = self
            naming.namingRoot = inputs.root
            return naming.walk(inputs, found: found)
        }
        let base = inputs.base
        var result = Result()
        for input in inputs.resolved {
            // A file named within the project walked (`inputs.root`) is in the folders the walk found:
            // its own folder is not made a scanned folder (a module of its own).
            if input.isDirectory || !inputs.isInsideRoot(input.absolute) {
                result.roots.append(input.isDirectory ? input.absolute : (input.absolute as NSString).deletingLastPathComponent)
            }
            if input.isDirectory {
                walk(directory: input.absolute, relative: "", identity: nil, ancestors: [], ignored: input.ignored, base: base, into: &result, found: found)
            } else {
                // A file named explicitly is scanned whatever its name or ignore status.
                add(input.absolute, base: base, into: &result, found: found)
            }
        }
        return result
    }

    /// By display path, byte by byte: the order of files in every report.
    public static func inReportOrder(_ first: SourceFileReference, _ second: SourceFileReference) -> Bool {
        first.displayPath.precedesInUTF8(second.displayPath)
    }

    /// A file's device and inode: the same file, whatever the path it is reached by.
    struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }

        init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        /// The identity of what `path` leads to; nil when it cannot be asked.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// Which of the files with these identities, in walk order, count: the first of each
        /// identity, and every file whose identity is unknown.
        static func firstOfEach(_ identities: [FileIdentity?]) -> [Bool] {
            // Open addressing in a table at least twice the count: a `Set` of a large tree's identities,
            // grown step by step and hashed with SipHash, took most of a millisecond on the thread the
            // end of a scan waits for.
            var capacity = 16
            while capacity < 2 * identities.count { capacity <<= 1 }
            let mask = capacity - 1, shift = UInt64(64 - capacity.trailingZeroBitCount)
            var slots = [FileIdentity?](repeating: nil, count: capacity)
            return identities.map { identity in
                guard let identity else { return true }
                // The top bits of a multiplicative hash.
                var slot = Int(truncatingIfNeeded: ((identity.inode ^ (identity.device &<< 40)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
                while let taken = slots[slot] {
                    if taken == identity { return false }
                    slot = (slot + 1) & mask
                }
                slots[slot] = identity
                return true
            }
        }
    }

    /// A folder's entries with the type the kernel gives (`DT_UNKNOWN` on file systems that do not
    /// say), in byte order of their names with a `/` after each folder's: the order in which their
    /// paths sort (`A-B.swift`, `A.swift`, `A/B.swift`), so that the walk finds a tree's files in
    /// report order and sorting them costs one look at each. Regular files that are not Swift are
    /// left out. With `identifying`, also the folder's identity, asked of the descriptor the entries
    /// are read through (`fstat`: no walk of the path, as a `stat` of it costs). Nil when the folder
    /// cannot be read. On Linux, read by `CFolderEntries` (open, fstat, getdents64, close: `opendir`
    /// makes an `fstat` of its own besides), elsewhere by `entriesByReaddir`; `FolderEntriesTests`
    /// compares the two.
    static func entries(of directory: String, identifying: Bool) -> (entries: [(name: String, type: UInt8)], identity: FileIdentity?)? {
        var folder = loadaudit_folder()
        switch loadaudit_folder_read(directory, identifying ? 1 : 0, &folder) {
        case 0:
            return nil
        case 1:
            defer { loadaudit_folder_free(&folder) }
            var list = EntryList()
            var offset = 0
            var name: UnsafePointer<CChar>?
            var type: UInt8 = 0
            while true {
                offset = loadaudit_folder_entry(&folder, offset, &name, &type)
                guard offset >= 0, let name else { break }
                list.add(name, type: type)
            }
            return (list.sorted(), folder.identified != 0 ? FileIdentity(device: folder.device, inode: folder.inode) : nil)
        default:
            return entriesByReaddir(of: directory, identifying: identifying)
        }
    }

    /// `entries(of:identifying:)` by `opendir` and `readdir`: where `CFolderEntries` is not built.
    static func entriesByReaddir(of directory: String, identifying: Bool) -> (entries: [(name: String, type: UInt8)], identity: FileIdentity?)? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var identity: FileIdentity?
        if identifying {
            var info = stat()
            if fstat(dirfd(handle), &info) == 0 { identity = FileIdentity(info) }
        }
        var list = EntryList()
        while let entry = readdir(handle) {
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                list.add(raw.baseAddress!.assumingMemoryBound(to: CChar.self), type: entry.pointee.d_type)
            }
        }
        return (list.sorted(), identity)
    }

    /// A folder's entries as they are read: the names, each NUL-terminated (a folder's with its `/`),
    /// in one buffer, sorted as C strings: sorting `String`s retained and released both at every
    /// comparison, and made a `String` of every entry, the folder's images and data files too.
    struct EntryList {
        private var names: [UInt8] = []
        private var entries: [(start: Int, type: UInt8)] = []

        /// Keeps an entry unless it is `.`, `..` or a regular file neither Swift nor a project marker.
        mutating func add(_ name: UnsafePointer<CChar>, type: UInt8) {
            let start = names.count
            names.append(contentsOf: UnsafeRawBufferPointer(start: name, count: strlen(name)))
            let length = names.count - start
            let isDots = length > 0 && names[start] == UInt8(ascii: ".") && (length == 1 || (length == 2 && names[start + 1] == UInt8(ascii: ".")))
            if length == 0 || isDots || (type == UInt8(DT_REG) && !SourceDiscovery.endsInSwift(names, from: start) && !SourceDiscovery.isMarkerName(names, from: start)) {
                names.removeLast(length)
                return
            }
            if type == UInt8(DT_DIR) { names.append(UInt8(ascii: "/")) }
            names.append(0)
            entries.append((start, type))
        }

        /// In byte order of the names (a folder's with its `/`), without the `/`.
        func sorted() -> [(name: String, type: UInt8)] {
            guard !entries.isEmpty else { return [] }
            var entries = entries
            return names.withUnsafeBufferPointer { buffer in
                let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                entries.sort { strcmp(base + $0.start, base + $1.start) < 0 }
                return entries.map { entry in
                    var end = entry.start
                    while buffer[end] != 0 { end += 1 }
                    if entry.type == UInt8(DT_DIR) { end -= 1 }
                    return (String(decoding: buffer[entry.start..<end], as: UTF8.self), entry.type)
                }
            }
        }
    }

    /// Whether the name from `start` to the end of `names` ends in `.swift`.
    fileprivate static func endsInSwift(_ names: [UInt8], from start: Int) -> Bool {
        guard names.count - start >= swiftSuffix.count else { return false }
        return names[(names.count - swiftSuffix.count)...].elementsEqual(swiftSuffix)
    }

    private static let swiftSuffix = Array(".swift".utf8)

    /// Whether the name from `start` to the end of `names` is a file that makes its folder a project
    /// (`.loadaudit.yml`, `project.yml`, a `.git` file): kept for the project model.
    fileprivate static func isMarkerName(_ names: [UInt8], from start: Int) -> Bool {
        let length = names.count - start
        guard length <= 16, let first = names[start...].first, first == UInt8(ascii: ".") || first == UInt8(ascii: "p") else { return false }
        return ProjectMarkers.isMarkerFileName(String(decoding: names[start...], as: UTF8.self))
    }

    /// Walks with `readdir`'s entry types, so that most entries cost no `stat`: only links and entries
    /// of unknown type are asked about. A folder's identity (which finds link loops: `ancestors` are
    /// the folders above, by identity) is the `stat` of the link that led to it when one did
    /// (`identity`), else asked of the descriptor its entries are read through, where the loop check
    /// is made too (a folder reached by its own name can only loop through a bind mount). The walk
    /// runs beside the scan's workers, on one of the same cores, and a large tree has hundreds of
    /// thousands of entries.
    private func walk(
        directory: String, relative: String, identity: FileIdentity?, ancestors: [FileIdentity], ignored: Set<String>, base: String,
        into result: inout Result, found: ((SourceFileReference) -> Void)?
    ) {
        guard let (entries, opened) = Self.entries(of: directory, identifying: identity == nil) else {
            result.problems.append(FileProblem(file: display(directory, base: base), kind: .unreadable, detail: "cannot read the folder (permission denied?)"))
            return
        }
        var ancestors = ancestors
        if identity == nil, let opened, ancestors.contains(opened) {
            result.problems.append(FileProblem(file: display(directory, base: base), kind: .symlinkLoop,
                                               detail: "symbolic link loop (points back to \(display(realPath(directory), base: base))): skipped"))
            return
        }
        if let known = identity ?? opened { ancestors.append(known) }
        for (name, type) in entries {
            let isSwift = name.hasSuffix(".swift")
            if type == UInt8(DT_REG) {
                if !isSwift || name == "Package.swift" || name == "Project.swift" || name == "Workspace.swift" {
                    result.projectFolders.note(entryNamed: name, isFolder: false, in: directory)
                }
                if !isSwift { continue }
            }
            let path = directory + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            if type == UInt8(DT_REG) {
                addIfAdmitted(path, relativePath: relativePath, ignored: ignored, base: base, into: &result, found: found)
                continue
            }
            if type == UInt8(DT_DIR) {
                result.projectFolders.note(entryNamed: name, isFolder: true, in: directory)
                // Passed by on its name, before any call about it; its identity is asked where it is opened.
                if Self.isSkippedFolder(name) || ignored.contains(relativePath + "/") { continue }
                walk(directory: path, relative: relativePath, identity: nil, ancestors: ancestors, ignored: ignored, base: base,
                     into: &result, found: found)
                continue
            }
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            var isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            let isLink = (info.st_mode & S_IFMT) == S_IFLNK
            if isLink {
                var targetInfo = stat()
                if stat(path, &targetInfo) != 0 {
                    if errno == ELOOP {
                        result.problems.append(FileProblem(file: display(path, base: base), kind: .symlinkLoop, detail: "symbolic link loop: skipped"))
                    } else if isSwift {
                        result.problems.append(FileProblem(file: display(path, base: base), kind: .unreadable, detail: "broken symbolic link: skipped"))
                    }
                    continue
                }
                isDirectory = (targetInfo.st_mode & S_IFMT) == S_IFDIR
                info = targetInfo
            }
            let target = FileIdentity(info)
            result.projectFolders.note(entryNamed: name, isFolder: isDirectory, in: directory)
            if isDirectory {
                if Self.isSkippedFolder(name) || ignored.contains(relativePath + "/") { continue }
                if ancestors.contains(target) {
                    result.problems.append(FileProblem(file: display(path, base: base), kind: .symlinkLoop,
                                                       detail: "symbolic link loop (points back to \(display(realPath(path), base: base))): skipped"))
                    continue
                }
                walk(directory: path, relative: relativePath, identity: target, ancestors: ancestors, ignored: ignored, base: base,
                     into: &result, found: found)
            } else if isSwift {
                addIfAdmitted(path, relativePath: relativePath, ignored: ignored, base: base, into: &result, found: found)
            }
        }
    }

    /// A walked Swift file counts unless `.gitignore` or the configuration leaves it out.
    private func addIfAdmitted(
        _ path: String, relativePath: String, ignored: Set<String>, base: String, into result: inout Result, found: ((SourceFileReference) -> Void)?
    ) {
        if !ignored.contains(relativePath), admits(path) { add(path, base: base, into: &result, found: found) }
    }

    private func add(_ path: String, base: String, into result: inout Result, found: ((SourceFileReference) -> Void)?) {
        let file = SourceFileReference(absolutePath: path, displayPath: display(path, base: base))
        result.files.append(file)
        found?(file)
    }

    public func absolutePath(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }

    private func display(_ absolute: String, base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        if absolute.hasPrefix(prefix) { return String(absolute.dropFirst(prefix.count)) }
        if absolute == base { return "." }
        // A file of the project outside the scanned folder: from it, with `../` (`../Legacy/A.swift`).
        if let namingRoot, absolute.hasPrefix(namingRoot.hasSuffix("/") ? namingRoot : namingRoot + "/") {
            let from = base.split(separator: "/"), to = absolute.split(separator: "/")
            let shared = zip(from, to).prefix { $0 == $1 }.count
            return (Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared).map(String.init)).joined(separator: "/")
        }
        return absolute
    }

    private func lstatExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
