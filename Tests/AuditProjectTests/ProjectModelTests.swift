import AuditProject
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
