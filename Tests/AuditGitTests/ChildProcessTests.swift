import ChildProcess
import XCTest

final class ChildProcessTests: XCTestCase {
    func testCollectsBothStreamsAndTheExitStatus() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        XCTAssertEqual(outcome.status, 3)
        XCTAssertEqual(String(decoding: outcome.output, as: UTF8.self), "out")
        XCTAssertEqual(String(decoding: outcome.errors, as: UTF8.self), "err")
    }

    func testLargeOutputOnBothStreamsDoesNotBlockTheChild() throws {
        // 1 MB on each stream: far more than a pipe holds, so both must be drained while the child runs.
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.output.count, 1 << 20)
        XCTAssertEqual(outcome.errors.count, 1 << 20)
    }

    func testAChildEndedByASignalReportsIt() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
        XCTAssertEqual(outcome.status, 128 + 15)
    }

    func testAMissingProgramIsALaunchError() {
        XCTAssertThrowsError(try ChildProcess.run("/nonexistent/git", ["status"])) { error in
            XCTAssertTrue("\(error)".contains("cannot run /nonexistent/git"), "\(error)")
        }
    }

    func testExecutablesAreFoundInTheSystemFolders() {
        XCTAssertEqual(ChildProcess.executable(named: "sh").map { $0.hasSuffix("/sh") }, true)
        XCTAssertNil(ChildProcess.executable(named: "no-such-program-loadaudit"))
        XCTAssertEqual(ChildProcess.executable(named: "sh", path: nil).map { $0.hasSuffix("/sh") }, true, "no PATH: the system folders")
    }

    /// As a shell finds it: the folders of PATH in order (a git in a CI image's own folder), skipping
    /// folders and files that cannot be run.
    func testExecutablesAreFoundOnThePath() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("path-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (folder, notRunnable, first) = (root.appendingPathComponent("as-folder"), root.appendingPathComponent("not-runnable"), root.appendingPathComponent("first"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("loadaudit-tool"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: notRunnable, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: notRunnable.appendingPathComponent("loadaudit-tool").path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o644]))
        XCTAssertTrue(FileManager.default.createFile(atPath: first.appendingPathComponent("loadaudit-tool").path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        let path = [folder.path, notRunnable.path, "relative/bin", first.path].joined(separator: ":")
        XCTAssertEqual(ChildProcess.executable(named: "loadaudit-tool", path: path), first.appendingPathComponent("loadaudit-tool").path)
        XCTAssertNil(ChildProcess.executable(named: "loadaudit-tool", path: folder.path))
    }

    func testStandardInputIsEmpty() throws {
        let outcome = try ChildProcess.run("/bin/cat", [])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.output, [])
    }
}
