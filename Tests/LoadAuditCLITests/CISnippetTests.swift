import Foundation
import LoadAuditCLI
import XCTest
import Yams

/// docs/ci.md's copy-paste snippets for CI, git and Xcode, run (or, for the GitHub workflow, parsed)
/// as written, so they cannot drift from what the tool accepts.
final class CISnippetTests: XCTestCase {
    func snippet(after marker: String) throws -> String {
        let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let after = try XCTUnwrap(document.components(separatedBy: "<!-- \(marker) -->").dropFirst().first, "no \(marker) in docs/ci.md")
        let lines = after.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("```") }.dropFirst()
        return lines.prefix { !$0.hasPrefix("```") }.joined(separator: "\n") + "\n"
    }

    func executableFolder() throws -> String {
        guard let binary = Repository.builtExecutable else { throw XCTSkip("the loadaudit executable is not built next to the tests") }
        return binary.deletingLastPathComponent().path
    }

    func shell(_ script: String, in folder: String, environment extra: [String: String] = [:]) throws -> (Int32, String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = try executableFolder() + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment.merge(extra) { _, new in new }
        return try runProgram("/bin/sh", ["-c", script], in: URL(fileURLWithPath: folder), environment: environment)
    }

    func testThePreCommitHookStopsACommitThatAddsADeprecatedIndicator() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        let tree = try TemporaryTree(["App/A.swift": "import SwiftUI\nlet legacy = ThemedSpinner(size: 24)\n"])
        let git = "git -c user.name=T -c user.email=t@example.com -c commit.gpgsign=false"
        XCTAssertEqual(try shell("git init -q -b main && \(git) add -A && \(git) commit -q --no-verify -m initial", in: tree.path).0, 0)
        let hook = tree.url.appendingPathComponent(".git/hooks/pre-commit")
        try snippet(after: "pre-commit").write(to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)

        try tree.write("App/B.swift", "import SwiftUI\nlet spinner = LoadingSpinner(size: .small)\n")
        let clean = try shell("\(git) add -A && \(git) commit -q -m clean", in: tree.path)
        XCTAssertEqual(clean.0, 0, "an existing usage does not stop a commit: \(clean.1)")

        try tree.write("App/C.swift", "import SwiftUI\nlet spinner = ProgressView()\n")
        let blocked = try shell("\(git) add -A && \(git) commit -q -m spinner", in: tree.path)
        XCTAssertNotEqual(blocked.0, 0)
        XCTAssertTrue(blocked.1.contains("App/C.swift:2:15: warning: A raw ProgressView spinner"), blocked.1)
        XCTAssertEqual(try shell("git log --oneline | wc -l", in: tree.path).1.trimmingCharacters(in: .whitespacesAndNewlines), "2")
    }

    func testTheXcodeRunScriptPrintsIssuesXcodeUnderstandsAndNeverFailsTheBuild() throws {
        let tree = try TemporaryTree(["Sources/A.swift": "import SwiftUI\nlet spinner = ProgressView()\n"])
        let (status, output) = try shell(snippet(after: "xcode-run-script"), in: "/", environment: ["SRCROOT": tree.path])
        XCTAssertEqual(status, 0)
        let lines = output.split(separator: "\n").filter { !$0.hasPrefix("loadaudit: warning") }
        XCTAssertEqual(lines.count, 1, output)
        XCTAssertTrue(lines[0].hasPrefix("\(tree.path)/Sources/A.swift:2:15: warning: "), output)
        XCTAssertTrue(lines[0].hasSuffix("[raw-progress-view]"))
    }

    func testTheGitHubWorkflowIsValidYAMLAndItsLoadauditCommandsParse() throws {
        let workflow = try XCTUnwrap(try Yams.load(yaml: snippet(after: "github-actions")) as? [String: Any])
        let jobs = try XCTUnwrap(workflow["jobs"] as? [String: Any])
        let steps = try XCTUnwrap((jobs["loadaudit"] as? [String: Any])?["steps"] as? [[String: Any]])
        let commands = steps.compactMap { $0["run"] as? String }.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("loadaudit ") }
        XCTAssertEqual(commands.count, 1, "one scan writes every report")
        for command in commands {
            let words = command.split(separator: ">>").first!.split(separator: " ").dropFirst().map(String.init)
            XCTAssertNoThrow(try LoadAudit.parseAsRoot(words), String(command))
        }
        XCTAssertTrue(commands.contains { $0.contains("--diff-base origin/$GITHUB_BASE_REF --format github --report sarif=loadaudit.sarif --report markdown=$GITHUB_STEP_SUMMARY") })
        let upload = steps.first { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif") == true }
        XCTAssertEqual((upload?["with"] as? [String: Any])?["sarif_file"] as? String, "loadaudit.sarif")
    }
}
