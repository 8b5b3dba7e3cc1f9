import Foundation
import LoadAuditCLI
import XCTest
import Yams

/// The files teams install loadaudit with: the pre-commit framework's hook, the composite GitHub
/// Action (its scan step run for real, as a runner would), shell completions.
final class InstallFilesTests: XCTestCase {
    func yaml(_ name: String) throws -> Any {
        try XCTUnwrap(try Yams.load(yaml: String(contentsOf: Repository.root.appendingPathComponent(name), encoding: .utf8)), name)
    }

    func testThePreCommitHookScansTheStagedSwiftFiles() throws {
        let hooks = try XCTUnwrap(try yaml(".pre-commit-hooks.yaml") as? [[String: Any]])
        XCTAssertEqual(hooks.count, 1)
        let hook = hooks[0]
        XCTAssertEqual(hook["id"] as? String, "loadaudit")
        XCTAssertEqual(hook["language"] as? String, "system")
        XCTAssertEqual(hook["types"] as? [String], ["swift"])
        XCTAssertEqual(hook["pass_filenames"] as? Bool, true)
        let entry = try XCTUnwrap(hook["entry"] as? String).split(separator: " ").map(String.init)
        XCTAssertEqual(entry.first, "loadaudit")
        // pre-commit appends the file names: the command must take them.
        let tree = try TemporaryTree(["A.swift": "import SwiftUI\nlet a = ProgressView()\n", "B.swift": "let b = 1\n"])
        let run = CLIRun(Array(entry.dropFirst()) + ["A.swift", "B.swift"], in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertTrue(run.output.hasPrefix(tree.path + "/A.swift:2:9: warning: A raw ProgressView spinner"), run.output)
    }

    /// The action's scan step, run with bash as a runner runs it: one scan, annotations on standard
    /// output, the step summary and the SARIF file written.
    func testTheActionScansOnceForItsThreeReports() throws {
        let action = try XCTUnwrap(try yaml("action.yml") as? [String: Any])
        let runs = try XCTUnwrap(action["runs"] as? [String: Any])
        XCTAssertEqual(runs["using"] as? String, "composite")
        let steps = try XCTUnwrap(runs["steps"] as? [[String: Any]])
        let scan = try XCTUnwrap(steps.first { $0["name"] as? String == "Scan" })
        let script = try XCTUnwrap(scan["run"] as? String)
        XCTAssertEqual(script.components(separatedBy: "loadaudit \"").count, 2, "one scan")
        let inputs = try XCTUnwrap(action["inputs"] as? [String: Any])
        XCTAssertEqual(Set(inputs.keys), ["paths", "baseline", "diff-base", "allow-empty", "upload-sarif"])
        XCTAssertTrue(steps.contains { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif") == true })

        guard let binary = Repository.builtExecutable else {
            throw XCTSkip("the loadaudit executable is not built next to the tests")
        }
        let tree = try TemporaryTree(["App/A.swift": "import SwiftUI\nlet a = ProgressView()\n"])
        let summary = tree.url.appendingPathComponent("summary.md")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-e", "-c", script]
        process.currentDirectoryURL = tree.url
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["GITHUB_STEP_SUMMARY"] = summary.path
        environment["LOADAUDIT_PATHS"] = "App"
        environment["LOADAUDIT_BASELINE"] = ""
        environment["LOADAUDIT_DIFF_BASE"] = "origin/"  // a push: no base ref
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let annotations = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, "a finding fails the step")
        XCTAssertTrue(annotations.hasPrefix("::warning file=App/A.swift,line=2,col=9,"), annotations)
        XCTAssertTrue(try String(contentsOf: summary, encoding: .utf8).hasPrefix("## loadaudit: 1 finding"))
        let sarif = try String(contentsOf: tree.url.appendingPathComponent("loadaudit.sarif"), encoding: .utf8)
        XCTAssertTrue(sarif.contains("\"uri\" : \"App/A.swift\""), String(sarif.prefix(400)))
    }

    /// SwiftPM takes loadaudit as a dependency only without unsafe flags, and a team runs it with
    /// `swift package loadaudit ...`: the manifest as SwiftPM reads it (`dump-package`, in a scratch
    /// folder of its own, so as not to wait for this test run's build lock).
    func testThePackageCanBeADependencyAndDeclaresTheCommandPlugin() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("loadaudit-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = Data(try runProgram("/usr/bin/env", ["swift", "package", "--scratch-path", scratch.path, "dump-package"], in: Repository.root).utf8)
        XCTAssertFalse(String(decoding: data, as: UTF8.self).contains("unsafeFlags"), "SwiftPM refuses a dependency with unsafe flags")
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let targets = try XCTUnwrap(manifest["targets"] as? [[String: Any]])
        let plugin = try XCTUnwrap(targets.first { $0["type"] as? String == "plugin" })
        XCTAssertEqual(plugin["name"] as? String, "LoadAuditCommand")
        XCTAssertEqual(plugin["dependencies"].map { "\($0)" }?.contains("loadaudit"), true)
        let capability = try XCTUnwrap(plugin["pluginCapability"] as? [String: Any])
        let command = try XCTUnwrap((capability["command"] as? [Any])?.first as? [String: Any])
        XCTAssertEqual((command["custom"] as? [String: Any])?["verb"] as? String, "loadaudit")
        let products = try XCTUnwrap(manifest["products"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        XCTAssertTrue(products.contains("LoadAuditCommand"), "\(products)")
        // And the build tool plugin, beside it (built from source here; BuildToolPluginTests).
        let buildTool = try XCTUnwrap(targets.first { $0["name"] as? String == "LoadAuditBuildTool" })
        XCTAssertNotNil((buildTool["pluginCapability"] as? [String: Any])?["buildTool"], "\(buildTool)")
        XCTAssertEqual(buildTool["dependencies"].map { "\($0)" }?.contains("loadaudit"), true)
        XCTAssertTrue(products.contains("LoadAuditBuildTool"), "\(products)")
    }

    func testShellCompletionsAreGenerated() {
        for shell in ["bash", "zsh", "fish"] {
            let run = CLIRun(["--generate-completion-script", shell])
            XCTAssertEqual(run.status, 0, shell)
            for command in ["scan", "fix", "baseline", "rules", "syntax", "stdin-filename"] {
                XCTAssertTrue(run.output.contains(command), "\(shell) completion lacks \(command)")
            }
        }
    }

    /// The release scripts are slow (a release build, a Debian root): here only their usage, and that
    /// the release's artifact bundle and package come from scripts/swiftpm-package with the Linux
    /// binary (BuildToolPluginTests checks what that script writes).
    func testTheReleaseScriptsAreThereAndMakeTheSwiftPMPackage() throws {
        let scripts = Repository.root.appendingPathComponent("scripts")
        for name in ["release", "check-release", "swiftpm-package", "deterministic-zip"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: scripts.appendingPathComponent(name).path), name)
        }
        for (name, arguments) in [("check-release", [String]()), ("swiftpm-package", []), ("deterministic-zip", ["/nonexistent", "x", "y.zip"])] {
            let usage = Process()
            usage.executableURL = scripts.appendingPathComponent(name)
            usage.arguments = arguments
            usage.standardError = FileHandle.nullDevice
            try usage.run()
            usage.waitUntilExit()
            XCTAssertEqual(usage.terminationStatus, 2, "\(name) without its arguments is bad usage")
        }
        let release = try String(contentsOf: scripts.appendingPathComponent("release"), encoding: .utf8)
        XCTAssertTrue(release.contains("scripts/swiftpm-package \"$stage/loadaudit-swiftpm\" \"$stage/$name/bin/loadaudit:x86_64-unknown-linux-gnu\"\n"), release)
    }
}
