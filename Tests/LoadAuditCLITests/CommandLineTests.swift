import Foundation
import LoadAuditCLI
import XCTest

/// What a user sees: exit codes, error lines, help, colour.
final class CommandLineTests: XCTestCase {
    let spinnerView = "import SwiftUI\n\nstruct A: View {\n    var body: some View { ProgressView() }\n}\n"

    func testFindingsExitOneAndCleanTreesExitZero() throws {
        let tree = try TemporaryTree(["A.swift": spinnerView, "Clean/B.swift": "import SwiftUI\nlet s = LoadingSpinner(size: .small)\n"])
        XCTAssertEqual(CLIRun(["scan", "."], in: tree.path).status, 1)
        XCTAssertEqual(CLIRun(["scan", tree.url.appendingPathComponent("Clean").path]).status, 0)
        // `scan` is the default command.
        XCTAssertEqual(CLIRun(["."], in: tree.path).status, 1)
    }

    func testFailOnChoosesTheSeverityThatFails() throws {
        let tree = try TemporaryTree(["A.swift": spinnerView])
        XCTAssertEqual(CLIRun(["scan", "--fail-on", "never", "."], in: tree.path).status, 0)
        XCTAssertEqual(CLIRun(["scan", "--fail-on", "error", "."], in: tree.path).status, 0)
        XCTAssertEqual(CLIRun(["scan", "--fail-on", "note", "."], in: tree.path).status, 1)
        let bad = CLIRun(["scan", "--fail-on", "sometimes", "."], in: tree.path)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.errors.contains("sometimes"), bad.errors)
    }

    func testAMissingPathIsAUsageErrorThatNamesIt() {
        let run = CLIRun(["scan", "No/Such/Folder"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.errors, "loadaudit: error: No/Such/Folder: no such file or directory\n")
        XCTAssertEqual(run.output, "")
    }

    func testAMalformedRulesFileIsAnErrorWithFileAndLine() throws {
        let tree = try TemporaryTree(["team.yml": "version: 1\nrules:\n  - id: a\n    component: A\n    severity: loud\n    message: m\n", "A.swift": spinnerView])
        let run = CLIRun(["scan", "--rules", "team.yml", "A.swift"], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.errors.hasPrefix("loadaudit: error: team.yml:5:15: severity is 'loud'"), run.errors)
        XCTAssertEqual(run.errors.split(separator: "\n").count, 1)
    }

    func testRulesFilesReplaceTheBuiltInRules() throws {
        let rules = "version: 1\nrules:\n  - id: old-badge\n    component: OldBadge\n    message: Use Badge.\n    replacement: Badge()\n    fix: safe\n"
        let tree = try TemporaryTree(["team.yml": rules, "A.swift": spinnerView + "let b = OldBadge()\n"])
        let run = CLIRun(["scan", "--rules", "team.yml", "--format", "json", "A.swift"], in: tree.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.contains("\"ruleId\" : \"old-badge\""))
        XCTAssertFalse(run.output.contains("raw-progress-view"))
    }

    func testUnknownRuleIdsAndOptionsAreUsageErrors() {
        XCTAssertEqual(CLIRun(["scan", "--rule", "no-such-rule", "."]).status, 2)
        XCTAssertEqual(CLIRun(["scan", "--frobnicate"]).status, 2)
        XCTAssertEqual(CLIRun(["scan", "--jobs", "0", "."]).status, 2)
        XCTAssertEqual(CLIRun(["scan", "--format", "xml", "."]).status, 2)
    }

    func testHelpTeachesWithExamplesAndVersionPrintsTheVersion() {
        let help = CLIRun(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("EXAMPLES"))
        XCTAssertTrue(help.output.contains("loadaudit scan ./App"))
        XCTAssertTrue(help.output.contains("EXIT CODES"))
        let scanHelp = CLIRun(["scan", "--help"])
        XCTAssertTrue(scanHelp.output.contains("--fail-on"))
        XCTAssertTrue(scanHelp.output.contains("--rules"))
        let version = CLIRun(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.output, "\(loadauditVersion)\n")
    }

    /// Every help page fits an 80-column terminal (`COLUMNS=80`, as a user's window): no line of it is
    /// wider, the usage line included (ArgumentParser lists every option there unless a command has
    /// more than twelve). The commands are those each page lists under SUBCOMMANDS, so a new one is
    /// checked too.
    func testEveryHelpPageFitsEightyColumns() throws {
        let binary = try XCTUnwrap(Repository.builtExecutable, "no loadaudit built beside the tests (swift build first)")
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        var pending: [[String]] = [[]]
        var checked: [String] = []
        while let command = pending.popLast() {
            let help = try runProgram(binary.path, command + ["--help"], in: Repository.root, environment: environment)
            XCTAssertEqual(help.status, 0, help.output)
            XCTAssertTrue(help.output.contains("USAGE: loadaudit"), help.output)
            let wide = help.output.split(separator: "\n").filter { $0.count > 80 }.map(String.init)
            XCTAssertEqual(wide, [], "loadaudit \(command.joined(separator: " ")) --help")
            checked.append(command.joined(separator: " "))
            let listed = help.output.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first ?? ""
            for line in listed.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
                if let name = line.split(separator: " ").first, !name.hasPrefix("See") { pending.append(command + [String(name)]) }
            }
        }
        XCTAssertEqual(Set(checked).isSuperset(of: ["", "scan", "fix", "baseline", "progress", "rules", "rules test", "syntax"]), true, "\(checked)")
    }

    func testColourOnlyOnATerminalAndNeverWithNoColor() throws {
        let tree = try TemporaryTree(["A.swift": spinnerView])
        let escape = "\u{1B}["
        XCTAssertFalse(CLIRun(["scan", "."], in: tree.path).output.contains(escape))
        XCTAssertTrue(CLIRun(["scan", "."], in: tree.path, terminal: true).output.contains(escape))
        XCTAssertFalse(CLIRun(["scan", "."], in: tree.path, terminal: true, environment: ["NO_COLOR": "1"]).output.contains(escape))
        XCTAssertTrue(CLIRun(["scan", "--color", "always", "."], in: tree.path).output.contains(escape))
    }

    func testTextReportShowsLocationSourceCaretAndReplacement() throws {
        let tree = try TemporaryTree(["Features/A.swift": spinnerView])
        let run = CLIRun(["scan", "."], in: tree.path)
        XCTAssertTrue(run.output.hasPrefix("""
        Features/A.swift:4:27: warning: A raw ProgressView spinner; use the theme-aware LoadingSpinner. [raw-progress-view]
         4 |     var body: some View { ProgressView() }
           |                           ^~~~~~~~~~~~~~
           = safe fix: LoadingSpinner(size: .medium)
        """), run.output)
        XCTAssertTrue(run.output.contains("1 finding in 1 file (1 file scanned): 1 safe\n  raw-progress-view  1\n"), run.output)
    }

    /// One rule for every output: paths relative to the current folder (absolute outside it), so that
    /// `fix --dry-run App > m.diff; git apply m.diff` works from where it was run, and CI annotations
    /// land on the repository's files.
    func testEveryOutputNamesFilesRelativeToTheCurrentFolder() throws {
        let tree = try TemporaryTree(["App/Screens/A.swift": spinnerView, "Kit/B.swift": spinnerView])
        for format in ["json", "text", "markdown", "github", "sarif"] {
            let one = CLIRun(["scan", "--format", format, "App"], in: tree.path)
            XCTAssertTrue(one.output.contains("App/Screens/A.swift"), "\(format): \(one.output)")
            XCTAssertFalse(one.output.contains("\"Screens/A.swift") || one.output.hasPrefix("Screens/"), "\(format): \(one.output)")
        }
        let two = CLIRun(["scan", "--format", "json", "App", "Kit/B.swift"], in: tree.path)
        XCTAssertTrue(two.output.contains("\"file\" : \"App/Screens/A.swift\""), two.output)
        XCTAssertTrue(two.output.contains("\"file\" : \"Kit/B.swift\""), two.output)
        let inside = CLIRun(["scan", "--format", "json", "."], in: tree.url.appendingPathComponent("App").path)
        XCTAssertTrue(inside.output.contains("\"file\" : \"Screens/A.swift\""), inside.output)
        let outside = CLIRun(["scan", "--format", "json", "../Kit"], in: tree.url.appendingPathComponent("App").path)
        XCTAssertTrue(outside.output.contains("\"file\" : \"\(tree.url.standardizedFileURL.path)/Kit/B.swift\""), outside.output)

        // The diff of a subfolder, made from the repository root, applies there with git.
        try tree.git(["init", "-q"])
        let diff = CLIRun(["fix", "--dry-run", "App"], in: tree.path)
        XCTAssertTrue(diff.output.hasPrefix("--- a/App/Screens/A.swift\n+++ b/App/Screens/A.swift\n"), diff.output)
        try tree.write("m.diff", diff.output)
        try tree.git(["apply", "m.diff"])
        let fixed = try String(contentsOf: tree.url.appendingPathComponent("App/Screens/A.swift"), encoding: .utf8)
        XCTAssertTrue(fixed.contains("LoadingSpinner(size: .medium)"), fixed)
    }

    func testAnEmptyTreeAllowedExitsCleanlyWithANote() throws {
        let tree = try TemporaryTree(["README.md": "nothing here"])
        let run = CLIRun(["scan", "--allow-empty", "."], in: tree.path)
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.output.contains("No deprecated loading indicators in 0 files scanned."))
        XCTAssertTrue(run.errors.contains("warning: no .swift files found"), run.errors)
    }

    func testRulesCommandListsEveryRule() {
        let run = CLIRun(["rules"])
        XCTAssertEqual(run.status, 0)
        for id in ["themed-spinner", "raw-progress-view", "loading-text-generator"] {
            XCTAssertTrue(run.output.contains(id), id)
        }
        XCTAssertTrue(run.output.contains("never reported (kept): AnimatedRouteGraphic, EmptyStateView, PulsingDot, RoutePreviewStrip, StatPill"))
    }

    func testSyntaxCommandPrintsTheTree() throws {
        let tree = try TemporaryTree(["A.swift": "let v = ProgressView()\n"])
        let run = CLIRun(["syntax", "A.swift"], in: tree.path)
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.output.contains("call_expression 1:9"), run.output)
        XCTAssertTrue(run.output.contains("simple_identifier 1:9 \"ProgressView\""), run.output)
        XCTAssertEqual(CLIRun(["syntax", "Missing.swift"], in: tree.path).status, 2)
    }

    /// A token the parser invented is marked, or a tree with one looks like a tree without errors.
    func testSyntaxCommandMarksWhatTheParserInvented() throws {
        let tree = try TemporaryTree(["A.swift": "let v = f(x\n"])
        let run = CLIRun(["syntax", "A.swift"], in: tree.path)
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.output.contains("MISSING \")\" 1:12"), run.output)
        XCTAssertEqual(run.output.components(separatedBy: "MISSING").count, 2, run.output)
    }

    /// The real executable, as CI and scripts run it: exit status and streams cross the process boundary.
    func testTheExecutableExitsWithTheDocumentedCodes() throws {
        guard let binary = Repository.builtExecutable else {
            throw XCTSkip("the loadaudit executable is not built next to the tests")
        }
        func run(_ arguments: [String]) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let tree = try TemporaryTree(["A.swift": spinnerView])
        XCTAssertEqual(try run(["scan", tree.path]).0, 1)
        XCTAssertEqual(try run(["scan", "--fail-on", "never", tree.path]).0, 0)
        let missing = try run(["scan", "/no/such/path"])
        XCTAssertEqual(missing.0, 2)
        XCTAssertEqual(missing.1, "loadaudit: error: /no/such/path: no such file or directory\n")
    }
}

final class ConfigurationTests: XCTestCase {
    let views = "import SwiftUI\nlet a = ProgressView()\nlet b = LoadingDots()\n"

    func testTheNearestConfigurationShapesTheScan() throws {
        let tree = try TemporaryTree([
            ".loadaudit.yml": "exclude: [\"**/Generated/**\"]\nseverity:\n  loading-dots: off\n  raw-progress-view: note\nfail-on: warning\n",
            "App/A.swift": views,
            "App/Generated/B.swift": views,
        ])
        let run = CLIRun(["scan", "--format", "json", "App"], in: tree.path)
        XCTAssertEqual(run.status, 0, "a note does not reach the failing severity")
        XCTAssertTrue(run.output.contains("\"severity\" : \"note\""), run.output)
        XCTAssertFalse(run.output.contains("loading-dots"))
        XCTAssertFalse(run.output.contains("Generated"))
        let ignored = CLIRun(["scan", "--no-config", "--format", "json", "App"], in: tree.path)
        XCTAssertEqual(ignored.status, 1)
        XCTAssertTrue(ignored.output.contains("Generated/B.swift"))
    }

    func testABadConfigurationIsAnErrorWithFileAndLine() throws {
        let tree = try TemporaryTree([".loadaudit.yml": "fail-on: warning\nbaseline: x.json\nincludes: [App]\n", "A.swift": views])
        let run = CLIRun(["scan", "."], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.errors.hasPrefix("loadaudit: error: .loadaudit.yml:3:1: unknown key 'includes'"), run.errors)
        XCTAssertEqual(CLIRun(["scan", "--config", "missing.yml", "."], in: tree.path).status, 2)
    }

    func testTheConfiguredBaselineIsUsed() throws {
        let tree = try TemporaryTree([".loadaudit.yml": "baseline: ci/baseline.json\n", "A.swift": views])
        try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("ci"), withIntermediateDirectories: true)
        XCTAssertEqual(CLIRun(["baseline", "."], in: tree.path).output, "Wrote ci/baseline.json: 2 findings.\n")
        XCTAssertEqual(CLIRun(["scan", "."], in: tree.path).status, 0)
        try tree.write("B.swift", "import SwiftUI\nlet c = PlaceholderCard()\n")
        XCTAssertEqual(CLIRun(["scan", "."], in: tree.path).status, 1)
    }
}
