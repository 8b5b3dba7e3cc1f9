import AuditModel
import XCTest

@testable import Audit

/// The editor's entries into Audit (`loadaudit lsp`): a buffer judged in its place with the other open
/// buffers' texts, one finding's fix, and where a rules file's mistake is.
final class BufferStepsTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("buffer-steps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/Sources", withIntermediateDirectories: true)
        // The buffers' texts live outside the project, as the server's stand-ins do.
        try FileManager.default.createDirectory(atPath: folder + "-buffers", withIntermediateDirectories: true)
        try write(".loadaudit.yml", "fail-on: error\n")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.removeItem(atPath: folder + "-buffers")
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }

    private func audit() throws -> Audit {
        var setup = AuditSetup(currentDirectory: folder, toolVersion: "test")
        setup.allowsEmpty = true
        return try Audit(setup, paths: [folder + "/Sources/Screen.swift"])
    }

    private let screen = """
        import SwiftUI

        struct Screen: View {
            @State private var busy = true
            var body: some View {
                VStack {
                    if busy { ProgressView() }
                    Text("Ready")
                    ProgressView().controlSize(.small)
                }
            }
        }

        """

    /// Another open buffer's unsaved declaration of its own `ProgressView` shadows SwiftUI's for the
    /// judged buffer, as the same text saved would.
    func testAnOpenBufferStandsInForItsFileInTheProjectsFacts() throws {
        try write("Sources/Screen.swift", screen)
        try write("Sources/Own.swift", "import SwiftUI\n")
        try write("../\((folder as NSString).lastPathComponent)-buffers/screen-buffer.swift", screen)
        try write("../\((folder as NSString).lastPathComponent)-buffers/own-buffer.swift", "import SwiftUI\n\nstruct ProgressView: View {\n    var body: some View { Text(\"busy\") }\n}\n")
        let standIn = StandIn(file: folder + "-buffers/screen-buffer.swift", name: folder + "/Sources/Screen.swift")
        let (alone, _) = try audit().judge(standIn)
        XCTAssertEqual(alone.findings.map(\.ruleId), ["raw-progress-view", "raw-progress-view"])
        XCTAssertEqual(Set(alone.findings.map(\.file)), [folder + "/Sources/Screen.swift"])
        let (withOwn, _) = try audit().judge(standIn, openBuffers: OpenBuffers([folder + "/Sources/Own.swift": folder + "-buffers/own-buffer.swift"]))
        XCTAssertEqual(withOwn.findings.map(\.ruleId), [], "the open buffer's own ProgressView is the one used")
    }

    /// The judged buffer is read and parsed once, though it is both named and reached by the walk of
    /// its project (it was parsed twice: twice the cost of each keystroke in a large file).
    func testTheJudgedBufferIsParsedOnce() throws {
        try write("Sources/Screen.swift", screen)
        try write("Sources/Other.swift", "import SwiftUI\n\nlet other = ProgressView()\n")
        try write("../\((folder as NSString).lastPathComponent)-buffers/screen-buffer.swift", screen)
        let lines = TraceLines()
        var audit = try audit()
        audit.scanner.trace = { lines.append($0) }
        let standIn = StandIn(file: folder + "-buffers/screen-buffer.swift", name: folder + "/Sources/Screen.swift")
        let (judged, _) = try audit.judge(standIn)
        XCTAssertEqual(judged.findings.count, 2)
        let parses = lines.all.filter { $0.hasPrefix("parsed ") }
        XCTAssertEqual(parses.filter { $0.hasSuffix("Screen.swift") }.count, 1, parses.joined(separator: "\n"))
        XCTAssertEqual(parses.filter { $0.hasSuffix("Other.swift") }.count, 1, parses.joined(separator: "\n"))
    }

    /// With a cache, the project's other files are kept and the judged buffer is not (its text
    /// changes at every keystroke).
    func testTheJudgedBufferIsNotCachedAndTheOtherFilesAre() throws {
        try write("Sources/Screen.swift", screen)
        try write("Sources/Other.swift", "import SwiftUI\n\nlet other = ProgressView()\n")
        try write("../\((folder as NSString).lastPathComponent)-buffers/screen-buffer.swift", screen)
        var setup = AuditSetup(currentDirectory: folder, toolVersion: "test")
        setup.cacheFolder = folder + "-buffers/cache"
        let audit = try Audit(setup, paths: [folder + "/Sources/Screen.swift"])
        let standIn = StandIn(file: folder + "-buffers/screen-buffer.swift", name: folder + "/Sources/Screen.swift")
        let (judged, _) = try audit.judge(standIn)
        XCTAssertEqual(judged.findings.count, 2)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder + "-buffers/cache").filter { $0.hasSuffix(".json") }
        XCTAssertEqual(kept.count, 1, "Other.swift only: \(kept)")
    }

    /// One finding's fix changes that finding alone; all safe fixes are what `fix` writes.
    func testOneFindingsFixAndTheSafeFixesOfABuffer() throws {
        try write("Sources/Screen.swift", "import SwiftUI\n")
        try write("../\((folder as NSString).lastPathComponent)-buffers/screen-buffer.swift", screen)
        let standIn = StandIn(file: folder + "-buffers/screen-buffer.swift", name: folder + "/Sources/Screen.swift")
        let audit = try audit()
        let (judged, _) = try audit.judge(standIn)
        let second = try XCTUnwrap(judged.findings.last)
        let offset = second.start.byteOffset
        let one = try XCTUnwrap(audit.fixedText(standIn, classes: [.safe], only: { $0.start.byteOffset == offset }))
        let oneText = String(decoding: one, as: UTF8.self)
        XCTAssertTrue(oneText.contains("if busy { ProgressView() }"), oneText)
        XCTAssertTrue(oneText.contains("LoadingSpinner(size: .small)\n"), oneText)
        let all = try XCTUnwrap(audit.fixedText(standIn, classes: [.safe]))
        try write("Sources/Screen.swift", screen)
        let plan = try audit.fix([folder + "/Sources/Screen.swift"], classes: [.safe])
        XCTAssertEqual(String(decoding: all, as: UTF8.self), String(decoding: try XCTUnwrap(plan.files.first).fixed, as: UTF8.self))
        XCTAssertNil(try audit.fixedText(standIn, classes: [.safe], only: { _ in false }), "nothing to change: nothing offered")
    }

    /// A rules file that does not read: the error names each mistake's file and line.
    func testARulesFileMistakeHasItsPlace() throws {
        try write(".loadaudit.yml", "rules: [team.yml]\n")
        try write("team.yml", "version: 1\nname: team\nrules:\n  - id: old-badge\n    component: OldBadge\n    message: gone\n    fix: sometimes\n")
        XCTAssertThrowsError(try audit()) { error in
            let places = (error as? AuditError)?.places ?? []
            XCTAssertEqual(places.map(\.file), [folder + "/team.yml"])
            XCTAssertEqual(places.map(\.line), [7])
        }
    }
}

/// The scanner's trace lines, told from its workers.
private final class TraceLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
