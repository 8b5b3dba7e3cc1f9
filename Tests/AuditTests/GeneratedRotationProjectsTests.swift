import Audit
import AuditModel
import Foundation
import LoadAuditTestSupport
import XCTest

/// The rotating-text rule on projects nobody wrote by hand: `RotationAxes` crossed, each project
/// written by `RotationProjectWriter` with its labels, scanned through the Audit layer as `scan` runs
/// (the select step, the follow-up and the project model included), and its findings compared with
/// its labels. A failure is shrunk to the simplest combination that still fails and printed whole.
///
/// In the suite: all the combinations the rule reaches (`RotationAxes.unreached`
/// lists what it does not); `LOADAUDIT_GENERATED_PROJECTS=COUNT` (a sample) and
/// `LOADAUDIT_GENERATED_SEED=N` run more, for people: `scripts/generated-projects`.
final class GeneratedRotationProjectsTests: XCTestCase {
    func testEveryGeneratedProjectGivesItsLabels() throws {
        let environment = ProcessInfo.processInfo.environment
        let (sample, total) = RotationAxes.sample(Int(environment["LOADAUDIT_GENERATED_PROJECTS"] ?? "all"),
                                                 seed: UInt64(environment["LOADAUDIT_GENERATED_SEED"] ?? "") ?? 41)
        if let failures = try RotationAxes.failures(sample, of: total, problem: Self.problem) { XCTFail(failures) }
    }

    /// Each option the rule does not reach yet still fails in the plainest project that has it (the
    /// other axes at their first coherent option): when one starts to pass, it leaves the list and
    /// its combinations join the sample.
    func testTheUnreachedOptionsStillFail() throws {
        for pattern in RotationAxes.unreached {
            let plainest = RotationAxes.combinations().first { RotationAxes.matches($0, pattern) }
            let choice = try XCTUnwrap(plainest, "\(pattern) makes no coherent project")
            let project = RotationAxes.project(choice)
            XCTAssertFalse(project.expected.isEmpty, "\(project) has no label")
            XCTAssertNotNil(try Self.problem(project), "\(project) is found now: take \(pattern) out of RotationAxes.unreached")
        }
    }

    /// What differs between the project's findings and its labels, or nil.
    static func problem(_ project: RotationProject) throws -> String? {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in project.files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        var setup = AuditSetup(currentDirectory: root.path, toolVersion: "generated")
        setup.ruleIds = ["rotating-loading-message"]
        setup.readsConfig = false
        setup.honourGitignore = false
        setup.jobs = 1
        let audit = try Audit(setup, paths: ["."])
        let (result, _) = try audit.scanFindings(["."])
        let found = Set(result.findings.map { "\($0.file.hasPrefix("./") ? String($0.file.dropFirst(2)) : $0.file):\($0.start.line)" })
        guard found != project.expected else { return nil }
        return "missed \(project.expected.subtracting(found).sorted()), reported \(found.subtracting(project.expected).sorted())"
    }
}
