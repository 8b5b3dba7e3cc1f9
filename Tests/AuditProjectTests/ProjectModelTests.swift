@testable import AuditProject
import XCTest

/// How modules are found and what a file sees, on trees described by paths only.
final class ProjectModelTests: XCTestCase {
    /// A model of files (paths relative to `/r`), with the markers their folders hold.
    private func model(
        _ files: [String], markers: [String: [String]] = [:], manifests: [String: PackageManifest] = [:],
        facts: [String: ModuleFileFacts] = [:], roots: [String] = ["/r"]
    ) -> ProjectModel {
        var folders = ProjectFolders()
        for (folder, names) in markers {
            for name in names { folders.note(entryNamed: name, isFolder: name.hasSuffix(".xcodeproj") || name == ".git", in: folder.isEmpty ? "/r" : "/r/" + folder) }
        }
        return ProjectModel(roots: roots, files: files.map { ProjectModel.File(displayPath: $0, absolutePath: "/r/" + $0) }, folders: folders,
                            manifests: Dictionary(uniqueKeysWithValues: manifests.map { ($0.key.isEmpty ? "/r" : "/r/" + $0.key, $0.value) }), facts: facts)
    }

    private func moduleName(_ model: ProjectModel, _ file: String) -> String? {
        model.module(of: file).map { "\(model.modules[$0].name) (\(model.modules[$0].kind.rawValue))" }
    }

    func testPackageTargetsTakeTheirConventionalFolderOrTheirPath() {
        let manifest = PackageManifest(targets: [
            .init(name: "Core", kind: .regular, path: nil), .init(name: "App", kind: .executable, path: "Apps/Main"),
            .init(name: "CoreTests", kind: .test, path: nil), .init(name: "Legacy", kind: .regular, path: nil),
        ])
        let files = ["Package.swift", "Sources/Core/A.swift", "Apps/Main/Main.swift", "Tests/CoreTests/T.swift", "Source/Legacy/L.swift", "Scripts/gen.swift"]
        let model = model(files, markers: ["": ["Package.swift"]], manifests: ["": manifest])
        XCTAssertEqual(files.map { moduleName(model, $0) }, [
            "r (folder)", "Core (package target)", "App (package target)", "CoreTests (package target)", "Legacy (package target)", "r (folder)",
        ])
    }

    func testAnXcodeProjectsFolderIsOneModuleAndItsLocalPackagesAreTheirTargets() {
        let files = ["App/AppView.swift", "Widget/Widget.swift", "Packages/Kit/Package.swift", "Packages/Kit/Sources/Kit/K.swift"]
        let model = model(files, markers: ["": ["Ledger.xcodeproj", ".git"], "Packages/Kit": ["Package.swift"]],
                          manifests: ["Packages/Kit": PackageManifest(targets: [.init(name: "Kit", kind: .regular, path: nil)])])
        XCTAssertEqual(files.map { moduleName(model, $0) }, [
            "Ledger (Xcode project)", "Ledger (Xcode project)", "Ledger (Xcode project)", "Kit (package target)",
        ])
        // The app imports the package: one workspace.
        let app = model.module(of: "App/AppView.swift")!
        XCTAssertEqual(model.modules(named: "Kit", from: app), [model.module(of: "Packages/Kit/Sources/Kit/K.swift")!])
    }

    func testUnrelatedProjectsInOneFolderAreWorkspacesOfTheirOwn() {
        // A folder of checkouts: each project's import of `Kit` means its own Kit, and one without
        // a Kit sees none (not the other project's).
        let kit = PackageManifest(targets: [.init(name: "Kit", kind: .regular, path: nil)])
        let files = ["one/App/A.swift", "one/Kit/Sources/Kit/K.swift", "two/App/B.swift", "two/Kit/Sources/Kit/K.swift", "three/C.swift"]
        let model = model(files, markers: ["one": ["One.xcodeproj"], "one/Kit": ["Package.swift"], "two": [".git"], "two/Kit": ["Package.swift"], "three": ["Three.xcodeproj"]],
                          manifests: ["one/Kit": kit, "two/Kit": kit])
        let one = model.module(of: "one/App/A.swift")!, two = model.module(of: "two/App/B.swift")!, three = model.module(of: "three/C.swift")!
        XCTAssertEqual(model.modules(named: "Kit", from: one), [model.module(of: "one/Kit/Sources/Kit/K.swift")!])
        XCTAssertEqual(model.modules(named: "Kit", from: two), [model.module(of: "two/Kit/Sources/Kit/K.swift")!])
        XCTAssertEqual(model.modules(named: "Kit", from: three), [])
        XCTAssertEqual(model.visibility(of: three, imports: ["Kit", "SwiftUI"]).external, ["Kit", "SwiftUI"])
    }

    func testReExportsReachEveryFileOfTheModuleAndItsImporters() {
        let manifest = PackageManifest(targets: [.init(name: "UI", kind: .regular, path: nil), .init(name: "App", kind: .executable, path: nil)])
        let files = ["Sources/UI/Exports.swift", "Sources/UI/Button.swift", "Sources/App/Main.swift"]
        let model = model(files, markers: ["": ["Package.swift"]], manifests: ["": manifest],
                          facts: ["Sources/UI/Exports.swift": ModuleFileFacts(imports: ["SwiftUI"], exportedImports: ["SwiftUI"])])
        let ui = model.module(of: "Sources/UI/Button.swift")!, app = model.module(of: "Sources/App/Main.swift")!
        XCTAssertTrue(model.visibility(of: ui, imports: []).sees("SwiftUI", in: model))
        let fromApp = model.visibility(of: app, imports: ["UI"])
        XCTAssertEqual(fromApp.modules, [app, ui])
        XCTAssertTrue(fromApp.sees("SwiftUI", in: model))
        XCTAssertFalse(model.visibility(of: app, imports: []).sees("SwiftUI", in: model))
    }

    func testDeclarationsAreKeptPerModule() {
        let manifest = PackageManifest(targets: [.init(name: "Legacy", kind: .regular, path: nil), .init(name: "Charts", kind: .regular, path: nil)])
        let model = model(["Sources/Legacy/B.swift", "Sources/Charts/B.swift"], markers: ["": ["Package.swift"]], manifests: ["": manifest], facts: [
            "Sources/Legacy/B.swift": ModuleFileFacts(imports: ["SwiftUI"], declaredTypes: ["DSButton"], extendedTypes: ["Color"], declaredMembers: ["brandOrange"]),
            "Sources/Charts/B.swift": ModuleFileFacts(imports: ["SwiftUI"], declaredTypes: ["DSButton"]),
        ])
        XCTAssertEqual(model.declarations["DSButton"]?.map { model.modules[$0.module].name }.sorted(), ["Charts", "Legacy"])
        XCTAssertEqual(model.declarations["brandOrange"]?.map(\.isType), [false])
        XCTAssertEqual(model.extendedTypes[model.module(of: "Sources/Legacy/B.swift")!], ["Color"])
    }

    func testMarkersFromARepositorysPaths() {
        let folders = ProjectFolders.fromPaths(["App.xcodeproj/project.pbxproj", "App/A.swift", "Kit/Package.swift", "Kit/Sources/Kit/K.swift", ".loadaudit.yml"], root: "/r")
        XCTAssertEqual(folders.markers["/r"], [.gitRoot, .xcodeProject, .config])
        XCTAssertEqual(folders.xcodeProjects["/r"], ["App"])
        XCTAssertEqual(folders.markers["/r/Kit"], [.package])
        XCTAssertNil(folders.markers["/r/App.xcodeproj"])
    }
}

/// The model's byte-wise shortcuts against the plain way (`ProjectModel.normalized` by parts, a
/// path's module by climbing its folders), on generated paths.
final class ProjectModelShortcutTests: XCTestCase {
    private func generatedPaths(count: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        let parts = ["a", "b", "Sources", "Core", ".", "..", "", "é", "x.swift", "...", ".hidden", "App"]
        return (0..<count).map { _ in
            let length = Int.random(in: 0...6, using: &generator)
            let body = (0..<length).map { _ in parts.randomElement(using: &generator)! }.joined(separator: "/")
            return (Bool.random(using: &generator) ? "/" : "") + body + (Int.random(in: 0..<5, using: &generator) == 0 ? "/" : "")
        }
    }

    func testNormalPathsAreKeptAsTheyAre() {
        for path in generatedPaths(count: 5_000) + ["", "/", "//", "/a/", "a", "/a/b", "./a", "a/.", "/..", "/a/..b", "/a/b.."] {
            // The plain way: by parts.
            var kept: [Substring] = []
            for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
                if part == "..", !kept.isEmpty { kept.removeLast() } else { kept.append(part) }
            }
            let plain = (path.hasPrefix("/") ? "/" : "") + kept.joined(separator: "/")
            XCTAssertEqual(ProjectModel.normalized(path), plain, path)
            if ProjectModel.isNormalASCII(path) { XCTAssertEqual(path, plain, "said normal: \(path)") }
        }
    }

    func testAPathsModuleAndWhetherItIsInsideAFolder() {
        var folders = ProjectFolders()
        for folder in ["/r/a", "/r/a/b/Sources", "/r/é", "/r/App"] { folders.note(entryNamed: ".loadaudit.yml", isFolder: false, in: folder) }
        let model = ProjectModel(roots: ["/r"], files: [], folders: folders, manifests: [:], facts: [:])
        let paths = generatedPaths(count: 3_000).map { "/r/" + $0 } + ["/r/a/x.swift", "/r/a/y.swift", "/r/a/b/x.swift", "/r/ab/x.swift", "/r/a", "/ra/x.swift"]
        XCTAssertEqual(model.modules(containing: paths), paths.map { model.module(containing: $0) })
        // Sorted, as the scan asks (runs of one folder).
        let sorted = paths.sorted()
        XCTAssertEqual(model.modules(containing: sorted), sorted.map { model.module(containing: $0) })
        for path in paths {
            for folder in ["/r", "/r/a", "/r/a/b", "/r/é", "/", "/r/a/"] {
                let plain = path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
                if !folder.hasSuffix("/") || folder == "/" { XCTAssertEqual(ProjectModel.path(path, isInside: folder), plain, "\(path) in \(folder)") }
                // Yes only where the parent is the folder; no only for other bytes than ASCII or an empty last part (then looked up).
                let directly = ProjectModel.path(path, isDirectlyIn: folder)
                if directly { XCTAssertEqual(ProjectModel.parent(of: path), folder, "\(path) right in \(folder)") }
                if !folder.hasSuffix("/"), !path.hasSuffix("/"), path.utf8.allSatisfy({ $0 < 0x80 }) {
                    XCTAssertEqual(directly, ProjectModel.parent(of: path) == folder, "\(path) right in \(folder)")
                }
            }
        }
    }

    /// A path's parent read on its bytes (ASCII paths) is the one found by characters, the plain way:
    /// paths with and without a leading or trailing `/`, `//`, non-ASCII parts, `/` alone, no `/`.
    func testAPathsParentOnItsBytesIsThePlainWays() {
        func plain(_ path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return "" }
            return slash == path.startIndex ? (path == "/" ? "" : "/") : String(path[..<slash])
        }
        var nested = 0
        for path in generatedPaths(count: 5_000) + ["", "/", "//", "a", "/a", "a/", "/a/b", "é/a", "/é", "a//b", "/r/a/b/x.swift"] {
            XCTAssertEqual(ProjectModel.parent(of: path), plain(path), path)
            if plain(path).contains("/") { nested += 1 }
        }
        XCTAssertGreaterThan(nested, 1_000)
    }
}
