import LoadAuditCLI
import Foundation
import XCTest

final class AtomicWriterTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testReplacesTheContent() throws {
        let path = folder.appendingPathComponent("A.swift").path
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        try AtomicWriter.replace(path, with: Array("new\n".utf8), original: Array("old\n".utf8), roots: [folder.path])
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
    }

    /// `--output /dev/null` run as root must not rename a file over the device: a named pipe stands
    /// in for it here (the old code replaced the pipe with a plain file).
    func testAReportWrittenToAPipeGoesIntoThePipeAndLeavesItThere() throws {
        let path = folder.appendingPathComponent("report.pipe").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        try AtomicWriter.write(Array("report\n".utf8), to: path)
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the pipe was replaced")
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        XCTAssertEqual(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self), "report\n")
    }

    func testAFileChangedSinceItWasReadIsNotOverwritten() throws {
        let path = folder.appendingPathComponent("A.swift").path
        try "edited by someone else\n".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try AtomicWriter.replace(path, with: Array("new\n".utf8), original: Array("old\n".utf8), roots: [folder.path])) { error in
            XCTAssertEqual(error as? WriteRefusal, .changedOnDisk)
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "edited by someone else\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["A.swift"])
    }

    func testAFileReplacedByAFolderIsReported() throws {
        let path = folder.appendingPathComponent("A.swift").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicWriter.replace(path, with: [], original: [], roots: [folder.path])) { error in
            guard case .failed? = error as? WriteRefusal else { return XCTFail("\(error)") }
        }
    }
}
