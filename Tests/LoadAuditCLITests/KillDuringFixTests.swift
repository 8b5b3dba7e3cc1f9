import Foundation
import LoadAuditCLI
import LoadAuditTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fix` interrupted or starved while it writes: killed with SIGKILL at random moments, a file turned
/// into a folder between the scan and the write, a full disk. The README promises atomic writes: every
/// file is its original or its fully fixed self, never partial or empty, and nothing is lost.
final class KillDuringFixTests: XCTestCase {
    // MARK: helpers

    func loadauditExecutable() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("loadaudit"),
            Repository.root.appendingPathComponent(".build/debug/loadaudit"),
        ]
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("the loadaudit executable is not built next to the tests or in .build/debug")
        }
        return binary
    }

    func copyOfExampleApp() throws -> TemporaryTree {
        let tree = try TemporaryTree()
        let source = Repository.exampleApp
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: tree.url.appendingPathComponent(name))
        }
        return tree
    }

    /// Every regular file under `folder` (hidden ones too), by relative path.
    func regularFiles(in folder: URL) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)!
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue { result[path] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(path))) }
        }
        return result
    }

    /// AtomicWriter's temporary files: `.<name>.loadaudit-<pid>-XXXXXX` beside the file.
    static func isLoadauditTemporary(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name.range(of: #"^\..+\.loadaudit-[0-9]+-[A-Za-z0-9]{6}$"#, options: .regularExpression) != nil
    }

    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    func runToCompletion(_ binary: URL, _ arguments: [String]) throws -> (status: Int32, seconds: Double) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, Date().timeIntervalSince(started))
    }

    // MARK: SIGKILL at random moments

    func testAKilledFixLeavesEveryFileOriginalOrFullyFixed() throws {
        let binary = try loadauditExecutable()
        let originals = try regularFiles(in: Repository.exampleApp)
        let reference = try copyOfExampleApp()
        let complete = try runToCompletion(binary, ["fix", reference.path])
        XCTAssertEqual(complete.status, 0, "fix of the example app should succeed")
        let fixed = try regularFiles(in: reference.url)
        XCTAssertEqual(Set(fixed.keys), Set(originals.keys))
        let changedFiles = originals.keys.filter { originals[$0] != fixed[$0] }.sorted()
        XCTAssertEqual(changedFiles.count, 9, "the example app has 9 files to fix")
        let again = try copyOfExampleApp()
        XCTAssertEqual(try runToCompletion(binary, ["fix", again.path]).status, 0)
        XCTAssertEqual(try regularFiles(in: again.url), fixed, "two complete runs disagree")

        // Three kinds of moments, in turn. A third of the kills land at a seeded time in the first
        // 150 ms (mostly during the scan). The writes come at the very end of a run, whose length
        // varies with the machine's load, so the others watch the files instead of the clock: one
        // third kill as soon as a temporary file appears (between mkstemp and rename), the last third
        // a seeded 0-10 ms after the first rename (between writes). The test asserts only what must
        // hold wherever the kill lands, and prints where they landed.
        let folders = Set(changedFiles.map { ($0 as NSString).deletingLastPathComponent })
        var random = SeededRandom(seed: 0x5EED_0F_F1C5)
        var states: [String: Int] = [:]
        var leftovers: [String] = []
        for round in 0..<25 {
            let tree = try copyOfExampleApp()
            let inodes = Dictionary(uniqueKeysWithValues: changedFiles.map { ($0, inode(tree.url.appendingPathComponent($0).path)) })
            let delay = random.below(150_000)
            let afterRename = random.below(10_000)
            let process = Process()
            process.executableURL = binary
            process.arguments = ["fix", tree.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            switch round % 3 {
            case 0:
                usleep(useconds_t(delay))
            case 1:
                while process.isRunning, !folders.contains(where: { folder in
                    ((try? FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(folder).path)) ?? [])
                        .contains(where: Self.isLoadauditTemporary)
                }) { usleep(200) }
            default:
                while process.isRunning, !inodes.contains(where: { inode(tree.url.appendingPathComponent($0.key).path) != $0.value }) { usleep(200) }
                usleep(useconds_t(afterRename))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let after = try regularFiles(in: tree.url)
            var original = 0
            var done = 0
            for (path, bytes) in after {
                if let before = originals[path] {
                    let isOriginal = bytes == before
                    let isFixed = bytes == fixed[path]
                    XCTAssertTrue(isOriginal || isFixed, "round \(round): \(path) is neither the original nor the fixed file (\(bytes.count) bytes)")
                    if before != fixed[path] {
                        if isOriginal { original += 1 } else if isFixed { done += 1 }
                    }
                } else if Self.isLoadauditTemporary(path) {
                    leftovers.append("round \(round): \(path) (\(bytes.count) bytes)")
                } else {
                    XCTFail("round \(round): a stray file was left: \(path)")
                }
            }
            for path in originals.keys where after[path] == nil {
                XCTFail("round \(round): \(path) is gone")
            }
            let state = done == 0 ? "before any write" : original == 0 ? "after the last write" : "between writes"
            states[state, default: 0] += 1

            // The next complete run finishes the job and removes what the killed run left behind.
            let rerun = try runToCompletion(binary, ["fix", tree.path])
            XCTAssertLessThanOrEqual(rerun.status, 1, "round \(round): the run after the kill failed")
            let final = try regularFiles(in: tree.url)
            XCTAssertEqual(final.keys.filter(Self.isLoadauditTemporary), [], "round \(round): temporary files survived the next run")
            for (path, bytes) in final where originals[path] != nil {
                XCTAssertEqual(bytes, fixed[path], "round \(round): \(path) is not fully fixed after the next run")
            }
        }
        // Worth knowing, not a failure: SIGKILL cannot be caught, so a temporary file being written
        // when the kill lands stays behind (the target itself is intact) until the next run.
        print("KillDuringFixTests: 25 kills: \(states.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "));"
              + " \(leftovers.count) temporary file(s) left\(leftovers.isEmpty ? "" : ": " + leftovers.joined(separator: "; "))")
    }

    // MARK: a file turned into a folder between the scan and the write

    /// A named pipe sorts last and holds the scan until the test writes to it: by then the other files
    /// have been read (they are handed to the workers in order), and the test swaps A.swift for a folder.
    func testAFileReplacedByAFolderBetweenScanAndWriteIsReportedAndTheOthersFixed() throws {
        let spinner = "import SwiftUI\nlet s = ThemedSpinnerCompact()\n"
        var files = ["A.swift": spinner, "B.swift": spinner]
        for index in 0..<30 { files[String(format: "F%02d.swift", index)] = "import SwiftUI\nlet x = \(index)\n" }
        let tree = try TemporaryTree(files)
        let gate = tree.url.appendingPathComponent("zz-gate.swift").path
        guard mkfifo(gate, 0o644) == 0 else { throw XCTSkip("cannot make a named pipe: \(String(cString: strerror(errno)))") }

        final class Outcome: @unchecked Sendable { var run: CLIRun? }
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        let path = tree.path
        Thread.detachNewThread {
            outcome.run = CLIRun(["fix", "."], in: path)
            finished.signal()
        }
        // Open the pipe for writing once the scan has opened it for reading (a safety deadline only).
        var descriptor: Int32 = -1
        let deadline = Date().addingTimeInterval(120)
        while descriptor < 0 && Date() < deadline {
            descriptor = open(gate, O_WRONLY | O_NONBLOCK)
            if descriptor < 0 { usleep(2_000) }
        }
        guard descriptor >= 0 else {
            XCTFail("the scan never opened the named pipe")
            return
        }
        let a = tree.url.appendingPathComponent("A.swift")
        try FileManager.default.removeItem(at: a)
        try FileManager.default.createDirectory(at: a, withIntermediateDirectories: false)
        let content = Array("import SwiftUI\nlet gate = 1\n".utf8)
        _ = content.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        close(descriptor)
        XCTAssertEqual(finished.wait(timeout: .now() + 300), .success, "fix did not finish")
        guard let run = outcome.run else { return }

        XCTAssertEqual(run.status, 1, run.output + run.errors)
        XCTAssertTrue(run.output.contains("not fixed: A.swift: could not be written (no longer a regular file)"), run.output)
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: a.path, isDirectory: &isDirectory) && isDirectory.boolValue, "the folder was replaced")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: a.path), [], "something was written into the folder")
        XCTAssertEqual(try String(contentsOf: tree.url.appendingPathComponent("B.swift"), encoding: .utf8),
                       "import SwiftUI\nlet s = LoadingSpinner(size: .small)\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tree.path).filter { $0.contains("loadaudit") }
        XCTAssertEqual(leftovers, [])
    }

    // MARK: a full disk

    func testOnAFullDiskTheFileThatDoesNotFitIsReportedAndTheOthersFixed() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("loadaudit-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path]
        mount.standardOutput = FileHandle.nullDevice
        mount.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: "/bin/mount"), (try? mount.run()) != nil else {
            throw XCTSkip("cannot run mount")
        }
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw XCTSkip("cannot mount a 64 KB tmpfs (needs root and CAP_SYS_ADMIN)") }
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [mountPoint.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }

        // Big.swift needs 11 pages for its temporary file, Small.swift one; two are left free.
        let comment = "// " + String(repeating: "x", count: 76) + "\n"
        let big = "import SwiftUI\nlet s = ThemedSpinnerCompact()\n" + String(repeating: comment, count: 550)
        let small = "import SwiftUI\nlet s = ThemedSpinnerCompact()\n"
        try Data(big.utf8).write(to: mountPoint.appendingPathComponent("Big.swift"))
        try Data(small.utf8).write(to: mountPoint.appendingPathComponent("Small.swift"))
        let filler = mountPoint.appendingPathComponent("filler.bin").path
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let page = [UInt8](repeating: 0x2E, count: 4096)
        var filled = 0
        while page.withUnsafeBytes({ write(descriptor, $0.baseAddress!, $0.count) }) == 4096 { filled += 4096 }
        XCTAssertEqual(errno, ENOSPC)
        XCTAssertEqual(ftruncate(descriptor, off_t(max(0, filled - 8192))), 0)
        close(descriptor)

        let run = CLIRun(["fix", "."], in: mountPoint.path)
        XCTAssertEqual(run.status, 1, run.output + run.errors)
        XCTAssertTrue(run.output.contains("not fixed: Big.swift: could not be written (No space left on device): the original is untouched"), run.output)
        XCTAssertEqual(run.output.components(separatedBy: "not fixed:").count - 1, 1, run.output)
        XCTAssertEqual(try String(contentsOf: mountPoint.appendingPathComponent("Big.swift"), encoding: .utf8), big, "Big.swift was changed")
        XCTAssertEqual(try String(contentsOf: mountPoint.appendingPathComponent("Small.swift"), encoding: .utf8),
                       "import SwiftUI\nlet s = LoadingSpinner(size: .small)\n")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: mountPoint.path))
        XCTAssertEqual(names, ["Big.swift", "Small.swift", "filler.bin"], "a temporary file was left behind")
    }
}
