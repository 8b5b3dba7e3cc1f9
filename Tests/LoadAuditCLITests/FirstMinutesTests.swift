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
        XCTAssertEqual(run.errors, "loadaudit: error: help: no command 'nope'; the commands are scan, fix, baseline, rules, syntax\n")
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
