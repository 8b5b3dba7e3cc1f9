import Foundation
import XCTest

/// `progress --format json` and `scan --format json` name their repository, commit and rules.
final class ReportIdentityCLITests: XCTestCase {
    private func json(_ run: CLIRun) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], run.errors)
    }

    private func head(_ tree: TemporaryTree) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", tree.path, "rev-parse", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testProgressAndScanNameTheOriginRemoteTheCommitAndTheRules() throws {
        let tree = try ProgressTests.migratingRepository()
        try tree.git(["remote", "add", "origin", "git@github.com:acme/trips-ios.git"])
        let commit = try head(tree)
        for arguments in [["progress", "--format", "json", "."], ["scan", "--format", "json", "--fail-on", "never", "App"]] {
            let report = try json(CLIRun(arguments, in: tree.path))
            XCTAssertEqual(report["repository"] as? String, "acme/trips-ios", arguments[0])
            XCTAssertEqual(report["commit"] as? String, commit, arguments[0])
            XCTAssertEqual(report["date"] as? String, "2026-01-28", arguments[0])
            let rules = try XCTUnwrap(report["rulesIdentity"] as? [String: Any], arguments[0])
            XCTAssertEqual(rules["files"] as? [String], ["built-in"])
            XCTAssertEqual((rules["hash"] as? String)?.count, 16)
        }
        let named = try json(CLIRun(["progress", "--format", "json", "--name", "acme/trips", "."], in: tree.path))
        XCTAssertEqual(named["repository"] as? String, "acme/trips")
        // The other formats are as they were: no identity in the text report.
        XCTAssertFalse(CLIRun(["progress", "."], in: tree.path).output.contains("acme/trips-ios"))
    }

    /// Without a remote, the work tree's folder names the repository; a severity changed in
    /// .loadaudit.yml changes the rules' hash (its counts are not comparable).
    func testWithoutARemoteTheFolderNamesItAndOtherRulesHashOtherwise() throws {
        let tree = try ProgressTests.migratingRepository()
        let plain = try json(CLIRun(["scan", "--format", "json", "--fail-on", "never", "App"], in: tree.path))
        XCTAssertEqual(plain["repository"] as? String, tree.url.lastPathComponent)
        try tree.write(".loadaudit.yml", "severity:\n  loading-dots: off\n")
        let configured = try json(CLIRun(["scan", "--format", "json", "--fail-on", "never", "App"], in: tree.path))
        let before = (plain["rulesIdentity"] as? [String: Any])?["hash"] as? String
        let after = (configured["rulesIdentity"] as? [String: Any])?["hash"] as? String
        XCTAssertNotNil(before)
        XCTAssertNotEqual(before, after)
    }
}
