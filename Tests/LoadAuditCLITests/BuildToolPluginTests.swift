import Foundation
import XCTest

/// The package a project adds to run loadaudit from its builds without building it
/// (`scripts/swiftpm-package`: the artifact bundle and the two plugins), and the build tool plugin at
/// work in a `swift build` (issue 35, item 8).
final class BuildToolPluginTests: XCTestCase {
    static let script = Repository.root.appendingPathComponent("scripts/swiftpm-package")

    static func requirePython() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 is not installed (scripts/swiftpm-package zips with it)") }
    }

    /// The package as SwiftPM reads it, around two binaries: the artifact bundle's description names
    /// each with its triples, the plugins are this repository's, and nothing of loadaudit is built.
    func testThePackageDescribesTheBinariesAndCarriesThePlugins() throws {
        try Self.requirePython()
        let tree = try TemporaryTree(["bin/mac": "#!/bin/sh\n", "bin/linux": "#!/bin/sh\n"])
        for name in ["bin/mac", "bin/linux"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree.url.appendingPathComponent(name).path)
        }
        let made = try runProgram(Self.script.path, ["pkg", "bin/mac:arm64-apple-macosx,x86_64-apple-macosx", "bin/linux:x86_64-unknown-linux-gnu"], in: tree.url)
        XCTAssertEqual(made.status, 0, made.output)
        let package = tree.url.appendingPathComponent("pkg")
        let listing = try runProgram("/usr/bin/python3", ["-c", """
            import json, sys, zipfile
            archive = zipfile.ZipFile(sys.argv[1])
            print(json.dumps({"names": sorted(archive.namelist()), "info": json.loads(archive.read("loadaudit.artifactbundle/info.json")),
                              "modes": {entry.filename: entry.external_attr >> 16 & 0o777 for entry in archive.infolist()}}))
            """, package.appendingPathComponent("loadaudit.artifactbundle.zip").path], in: tree.url)
        XCTAssertEqual(listing.status, 0, listing.output)
        let zip = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [String: Any])
        let version = try XCTUnwrap(try String(contentsOf: Repository.root.appendingPathComponent("Sources/LoadAuditCLI/LoadAudit.swift"), encoding: .utf8)
            .components(separatedBy: "public let loadauditVersion = \"").dropFirst().first?.components(separatedBy: "\"").first)
        let macPath = "loadaudit-\(version)-arm64-apple-macosx/bin/loadaudit", linuxPath = "loadaudit-\(version)-x86_64-unknown-linux-gnu/bin/loadaudit"
        XCTAssertEqual(zip["names"] as? [String], ["loadaudit.artifactbundle/info.json", "loadaudit.artifactbundle/" + macPath, "loadaudit.artifactbundle/" + linuxPath])
        XCTAssertEqual((zip["modes"] as? [String: Int])?["loadaudit.artifactbundle/" + linuxPath], 0o755, "the binary stays executable")
        let info = try XCTUnwrap(zip["info"] as? [String: Any])
        XCTAssertEqual(info["schemaVersion"] as? String, "1.0")
        let artifact = try XCTUnwrap((info["artifacts"] as? [String: Any])?["loadaudit"] as? [String: Any])
        XCTAssertEqual(artifact["type"] as? String, "executable")
        XCTAssertEqual(artifact["version"] as? String, version)
        let variants = try XCTUnwrap(artifact["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.map { $0["path"] as? String }, [macPath, linuxPath])
        XCTAssertEqual(variants.map { $0["supportedTriples"] as? [String] }, [["arm64-apple-macosx", "x86_64-apple-macosx"], ["x86_64-unknown-linux-gnu"]])
        for plugin in ["LoadAuditBuildTool", "LoadAuditCommand"] {
            XCTAssertEqual(try Data(contentsOf: package.appendingPathComponent("Plugins/\(plugin)/plugin.swift")),
                           try Data(contentsOf: Repository.root.appendingPathComponent("Plugins/\(plugin)/plugin.swift")), plugin)
        }
        // The manifest as SwiftPM reads it (in a scratch folder of its own, not to wait for this run's build lock).
        let scratch = tree.url.appendingPathComponent("scratch")
        let dump = try runProgram("/usr/bin/env", ["swift", "package", "--scratch-path", scratch.path, "dump-package"], in: package)
        XCTAssertEqual(dump.status, 0, dump.output)
        let json = String(dump.output[try XCTUnwrap(dump.output.firstIndex(of: "{"))...])
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let targets = try XCTUnwrap(manifest["targets"] as? [[String: Any]])
        XCTAssertEqual(targets.map { "\($0["name"]!) \($0["type"]!)" }, ["loadaudit binary", "LoadAuditBuildTool plugin", "LoadAuditCommand plugin"])
        XCTAssertEqual(targets.first?["path"] as? String, "loadaudit.artifactbundle.zip")
        XCTAssertNotNil((targets[1]["pluginCapability"] as? [String: Any])?["buildTool"], "\(targets[1])")
        XCTAssertEqual(try XCTUnwrap(manifest["products"] as? [[String: Any]]).compactMap { $0["name"] as? String }, ["LoadAuditBuildTool", "LoadAuditCommand"])
        // Bad usage: one line, exit 2.
        let bad = try runProgram(Self.script.path, ["pkg", "bin/missing"], in: tree.url)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.output, "swiftpm-package: bin/missing: not an executable file\n")
    }

    /// A package that uses the build tool plugin, with the bundle made from the loadaudit built beside
    /// these tests: `swift build` prints each finding as `path:line:column: warning: ...`, keeps to
    /// the project's `.loadaudit.yml` (its exclude, then a severity raised to error, which fails the
    /// build), and builds nothing of loadaudit. Slow (two `swift build`s of the sample package, 10 to 30 s
    /// on two cores), so it runs when LOADAUDIT_TEST_BUILD_PLUGIN=1; .ci/run sets it.
    func testSwiftBuildOfAPackageThatUsesThePluginPrintsTheFindings() throws {
        guard ProcessInfo.processInfo.environment["LOADAUDIT_TEST_BUILD_PLUGIN"] == "1" else {
            throw XCTSkip("builds a sample package with swift build (10 to 30 s): set LOADAUDIT_TEST_BUILD_PLUGIN=1 to run it (.ci/run does)")
        }
        try Self.requirePython()
        let binary = try XCTUnwrap(Repository.builtExecutable, "no loadaudit built beside the tests (swift build first)")
        let tree = try TemporaryTree([
            "Shop/Package.swift": """
                // swift-tools-version:6.0
                import PackageDescription

                let package = Package(
                    name: "Shop",
                    dependencies: [.package(path: "../loadaudit-swiftpm")],
                    targets: [
                        .target(name: "Checkout", plugins: [.plugin(name: "LoadAuditBuildTool", package: "loadaudit-swiftpm")]),
                    ]
                )

                """,
            "Shop/.loadaudit.yml": "exclude: [\"**/Generated/**\"]\n",
            "Shop/Sources/Checkout/ThemedSpinner.swift": "struct ThemedSpinner {\n    init(size: Int) {}\n}\n",
            "Shop/Sources/Checkout/Pay.swift": "func pay() {\n    _ = ThemedSpinner(size: 20)\n}\n",
            "Shop/Sources/Checkout/Generated/Made.swift": "func made() {\n    _ = ThemedSpinner(size: 24)\n}\n",
        ])
        let made = try runProgram(Self.script.path, [tree.url.appendingPathComponent("loadaudit-swiftpm").path, binary.path], in: tree.url)
        XCTAssertEqual(made.status, 0, made.output)
        let shop = tree.url.appendingPathComponent("Shop")
        let sources = shop.appendingPathComponent("Sources/Checkout").path
        let build = try runProgram("/usr/bin/env", ["swift", "build"], in: shop)
        XCTAssertEqual(build.status, 0, build.output)
        let message = "ThemedSpinner is removed; use LoadingSpinner."
        let warnings = build.output.split(separator: "\n").filter { $0.contains("[themed-spinner]") }
        XCTAssertEqual(warnings, [
            "\(sources)/Pay.swift:2:9: warning: \(message) Replace with: LoadingSpinner(size: .small) [themed-spinner]",
            "\(sources)/ThemedSpinner.swift:1:8: warning: \(message) (the declaration of ThemedSpinner: delete it once nothing uses it) [themed-spinner]",
        ], build.output)
        XCTAssertTrue(build.output.contains("loadaudit scan Checkout"), build.output)
        XCTAssertFalse(build.output.contains("TreeSitter"), "the package builds nothing of loadaudit: \(build.output)")
        // The configuration is an input of the command: a severity raised to error runs it again and fails the build.
        try tree.write("Shop/.loadaudit.yml", "exclude: [\"**/Generated/**\"]\nseverity:\n  themed-spinner: error\n")
        let failed = try runProgram("/usr/bin/env", ["swift", "build"], in: shop)
        XCTAssertNotEqual(failed.status, 0, failed.output)
        XCTAssertTrue(failed.output.contains("\(sources)/Pay.swift:2:9: error: \(message)"), failed.output)
    }
    /// docs/install-swiftpm.md's Run Script phase, as written: with the binary at `Tools/loadaudit`
    /// and none on `PATH`, it prints the findings as Xcode's issues, lets warnings pass, and fails the
    /// build on an `error` finding.
    func testTheRunScriptPhaseOfTheDocsUsesTheProjectsBinary() throws {
        let binary = try XCTUnwrap(Repository.builtExecutable, "no loadaudit built beside the tests")
        let docs = try String(contentsOf: Repository.root.appendingPathComponent("docs/install-swiftpm.md"), encoding: .utf8)
        let after = try XCTUnwrap(docs.components(separatedBy: "<!-- xcode-run-script-tools -->").dropFirst().first, "no snippet marker")
        let block = after.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.contains("```") }.dropFirst().prefix { !$0.contains("```") }
        let script = block.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
        let tree = try TemporaryTree(["App/Games.swift": "import SwiftUI\nlet spinner = ProgressView()\n"])
        try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("Tools"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tree.url.appendingPathComponent("Tools/loadaudit").path, withDestinationPath: binary.path)
        func runScript() throws -> (status: Int32, output: String) {
            try runProgram("/bin/sh", ["-c", script], in: URL(fileURLWithPath: "/"),
                           environment: ["SRCROOT": tree.path, "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
        }
        let warned = try runScript()
        XCTAssertEqual(warned.status, 0, warned.output)
        XCTAssertTrue(warned.output.hasPrefix("\(tree.path)/App/Games.swift:2:15: warning: A raw ProgressView spinner"), warned.output)
        try tree.write(".loadaudit.yml", "severity:\n  raw-progress-view: error\n")
        let failed = try runScript()
        XCTAssertEqual(failed.status, 1, failed.output)
        XCTAssertTrue(failed.output.hasPrefix("\(tree.path)/App/Games.swift:2:15: error: A raw ProgressView spinner"), failed.output)
    }
}
