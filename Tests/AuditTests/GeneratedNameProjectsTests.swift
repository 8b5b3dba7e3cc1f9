import Audit
import AuditModel
import Foundation
import LoadAuditTestSupport
import XCTest

/// Swift's name lookup on projects nobody wrote by hand: `NameAxes` crossed, each project written by
/// `NameProjectWriter` with its label, scanned through the Audit layer as `scan` runs (the select step
/// and the project model included), and the findings in the use's file compared with the label. A
/// failure is shrunk to the plainest combination that still fails and printed whole.
///
/// In the suite: 300 of the coherent combinations the rules reach, drawn with a fixed seed;
/// `LOADAUDIT_GENERATED_NAMES=COUNT|all` and `LOADAUDIT_GENERATED_SEED=N` run more, for people:
/// `scripts/generated-name-projects`.
final class GeneratedNameProjectsTests: XCTestCase {
    func testEveryGeneratedProjectGivesItsLabels() throws {
        let environment = ProcessInfo.processInfo.environment
        // The suite draws 300 (20 to 30 s of a debug build); scripts/generated-name-projects runs all.
        let (sample, total) = NameAxes.sample(Int(environment["LOADAUDIT_GENERATED_NAMES"] ?? "300"),
                                                 seed: UInt64(environment["LOADAUDIT_GENERATED_SEED"] ?? "") ?? 41)
        if let failures = try NameAxes.failures(sample, of: total, problem: Self.problem) { XCTFail(failures) }
    }

    /// Each option the rules do not reach yet still fails in the plainest project that has it.
    func testTheUnreachedOptionsStillFail() throws {
        for pattern in NameAxes.unreached {
            let plainest = NameAxes.combinations().first { NameAxes.matches($0, pattern) }
            let choice = try XCTUnwrap(plainest, "\(pattern) makes no coherent project")
            let project = NameAxes.project(choice)
            XCTAssertNotNil(try Self.problem(project), "\(project) is right now: take \(pattern) out of NameAxes.unreached")
        }
    }

    /// The shapes the first runs found wrong, whatever the sample draws: a pattern rule's name in
    /// `import struct Kit.NavigationView`, `extension Kit.LoadingOverlay` of a package's class.
    func testTheShapesTheFirstRunsFound() throws {
        for choice in [
            ["rule": "pattern", "layout": "appAndPackage", "declared": "packageView", "site": "app", "imports": "importStruct", "form": "call", "qualified": "bare"],
            ["rule": "component", "layout": "appAndPackage", "declared": "both", "site": "app", "imports": "imported", "form": "extension", "qualified": "qualified"],
            ["rule": "component", "layout": "twoPackages", "declared": "both", "site": "kit", "imports": "testable", "form": "extension", "qualified": "qualified"],
        ] {
            let project = NameAxes.project(choice)
            XCTAssertNil(try Self.problem(project), "\(project)\n\(project.listing)")
        }
    }

    /// The labels themselves, on the shapes issue 41 names: Swift's lookup and the rules' decision.
    func testTheLabelsFollowSwiftsLookup() {
        func label(_ choice: [String: String]) -> Bool? {
            let lookup = NameLookup(["rule": "component", "layout": "appAndPackage", "site": "app", "imports": "imported", "form": "cast",
                                     "qualified": "bare"].merging(choice) { $1 })
            return lookup.resolution == nil ? nil : lookup.isDeprecated
        }
        // TrailMaps: the app's view and the package's class; the app's bare use is its own view, `Kit.LoadingOverlay` the class.
        XCTAssertEqual(label(["declared": "both"]), true)
        XCTAssertEqual(label(["declared": "both", "qualified": "qualified"]), false)
        XCTAssertEqual(label(["declared": "both", "site": "kit"]), false)
        // No view of the name in the tree: every use counts (LoadingTextGenerator in the corpus), the class's own module included.
        XCTAssertEqual(label(["declared": "packageClass", "site": "kit"]), true)
        XCTAssertEqual(label(["declared": "nowhere"]), true)
        // Two imported modules' types of the name: the project would not build.
        XCTAssertNil(label(["declared": "both", "layout": "twoPackages"]))
        XCTAssertEqual(label(["declared": "both", "layout": "twoPackages", "imports": "notImported"]), nil)
        // SwiftUI's NavigationView beside a package's view (which imports SwiftUI): the package's shadows it.
        XCTAssertEqual(label(["rule": "pattern", "declared": "packageView"]), true)
        // Beside a package's class: ambiguous with SwiftUI's, not written; in the package itself, its own.
        XCTAssertNil(label(["rule": "pattern", "declared": "packageClass"]))
    }

    /// What differs between the findings in the use's file and its label, or nil.
    static func problem(_ project: NameProject) throws -> String? {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in project.files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        var setup = AuditSetup(currentDirectory: root.path, toolVersion: "generated")
        setup.ruleIds = [project.ruleId]
        if project.ruleId == "navigation-view" { setup.rulesFiles = ["swiftui-deprecations"] }
        setup.readsConfig = false
        setup.honourGitignore = false
        setup.jobs = 1
        let audit = try Audit(setup, paths: ["."])
        let (result, _) = try audit.scanFindings(["."])
        let found = Set(result.findings.map { "\($0.file.hasPrefix("./") ? String($0.file.dropFirst(2)) : $0.file):\($0.start.line)" }
            .filter { $0.hasPrefix(project.useFile + ":") })
        guard found != project.expected else { return nil }
        return "missed \(project.expected.subtracting(found).sorted()), reported \(found.subtracting(project.expected).sorted())"
    }
}
