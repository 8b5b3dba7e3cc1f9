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
        let all = RotationAxes.combinations().filter(RotationAxes.isReached)
        var random = SeededRandom(seed: UInt64(environment["LOADAUDIT_GENERATED_SEED"] ?? "") ?? 41)
        let wanted = environment["LOADAUDIT_GENERATED_PROJECTS"] ?? "all"
        var sample = all
        if let count = Int(wanted), count < all.count {
            sample = []
            var left = all
            for _ in 0..<count { sample.append(left.remove(at: random.below(left.count))) }
        }
        var failures: [(RotationProject, String)] = []
        for choice in sample {
            let project = RotationProjectWriter(choice: choice).project()
            if let problem = try Self.problem(project) { failures.append((project, problem)) }
        }
        guard let (first, problem) = failures.first else { return }
        let shrunk = try Self.shrink(Dictionary(uniqueKeysWithValues: first.choices.map { ($0.axis, $0.option) }))
        XCTFail("""
        \(failures.count) of \(sample.count) generated projects (of \(all.count) combinations) differ from their labels; the first: \(first)
        \(problem)
        shrunk to: \(shrunk.project) -- \(shrunk.problem)
        \(shrunk.project.listing)
        every failing combination:
        \(failures.map { "\($0.0): \($0.1)" }.joined(separator: "\n"))
        """)
    }

    /// Each option the rule does not reach yet still fails in the plainest project that has it (the
    /// other axes at their first coherent option): when one starts to pass, it leaves the list and
    /// its combinations join the sample.
    func testTheUnreachedOptionsStillFail() throws {
        for pattern in RotationAxes.unreached {
            let plainest = RotationAxes.combinations().first { RotationAxes.matches($0, pattern) }
            let choice = try XCTUnwrap(plainest, "\(pattern) makes no coherent project")
            let project = RotationProjectWriter(choice: choice).project()
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

    /// The simplest coherent combination that still fails: each axis in turn set to its earlier
    /// options (the plainest first), kept where the project still fails, until nothing changes.
    static func shrink(_ start: [String: String]) throws -> (project: RotationProject, problem: String) {
        var current = start
        var problem = try problem(RotationProjectWriter(choice: current).project()) ?? "passes"
        var changed = true
        while changed {
            changed = false
            for (axis, options) in RotationAxes.all {
                for option in options.prefix(while: { $0 != current[axis] }) {
                    var candidate = current
                    candidate[axis] = option
                    guard RotationAxes.isCoherent(candidate),
                          let failing = try Self.problem(RotationProjectWriter(choice: candidate).project()) else { continue }
                    current = candidate
                    problem = failing
                    changed = true
                    break
                }
            }
        }
        return (RotationProjectWriter(choice: current).project(), problem)
    }
}
