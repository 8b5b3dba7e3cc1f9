// AuditProject: the project model: which Swift module each file belongs to, what each module
// declares and re-exports, and which modules a file can see through its imports. It owns how modules
// are found (SwiftPM targets from the manifests, an Xcode project's folder, else the project folder)
// and the one answer to "whose name is this?" that every rule asks. Plain data: it must not parse,
// read files or know about rules; the scanner hands it the walk's marker folders and the engine's
// per-file facts (docs/project-model.md).

import AuditModel

/// A SwiftPM manifest as read from its syntax tree (never run): the targets it declares with a literal
/// name, and their `path:` when given.
public struct PackageManifest: Sendable, Codable, Equatable {
    public struct Target: Sendable, Codable, Equatable {
        public enum Kind: String, Sendable, Codable {
            case regular, executable, test, macro, plugin, system, binary
        }

        public let name: String
        public let kind: Kind
        /// `path:`, relative to the package's folder.
        public let path: String?

        public init(name: String, kind: Kind, path: String?) {
            self.name = name
            self.kind = kind
            self.path = path
        }

        /// The folders SwiftPM looks in when no `path:` is given, relative to the package.
        var conventionalFolders: [String] {
            switch kind {
            case .test: return ["Tests/\(name)"]
            case .plugin: return ["Plugins/\(name)"]
            case .binary, .system: return []
            default: return ["Sources", "Source", "src", "srcs"].map { "\($0)/\(name)" }
            }
        }
    }

    public var targets: [Target]

    public init(targets: [Target]) { self.targets = targets }
}

/// What the walk saw in a folder that makes it a project: its kinds (a folder can be several).
public struct ProjectMarkers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `.git` (a work tree's root).
    public static let gitRoot = ProjectMarkers(rawValue: 1)
    /// `.loadaudit.yml`.
    public static let config = ProjectMarkers(rawValue: 2)
    /// An `.xcodeproj` (its name is kept apart: `ProjectFolders.xcodeProjects`).
    public static let xcodeProject = ProjectMarkers(rawValue: 4)
    /// An `.xcworkspace`.
    public static let xcodeWorkspace = ProjectMarkers(rawValue: 8)
    /// `Package.swift`.
    public static let package = ProjectMarkers(rawValue: 16)
    /// A project generator's spec: XcodeGen's `project.yml`, Tuist's `Project.swift` or `Workspace.swift`.
    public static let generatorSpec = ProjectMarkers(rawValue: 32)

    /// The marker an entry of a folder makes, by its name (nil for most).
    public static func of(entryNamed name: String, isFolder: Bool) -> (ProjectMarkers, xcodeProject: String?)? {
        if isFolder {
            if name.hasSuffix(".xcodeproj"), name.count > 10 { return (.xcodeProject, String(name.dropLast(10))) }
            if name.hasSuffix(".xcworkspace"), name.count > 12, name != "project.xcworkspace" { return (.xcodeWorkspace, nil) }
            if name == ".git" { return (.gitRoot, nil) }
            return nil
        }
        switch name {
        case ".git": return (.gitRoot, nil)  // a worktree's or submodule's `.git` file
        case ".loadaudit.yml": return (.config, nil)
        case "Package.swift": return (.package, nil)
        case "project.yml", "project.yaml", "Project.swift", "Workspace.swift": return (.generatorSpec, nil)
        default: return nil
        }
    }

    /// Whether a file's name alone makes its folder a project (`entries(of:)` keeps such files).
    public static func isMarkerFileName(_ name: String) -> Bool { of(entryNamed: name, isFolder: false) != nil }
}

/// The project folders a walk found: each folder (absolute, no trailing `/`) with its markers, and
/// the names of the Xcode projects in it.
public struct ProjectFolders: Sendable {
    public private(set) var markers: [String: ProjectMarkers] = [:]
    public private(set) var xcodeProjects: [String: [String]] = [:]

    public init() {}

    public mutating func note(entryNamed name: String, isFolder: Bool, in folder: String) {
        guard let (marker, project) = ProjectMarkers.of(entryNamed: name, isFolder: isFolder) else { return }
        markers[folder, default: []].insert(marker)
        if let project { xcodeProjects[folder, default: []].append(project) }
    }

    public mutating func merge(_ other: ProjectFolders) {
        markers.merge(other.markers) { $0.union($1) }
        xcodeProjects.merge(other.xcodeProjects) { $0 + $1 }
    }

    /// The markers of a repository listed by paths (`git ls-tree`, relative to `root`): the folders of
    /// its `Package.swift`, `.loadaudit.yml`, `project.yml`, ..., and of every `.xcodeproj` a path goes through.
    public static func fromPaths(_ paths: [String], root: String) -> ProjectFolders {
        var folders = ProjectFolders()
        folders.markers[root, default: []].insert(.gitRoot)
        for path in paths {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            var folder = root
            for (index, part) in parts.enumerated() {
                let isLast = index == parts.count - 1
                folders.note(entryNamed: String(part), isFolder: !isLast, in: folder)
                if !isLast, part.hasSuffix(".xcodeproj") || part.hasSuffix(".xcworkspace") { break }
                folder += "/" + part
            }
        }
        for (folder, names) in folders.xcodeProjects { folders.xcodeProjects[folder] = Array(Set(names)).sorted() }
        return folders
    }
}

/// A Swift module of the scanned tree.
public struct SwiftModule: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A target of a `Package.swift`: exactly one module.
        case packageTarget = "package target"
        /// The folder of an `.xcodeproj`: its targets are not told apart (they share the folder).
        case xcodeProject = "Xcode project"
        /// A project folder with neither (a git work tree, a `.loadaudit.yml`'s folder, the scanned folder).
        case folder

        /// Whether the module may hold several real ones (an Xcode project's app, widget and tests).
        public var isApproximate: Bool { self != .packageTarget }
    }

    public let name: String
    public let kind: Kind
    /// Absolute, without a trailing `/`.
    public let folder: String
    /// The outermost project folder around it: imports are resolved among the modules of one workspace.
    public let workspace: String
}

/// What one file tells the model: what it imports and re-exports, and the names it declares.
public struct ModuleFileFacts: Sendable {
    public var imports: Set<String>
    public var exportedImports: Set<String>
    /// Top-level types (not extensions).
    public var declaredTypes: Set<String>
    /// Types the file extends at the top level.
    public var extendedTypes: Set<String>
    /// Top-level functions and variables, and the members of top-level extensions.
    public var declaredMembers: Set<String>
    /// The declared types that are SwiftUI views (`struct X: View`).
    public var viewTypes: Set<String>
    /// The declared types whose declaration did not parse whole: of no known kind.
    public var unsureTypes: Set<String>

    public init(imports: Set<String> = [], exportedImports: Set<String> = [], declaredTypes: Set<String> = [],
                extendedTypes: Set<String> = [], declaredMembers: Set<String> = [], viewTypes: Set<String> = [],
                unsureTypes: Set<String> = []) {
        self.viewTypes = viewTypes
        self.unsureTypes = unsureTypes
        self.imports = imports
        self.exportedImports = exportedImports
        self.declaredTypes = declaredTypes
        self.extendedTypes = extendedTypes
        self.declaredMembers = declaredMembers
    }
}

/// The modules of a scanned tree, each file's module, what each module declares and re-exports, and
/// the modules a file sees. Built once per scan; immutable, shared by every thread.
public struct ProjectModel: Sendable {
    public let modules: [SwiftModule]
    /// By a file's display path.
    private let moduleOfFile: [String: Int]
    /// Each module's folder (absolute), to find the module of any path.
    private let moduleAtFolder: [String: Int]
    /// Per module: the modules its files re-export (`@_exported import`), by name.
    private let exports: [Set<String>]
    /// Per workspace: the modules of each name.
    private let modulesByName: [String: [String: [Int]]]
    /// Who declares a name: the modules, with each declaring file and that file's imports.
    public let declarations: [String: [Declaration]]
    /// Per module: the types it extends at the top level.
    public let extendedTypes: [Set<String>]

    public struct Declaration: Sendable, Equatable {
        public let module: Int
        public let file: String
        public let imports: Set<String>
        /// A type (else a function, a variable or an extension's member).
        public let isType: Bool
        /// A SwiftUI view (`struct X: View`): the kind a component rule means.
        public var isView: Bool = false
        /// Its declaration did not parse whole: its kind is unknown.
        public var isUnsure: Bool = false
    }

    /// A file of the tree: its path as reports show it, and where it is.
    public struct File: Sendable {
        public let displayPath: String
        public let absolutePath: String

        public init(displayPath: String, absolutePath: String) {
            self.displayPath = displayPath
            self.absolutePath = absolutePath
        }
    }

    /// The model of the files under `roots` (the walked folders, absolute), from the walk's project
    /// folders, the manifests (by the folder of their `Package.swift`) and the facts of the files that
    /// matter (`files`, with `facts` by display path): the files the scan parsed. A file it did not parse
    /// can hold no finding and declares nothing a rule asks about, so it needs no module (which keeps
    /// the model's cost to the few files parsed, not the thousands read).
    public init(roots: [String], files: [File], folders: ProjectFolders, manifests: [String: PackageManifest],
                facts: [String: ModuleFileFacts]) {
        let roots = roots.map(Self.trimmed)
        var modules: [SwiftModule] = []
        var moduleAtFolder: [String: Int] = [:]
        // The folders holding those files: where a target's folder is one of several SwiftPM looks in,
        // the one that holds them.
        var filesByFolder: Set<String> = []
        for file in files {
            var folder = Self.parent(of: file.absolutePath)
            while !folder.isEmpty, filesByFolder.insert(folder).inserted { folder = Self.parent(of: folder) }
        }
        let projectFolders = Set(folders.markers.keys).union(roots.filter { folders.markers[$0] != nil })
        // The outermost project folder on the way up from a folder to the first root (itself included),
        // by folder: the modules of a tree share their upper folders, each climbed once.
        var outermostOf: [String: String?] = [:]
        let rootSet = Set(roots)
        func outermost(from folder: String) -> String? {
            var chain: [String] = []
            var current = folder
            var above: String?
            while !current.isEmpty {
                if let known = outermostOf[current] {
                    above = known
                    break
                }
                chain.append(current)
                if rootSet.contains(current) { break }
                current = Self.parent(of: current)
            }
            for folder in chain.reversed() {
                if above == nil, projectFolders.contains(folder) { above = folder }
                outermostOf[folder] = .some(above)
            }
            return above
        }
        func workspace(of folder: String) -> String {
            outermost(from: folder) ?? roots.first(where: { Self.isInside(folder, $0) }) ?? folder
        }
        func add(_ name: String, _ kind: SwiftModule.Kind, _ folder: String) {
            guard moduleAtFolder[folder] == nil else { return }
            moduleAtFolder[folder] = modules.count
            modules.append(SwiftModule(name: name, kind: kind, folder: folder, workspace: workspace(of: folder)))
        }
        // Package targets first: where a target's folder is also a project's, the target is the module.
        for (package, manifest) in manifests.sorted(by: { $0.key < $1.key }) {
            for target in manifest.targets {
                let candidates = target.path.map { [$0] } ?? target.conventionalFolders
                let paths = candidates.map { Self.normalized(package + "/" + $0) }
                guard let folder = paths.first(where: { filesByFolder.contains($0) }) ?? paths.first else { continue }
                add(target.name, .packageTarget, folder)
            }
        }
        for (folder, names) in folders.xcodeProjects.sorted(by: { $0.key < $1.key }) {
            add(names.sorted()[0], .xcodeProject, folder)
        }
        // The project folders that are neither, and the walked folders: the rest of their files. (A
        // package inside a project, such as an app's local package, leaves its manifest and other
        // files outside its targets to the project around it.)
        for folder in projectFolders.sorted() where moduleAtFolder[folder] == nil {
            if folders.markers[folder] == .package, workspace(of: folder) != folder { continue }
            add(Self.lastComponent(folder), .folder, folder)
        }
        for root in roots where moduleAtFolder[root] == nil { add(Self.lastComponent(root), .folder, root) }
        var moduleOfFile: [String: Int] = [:]
        for file in files {
            var folder = Self.parent(of: file.absolutePath)
            while !folder.isEmpty {
                if let module = moduleAtFolder[folder] {
                    moduleOfFile[file.displayPath] = module
                    break
                }
                folder = Self.parent(of: folder)
            }
        }
        var exports = [Set<String>](repeating: [], count: modules.count)
        var extended = [Set<String>](repeating: [], count: modules.count)
        var declarations: [String: [Declaration]] = [:]
        for (file, fileFacts) in facts.sorted(by: { $0.key < $1.key }) {
            guard let module = moduleOfFile[file] else { continue }
            exports[module].formUnion(fileFacts.exportedImports)
            extended[module].formUnion(fileFacts.extendedTypes)
            for name in fileFacts.declaredTypes {
                declarations[name, default: []].append(Declaration(module: module, file: file, imports: fileFacts.imports, isType: true,
                                                                   isView: fileFacts.viewTypes.contains(name), isUnsure: fileFacts.unsureTypes.contains(name)))
            }
            for name in fileFacts.declaredMembers {
                declarations[name, default: []].append(Declaration(module: module, file: file, imports: fileFacts.imports, isType: false))
            }
        }
        var byName: [String: [String: [Int]]] = [:]
        for (index, module) in modules.enumerated() { byName[module.workspace, default: [:]][module.name, default: []].append(index) }
        self.modules = modules
        self.moduleOfFile = moduleOfFile
        self.moduleAtFolder = moduleAtFolder
        self.exports = exports
        self.extendedTypes = extended
        self.modulesByName = byName
        self.declarations = declarations
    }

    /// Every file in one module, as if the files were an Xcode project's folder: for files known only
    /// by name (a rule's examples, tests of the engine).
    public static func singleModule(_ files: [(file: String, facts: ModuleFileFacts)]) -> ProjectModel {
        ProjectModel(singleModuleOf: files)
    }

    private init(singleModuleOf files: [(file: String, facts: ModuleFileFacts)]) {
        modules = [SwiftModule(name: "", kind: .folder, folder: "", workspace: "")]
        moduleOfFile = Dictionary(files.map { ($0.file, 0) }, uniquingKeysWith: { first, _ in first })
        moduleAtFolder = [:]
        var exports: Set<String> = [], extended: Set<String> = []
        var declarations: [String: [Declaration]] = [:]
        for (file, facts) in files.sorted(by: { $0.file < $1.file }) {
            exports.formUnion(facts.exportedImports)
            extended.formUnion(facts.extendedTypes)
            for name in facts.declaredTypes {
                declarations[name, default: []].append(Declaration(module: 0, file: file, imports: facts.imports, isType: true, isView: facts.viewTypes.contains(name),
                                                                   isUnsure: facts.unsureTypes.contains(name)))
            }
            for name in facts.declaredMembers { declarations[name, default: []].append(Declaration(module: 0, file: file, imports: facts.imports, isType: false)) }
        }
        self.exports = [exports]
        extendedTypes = [extended]
        modulesByName = ["": ["": [0]]]
        self.declarations = declarations
    }

    /// The modules named `name` in the workspace of `module` (what an `import` there means).
    public func modules(named name: String, inWorkspaceOf module: Int) -> [Int] {
        modulesByName[modules[module].workspace]?[name] ?? []
    }

    /// The modules a module's files re-export (`@_exported import`), by name.
    public func reExports(of module: Int) -> Set<String> { exports[module] }

    /// The module of a file (by display path), nil for a file the model was not built with.
    public func module(of file: String) -> Int? { moduleOfFile[file] }

    /// The module a file would be in, by its absolute path (for a file the model was not built with).
    public func module(containing absolutePath: String) -> Int? {
        module(inFolder: Self.parent(of: absolutePath))
    }

    /// `module(containing:)` of each path, each folder looked up once (the scan's follow-up asks it
    /// of every file left for later: thousands of files in a few hundred folders).
    /// Paths in report order mostly come folder by folder: a path directly in the folder of the one
    /// before it takes its module without a lookup.
    public func modules(containing absolutePaths: [String]) -> [Int?] {
        var byFolder: [String: Int?] = [:]
        var last: (folder: String, module: Int?)?
        return absolutePaths.map { path in
            if let last, Self.path(path, isDirectlyIn: last.folder) { return last.module }
            let folder = Self.parent(of: path)
            let module: Int?
            if let known = byFolder[folder] {
                module = known
            } else {
                module = self.module(inFolder: folder)
                byFolder[folder] = .some(module)
            }
            last = (folder, module)
            return module
        }
    }

    private func module(inFolder start: String) -> Int? {
        var folder = start
        while !folder.isEmpty {
            if let module = moduleAtFolder[folder] { return module }
            folder = Self.parent(of: folder)
        }
        return moduleAtFolder.isEmpty && !modules.isEmpty ? 0 : nil
    }

    /// The files of each module, for `syntax --project`.
    public var filesByModule: [Int: [String]] {
        var files: [Int: [String]] = [:]
        for (file, module) in moduleOfFile { files[module, default: []].append(file) }
        return files.mapValues { $0.sorted { $0.precedesInUTF8($1) } }
    }

    /// The modules of the tree named `name` that a file of `module` means by `import name`: those of its workspace.
    public func modules(named name: String, from module: Int) -> [Int] {
        modulesByName[modules[module].workspace]?[name] ?? []
    }

    /// Whether a module named `name` is part of the tree, seen from `module`'s workspace.
    public func isInTree(_ name: String, from module: Int) -> Bool { !modules(named: name, from: module).isEmpty }

    /// What a file sees: the tree's modules (its own, those it imports, and what they re-export) and
    /// the names of the modules outside the tree (SwiftUI, UIKit) it imports or is re-exported.
    public struct Visibility: Sendable, Equatable {
        public var modules: Set<Int> = []
        public var external: Set<String> = []

        /// Whether a module named `name` is seen (in the tree or not).
        public func sees(_ name: String, in model: ProjectModel) -> Bool {
            external.contains(name) || modules.contains { model.modules[$0].name == name }
        }
    }

    /// The modules a file of `module` with these imports sees. Its own module's re-exports count too
    /// (an `@_exported import` in one file serves the whole module).
    public func visibility(of module: Int, imports: Set<String>) -> Visibility {
        var seen = Visibility(modules: [module])
        var pending = Array(imports.union(exports[module]))
        var resolved: Set<String> = []
        while let name = pending.popLast() {
            guard resolved.insert(name).inserted else { continue }
            let found = modules(named: name, from: module)
            if found.isEmpty {
                seen.external.insert(name)
                continue
            }
            for other in found where seen.modules.insert(other).inserted { pending += exports[other] }
        }
        return seen
    }

    /// The visibility of a file by its display path; nil for a file outside the model.
    public func visibility(ofFile file: String, imports: Set<String>) -> Visibility? {
        module(of: file).map { visibility(of: $0, imports: imports) }
    }
}
