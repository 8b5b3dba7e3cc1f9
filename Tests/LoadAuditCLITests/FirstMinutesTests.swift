import ArgumentParser
import Foundation
@testable import LoadAuditCLI
import XCTest

/// What a new user meets in the first minutes: help read at 80 columns (the width whenever output is
/// piped), a mistyped command, `help` of a command that does not exist, an option a command has no use for.
final class FirstMinutesTests: XCTestCase {
    static let commands: [ParsableCommand.Type] = [LoadAudit.self, Scan.self, Fix.self, Baseline.self, Rules.self, Syntax.self]

    /// Every line fits (ArgumentParser's one-line usage synopsis aside), and prose is wrapped where the
    /// width says, never earlier: a prose line the next line's first word would still have fitted on
    /// was broken by a line break in the source, mid-sentence.
    func testEveryHelpReadsWellAt80Columns() {
        let width = 80
        for command in Self.commands {
            let help = LoadAudit.helpMessage(for: command, columns: width)
            let lines = help.components(separatedBy: "\n")
            XCTAssertGreaterThan(lines.count, 8, "\(command)")
            for line in lines where !line.hasPrefix("USAGE: ") {
                XCTAssertLessThanOrEqual(line.count, width, "\(command): \(line)")
            }
            for (line, next) in zip(lines, lines.dropFirst()) {
                let prose = { (text: String) in !text.isEmpty && !text.hasPrefix(" ") && !text.hasPrefix("USAGE: ") && text != text.uppercased() }
                guard prose(line), prose(next), let word = next.split(separator: " ").first else { continue }
                XCTAssertGreaterThanOrEqual(line.count + 1 + word.count, width,
                                            "\(command): a line broken before the width:\n\(line)\n\(next)")
            }
        }
    }

    func testAMistypedCommandIsNamedNotTakenForAPath() throws {
        let tree = try TemporaryTree(["App/A.swift": "let a = 1\n"])
        for (typed, meant) in [("scna", "scan"), ("fxi", "fix"), ("baseline2", "baseline"), ("rulse", "rules")] {
            let run = CLIRun([typed], in: tree.path)
            XCTAssertEqual(run.status, 2, typed)
            XCTAssertEqual(run.errors, "loadaudit: error: \(typed): no such file or directory, nor a command; did you mean '\(meant)'?\n")
        }
        // Far from any command, or path-like: the path error as before.
        XCTAssertEqual(CLIRun(["nothere"], in: tree.path).errors, "loadaudit: error: nothere: no such file or directory\n")
        XCTAssertFalse(CLIRun(["Sacn.swift"], in: tree.path).errors.contains("did you mean"))
        // A folder that is named like a command's typo is a folder.
        let folder = try TemporaryTree(["scna/A.swift": "let a = 1\n"])
        let run = CLIRun(["scna"], in: folder.path)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.contains("1 file scanned"), run.output)
    }

    func testHelpOfACommandThatDoesNotExistIsAnError() {
        let run = CLIRun(["help", "nope"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.errors, "loadaudit: error: help: no command 'nope'; the commands are scan, fix, baseline, progress, rules, syntax, lsp\n")
        XCTAssertEqual(run.output, "")
        let known = CLIRun(["help", "fix"])
        XCTAssertEqual(known.status, 0)
        XCTAssertTrue(known.output.hasPrefix("OVERVIEW: Apply the replacements"), known.output)
    }

    /// `rules` reads no files: the scanning options are not its own, and it leaves no cache folder behind.
    func testRulesHasNoScanningOptions() throws {
        let tree = try TemporaryTree()
        for option in ["--cache", "--no-gitignore", "--cache-dir=c"] {
            let run = CLIRun(["rules", option], in: tree.path)
            XCTAssertEqual(run.status, 2, option)
            XCTAssertTrue(run.errors.contains("Unknown option"), run.errors)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tree.path), [])
        let run = CLIRun(["rules", "--rule", "themed-spinner"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.hasPrefix("themed-spinner  warning"), run.output)
    }
}

/// One scan, several reports (`--report FORMAT[=FILE]`), each what that format alone would give; and
/// no option given twice silently keeps only its last value.
final class SeveralReportsTests: XCTestCase {
    func testOneScanWritesEveryReportAsItsFormatAloneWould() throws {
        let tree = try TemporaryTree(["App/A.swift": "import SwiftUI\nlet a = ProgressView()\nlet b = ThemedSpinner(size: 24)\n"])
        let run = CLIRun(["scan", "--format", "github", "--report", "sarif=out.sarif", "--report", "markdown=summary.md", "App"], in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertEqual(run.output, CLIRun(["scan", "--format", "github", "App"], in: tree.path).output)
        XCTAssertEqual(try String(contentsOfFile: tree.path + "/out.sarif", encoding: .utf8),
                       CLIRun(["scan", "--format", "sarif", "App"], in: tree.path).output)
        XCTAssertEqual(try String(contentsOfFile: tree.path + "/summary.md", encoding: .utf8),
                       CLIRun(["scan", "--format", "markdown", "App"], in: tree.path).output)

        // Every report to a file: the terminal gets the one-line summary naming them.
        let files = CLIRun(["scan", "--report", "json=r.json", "--report", "junit=r.xml", "App"], in: tree.path)
        XCTAssertEqual(files.status, 1)
        XCTAssertEqual(files.output, "loadaudit: 2 findings in 1 file. Reports: r.json, r.xml\n")
        XCTAssertEqual(try String(contentsOfFile: tree.path + "/r.json", encoding: .utf8), CLIRun(["scan", "--format", "json", "App"], in: tree.path).output)
        // Only --report, to standard output: that format, no text report beside it.
        XCTAssertEqual(CLIRun(["scan", "--report", "json", "App"], in: tree.path).output, CLIRun(["scan", "--format", "json", "App"], in: tree.path).output)
    }

    func testReportsThatCannotAllBeWrittenAreUsageErrors() throws {
        let tree = try TemporaryTree(["App/A.swift": "import SwiftUI\nlet a = ProgressView()\n"])
        let cases: [([String], String)] = [
            (["--format", "json", "--format", "sarif"], "--format is given 2 times: for several reports, use --report FORMAT[=FILE] once for each"),
            (["--output", "a.json", "--output", "b.json"], "--output is given 2 times"),
            (["--format", "json", "--report", "sarif"], "json and sarif would both go to standard output"),
            (["--output", "r.txt", "--report", "sarif=r.txt"], "two reports would be written to r.txt"),
            (["--report", "sarif="], "The value 'sarif=' is invalid for '--report <format[=file]>'"),
            (["--report", "pdf=r.pdf"], "The value 'pdf=r.pdf' is invalid"),
        ]
        for (arguments, message) in cases {
            let run = CLIRun(["scan"] + arguments + ["App"], in: tree.path)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.errors.contains(message), "\(arguments): \(run.errors)")
            XCTAssertEqual(run.output, "")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tree.path), ["App"], "nothing written")
    }
}

/// `scan --stdin-filename PATH -`: one file's text from standard input (an editor's unsaved buffer, a
/// hook's staged text), judged as the file at PATH would be, with the project's configuration,
/// rules and baseline.
final class StandardInputTests: XCTestCase {
    let screen = "import SwiftUI\n\nstruct V: View {\n    var body: some View {\n        ProgressView()\n        LoadingDots()\n    }\n}\n"

    func testTheTextIsJudgedAsTheFileOfThatName() throws {
        let tree = try TemporaryTree(["App/V.swift": screen])
        for format in ["text", "json", "sarif"] {
            let fromDisk = CLIRun(["scan", "--format", format, "App/V.swift"], in: tree.path)
            let fromInput = CLIRun(["scan", "--format", format, "--stdin-filename", "App/V.swift", "-"], in: tree.path, input: screen)
            XCTAssertEqual(fromInput.status, 1, fromInput.errors)
            XCTAssertEqual(fromInput.output, fromDisk.output, format)
        }
        // Unsaved text, and a file not on disk yet: the text shown is standard input's.
        let edited = screen.replacingOccurrences(of: "        LoadingDots()\n", with: "        ThemedSpinner(size: 24)\n")
        let run = CLIRun(["scan", "--stdin-filename", "App/New.swift", "-"], in: tree.path, input: edited)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertTrue(run.output.contains("App/New.swift:6:9: warning: ThemedSpinner is removed"), run.output)
        XCTAssertTrue(run.output.contains(" 6 |         ThemedSpinner(size: 24)\n"), run.output)
        XCTAssertFalse(run.output.contains("LoadingDots"), run.output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tree.path + "/App"), ["V.swift"], "nothing written beside it")
    }

    func testTheProjectsConfigurationAndBaselineApply() throws {
        let tree = try TemporaryTree(["App/V.swift": screen, ".loadaudit.yml": "severity:\n  loading-dots: off\n"])
        XCTAssertEqual(CLIRun(["baseline", "--output", "bl.json", "."], in: tree.path).status, 0)
        let plain = CLIRun(["scan", "--format", "json", "--stdin-filename", "App/V.swift", "-"], in: tree.path, input: screen)
        XCTAssertTrue(plain.output.contains("raw-progress-view") && !plain.output.contains("loading-dots"), plain.output)
        let baseline = CLIRun(["scan", "--baseline", "bl.json", "--stdin-filename", "App/V.swift", "-"], in: tree.path, input: screen)
        XCTAssertEqual(baseline.status, 0, baseline.output)
        XCTAssertTrue(baseline.output.contains("0 new findings, 1 existing, 0 fixed since the baseline (1 file scanned)"), baseline.output)
    }

    func testMistakesAreUsageErrors() throws {
        let tree = try TemporaryTree(["App/V.swift": screen])
        let cases: [([String], String)] = [
            (["scan", "-"], "'-' reads standard input and needs --stdin-filename PATH"),
            (["scan", "--stdin-filename", "App/V.swift", "App"], "--stdin-filename goes with the one path '-'"),
            (["scan", "--stdin-filename", "App/V.swift", "-", "App"], "--stdin-filename goes with the one path '-'"),
        ]
        for (arguments, message) in cases {
            let run = CLIRun(arguments, in: tree.path, input: screen)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.errors.contains(message), run.errors)
        }
        let binary = CLIRun(["scan", "--stdin-filename", "App/V.swift", "-"], in: tree.path, input: "let a = 1\u{0}\u{0}\n")
        XCTAssertTrue(binary.errors.contains("loadaudit: warning: App/V.swift: "), binary.errors)
    }
}
