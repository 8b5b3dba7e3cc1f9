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
            // A leading ./ or / is the configuration's folder.
            ("./Features/**", "Features/Games/A.swift", true), ("./Features/**", "Other/Features/A.swift", false),
            ("/Features", "Features/A.swift", true), ("././App/*.swift", "App/A.swift", true),
            // Classes, ranges, negated classes; never a slash.
            ("[TG]*.swift", "Trips.swift", true), ("[TG]*.swift", "Maps.swift", false), ("V[0-9].swift", "V7.swift", true),
            ("V[!0-9].swift", "V7.swift", false), ("V[^0-9].swift", "Vx.swift", true), ("a[/]b", "a/b", false),
            ("[]x].swift", "].swift", true), ("[a-]", "-", true),
            // Braces: alternatives, which may hold patterns; nested.
            ("{Views,Models}/**", "Models/A.swift", true), ("{Views,Models}/**", "Controllers/A.swift", false),
            ("App/{*View,Cells/**}.swift", "App/HomeView.swift", true), ("App/{*View,Cells/**}.swift", "App/Cells/Deep/A.swift", true),
            ("{a,{b,c}}.swift", "c.swift", true), ("{a,}x.swift", "x.swift", true),
            // A backslash takes the next character literally.
            ("\\*.swift", "*.swift", true), ("\\*.swift", "A.swift", false), ("a\\[b].swift", "a[b].swift", true),
        ]
        for (pattern, path, expected) in cases {
            XCTAssertEqual(try Glob(pattern).matches(path), expected, "\(pattern) vs \(path)")
        }
    }

    /// What the pattern syntax does not support is refused with the reason, never matched as text.
    func testPatternsThatCannotWorkAreErrors() throws {
        let cases: [(String, String)] = [
            ("!Legacy/**", "negation ('!') is not supported: list what to scan in include and what to leave out in exclude"), ("Legacy/[ab", "a '[' is never closed"),
            ("{Views,Models/**", "a '{' is never closed"), ("Views}/**", "a '}' closes no '{'"),
            ("./", "an empty pattern matches nothing"), ("Views\\", "a '\\' ends the pattern"),
        ]
        for (pattern, reason) in cases {
            XCTAssertThrowsError(try Glob(pattern), pattern) { error in
                XCTAssertEqual("\(error)", reason, pattern)
            }
            let path = try write("exclude:\n  - \"\(pattern.replacingOccurrences(of: "\\", with: "\\\\"))\"\n")
            XCTAssertThrowsError(try ProjectConfig.load(path), pattern) { error in
                XCTAssertEqual((error as? RulesFileError)?.line, 2, "\(error)")
                XCTAssertTrue("\(error)".contains("exclude: invalid pattern '\(pattern)': \(reason)"), "\(error)")
            }
        }
    }

    /// Which patterns matched a file, as the scan's walk asks, from several threads at once.
    func testItKnowsWhichPatternsMatchedNothing() throws {
        let config = try ProjectConfig.load(try write("include: [\"Features/**\", \"Featurs/**\"]\nexclude: [\"**/Generated\", \"Legacy\"]\n"))
        let folder = config.folder
        XCTAssertEqual(config.unmatchedPatterns, ["include: 'Features/**'", "include: 'Featurs/**'", "exclude: '**/Generated'", "exclude: 'Legacy'"])
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            _ = config.admits(folder + "/Features/F\(index).swift")
            _ = config.admits(folder + "/Features/Generated/G\(index).swift")
        }
        XCTAssertFalse(config.admits(folder + "/Legacy/Old.swift"), "not included: the exclude is not asked")
        XCTAssertEqual(config.unmatchedPatterns, ["include: 'Featurs/**'", "exclude: 'Legacy'"])
    }
}
