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
    }

    func testStandardInputIsEmpty() throws {
        let outcome = try ChildProcess.run("/bin/cat", [])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.output, [])
    }
}
