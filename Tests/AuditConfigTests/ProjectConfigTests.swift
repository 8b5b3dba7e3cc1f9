import AuditConfig
import AuditModel
import AuditRules
import Foundation
import XCTest

final class ProjectConfigTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("App/Sub"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ text: String) throws -> String {
        let path = folder.appendingPathComponent(".loadaudit.yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testReadsEveryKeyWithPathsRelativeToItsFolder() throws {
        let path = try write("""
        include: ["App/**"]
        exclude: ["**/Generated/**", "*Tests.swift"]
        rules: [team.yml]
        built-in-rules: false
        severity:
          raw-progress-view: error
          loading-dots: off
        baseline: ci/baseline.json
        fail-on: error
        """)
        let config = try ProjectConfig.load(path)
        XCTAssertEqual(config.rulesFiles, [folder.appendingPathComponent("team.yml").path])
        XCTAssertFalse(config.builtInRules)
        XCTAssertEqual(config.baseline, folder.appendingPathComponent("ci/baseline.json").path)
        XCTAssertEqual(config.failOn, .some(.error))
        XCTAssertEqual(config.severities["raw-progress-view"], .some(.error))
        XCTAssertEqual(config.severities["loading-dots"], .some(nil))
        XCTAssertTrue(config.admits(folder.appendingPathComponent("App/Screen.swift").path))
        XCTAssertFalse(config.admits(folder.appendingPathComponent("Other/Screen.swift").path))
        XCTAssertFalse(config.admits(folder.appendingPathComponent("App/Generated/Mocks.swift").path))
        XCTAssertFalse(config.admits(folder.appendingPathComponent("App/Sub/ScreenTests.swift").path))
    }

    func testIsFoundInTheScannedFolderOrAParent() throws {
        let path = try write("fail-on: never\n")
        XCTAssertEqual(ProjectConfig.find(from: folder.appendingPathComponent("App/Sub").path), path)
        XCTAssertEqual(ProjectConfig.find(from: folder.path), path)
    }

    func testMistakesAreErrorsWithFileAndLine() throws {
        let cases: [(String, Int, String)] = [
            ("include: [\"App/**\"]\nexclud: [x]\n", 2, "unknown key 'exclud'"),
            ("fail-on: sometimes\n", 1, "fail-on is 'sometimes'"),
            ("built-in-rules: maybe\n", 1, "true or false"),
            ("severity:\n  raw-progress-view: loud\n", 2, "expected off, note, warning or error"),
            ("baseline: [a, b]\n", 1, "single value"),
            ("severity: error\n", 1, "map rule ids"),
        ]
        for (text, line, fragment) in cases {
            let path = try write(text)
            XCTAssertThrowsError(try ProjectConfig.load(path), text) { error in
                guard let error = error as? RulesFileError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.line, line, "\(error)")
                XCTAssertTrue(error.problem.contains(fragment), "'\(error.problem)' lacks '\(fragment)'")
                XCTAssertEqual(error.file, path)
            }
        }
    }

    func testSeveritiesReLevelSwitchOffAndRejectUnknownRules() throws {
        var ruleSet = RuleSet.builtIn()
        let config = try ProjectConfig.load(try write("severity:\n  raw-progress-view: error\n  loading-dots: off\n  unused-suppression: off\n"))
        try config.apply(to: &ruleSet)
        XCTAssertEqual(ruleSet.rules.first { $0.id == "raw-progress-view" }?.severity, .error)
        XCTAssertNil(ruleSet.rules.first { $0.id == "loading-dots" })
        XCTAssertNil(ruleSet.unusedSuppressionSeverity)
        XCTAssertTrue(ruleSet.knownRuleIds.contains("loading-dots"), "a rule switched off is still known to suppressions")

        var fresh = RuleSet.builtIn()
        let typo = try ProjectConfig.load(try write("# team settings\nseverity:\n  raw-progres-view: error\n"))
        XCTAssertThrowsError(try typo.apply(to: &fresh)) { error in
            XCTAssertEqual((error as? RulesFileError)?.line, 3)
            XCTAssertTrue("\(error)".contains("'raw-progres-view', which is not a rule"))
        }
    }

    func testGlobs() throws {
        let cases: [(String, String, Bool)] = [
            ("*.swift", "A.swift", true), ("*.swift", "Deep/Down/A.swift", true), ("App/*.swift", "App/A.swift", true),
            ("App/*.swift", "App/Sub/A.swift", false), ("App/**/*.swift", "App/Sub/Deeper/A.swift", true), ("App/**", "App/A.swift", true),
            ("Generated", "App/Generated/A.swift", true), ("Generated/", "Generated/A.swift", true), ("?.swift", "AB.swift", false),
            ("App", "Application/A.swift", false), ("**/Tests/**", "Pkg/Tests/A.swift", true),
        ]
        for (pattern, path, expected) in cases {
            XCTAssertEqual(try Glob(pattern).matches(path), expected, "\(pattern) vs \(path)")
        }
    }
}
