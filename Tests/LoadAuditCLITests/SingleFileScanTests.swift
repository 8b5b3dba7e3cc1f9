import Foundation
import XCTest

/// A file scanned alone (the pre-commit hook's way, or `--stdin-filename`) is judged as the whole tree
/// judges it: the project around it (its `.loadaudit.yml`, its package manifest) is found and read for
/// its modules, imports and declarations, and only the named file is reported.
final class SingleFileScanTests: XCTestCase {
    /// A copy of `fixtures/NAME` in a temporary folder (outside this repository's git work tree, so
    /// that each fixture is a project of its own, found by its `.loadaudit.yml` or its manifest).
    private func copy(_ name: String) throws -> TemporaryTree {
        let source = Repository.root.appendingPathComponent("fixtures/\(name)")
        let tree = try TemporaryTree()
        for file in try FileManager.default.subpathsOfDirectory(atPath: source.path) {
            var isDirectory: ObjCBool = false
            let from = source.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: from.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            try tree.write(file, try Data(contentsOf: from))
        }
        return tree
    }

    /// Every finding of a JSON report, whole (rule, position, fix class, replacement, message, related
    /// places, fingerprint), as sorted-key JSON text, by file.
    private func findings(_ run: CLIRun, file: StaticString = #filePath, line: UInt = #line) throws -> [String: [String]] {
        guard let report = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] else {
            XCTFail("not a JSON report: \(run.output) \(run.errors)", file: file, line: line)
            return [:]
        }
        var byFile: [String: [String]] = [:]
        for finding in report["findings"] as! [[String: Any]] {
            let text = String(decoding: try JSONSerialization.data(withJSONObject: finding, options: [.sortedKeys]), as: UTF8.self)
            byFile[finding["file"] as! String, default: []].append(text)
        }
        return byFile
    }

    /// A `fix --dry-run` diff cut into its files' sections, by file. Cut by bytes: a file with CRLF line
    /// ends has `\r\n`, one Character to Swift.
    private func diffSections(_ diff: String) -> [String: String] {
        var sections: [String: [UInt8]] = [:]
        var current: String?
        let header = Array("--- a/".utf8)
        for line in Array(diff.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.starts(with: header) { current = String(decoding: line.dropFirst(header.count), as: UTF8.self) }
            if let current { sections[current, default: []] += line + [UInt8(ascii: "\n")] }
        }
        // The last file's section ends where the diff does: compared without the newlines after it.
        return sections.mapValues { bytes in
            var bytes = bytes
            while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The fixture's Swift files (relative paths), sorted.
    private func swiftFiles(in tree: TemporaryTree) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: tree.path).filter { $0.hasSuffix(".swift") && !$0.hasSuffix("Package.swift") }.sorted()
    }

    /// For every fixture: each Swift file scanned alone gives exactly its findings in the whole scan,
    /// and `fix --dry-run` on it alone exactly its part of the whole fix's diff (replacement and the
    /// imports the fix adds).
    func testEachFileScannedAloneIsJudgedAsTheWholeTreeJudgesIt() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("fixtures").path).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix("expected") && FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent("fixtures/\(name)").path, isDirectory: &isDirectory)
                && isDirectory.boolValue
                && (FileManager.default.subpaths(atPath: Repository.root.appendingPathComponent("fixtures/\(name)").path) ?? []).contains { $0.hasSuffix(".swift") }
        }.sorted()
        XCTAssertTrue(fixtures.contains("TripPlanner"))
        for fixture in fixtures {
            let tree = try copy(fixture)
            let rules = fixture == "TripPlanner" ? ["--rules", "trip-migration.yml"] : []
            let whole = try findings(CLIRun(["scan", "--format", "json"] + rules + ["."], in: tree.path))
            let wholeFix = diffSections(CLIRun(["fix", "--dry-run", "--unsafe"] + rules + ["."], in: tree.path).output)
            for file in try swiftFiles(in: tree) {
                let alone = try findings(CLIRun(["scan", "--format", "json"] + rules + [file], in: tree.path))
                XCTAssertEqual(alone.keys.sorted(), whole[file] == nil ? [] : [file], "\(fixture)/\(file)")
                XCTAssertEqual(alone[file] ?? [], whole[file] ?? [], "\(fixture)/\(file)")
                let fix = CLIRun(["fix", "--dry-run", "--unsafe"] + rules + [file], in: tree.path)
                XCTAssertEqual(diffSections(fix.output)[file], wholeFix[file], "\(fixture)/\(file): \(fix.errors)")
            }
        }
    }

    /// The case: MapKitExtras' own AKToast, in a file that imports only MapKitExtras, is not
    /// AlertKit's; where both are imported the finding is unsafe; standard input the same.
    func testAFileAloneKeepsItsModuleImportsAndTheOtherModulesDeclarations() throws {
        let tree = try copy("TripPlanner")
        let rules = ["--rules", "trip-migration.yml"]
        let map = CLIRun(["scan", "--format", "json"] + rules + ["Sources/TripPlanner/MapScreen.swift"], in: tree.path)
        XCTAssertEqual(map.status, 0, map.output + map.errors)
        XCTAssertEqual(try findings(map), [:])
        let mapFix = CLIRun(["fix", "--dry-run"] + rules + ["Sources/TripPlanner/MapScreen.swift"], in: tree.path)
        XCTAssertEqual(mapFix.output, "", mapFix.errors)
        let route = try findings(CLIRun(["scan", "--format", "json"] + rules + ["Sources/TripPlanner/RouteScreen.swift"], in: tree.path))
        XCTAssertEqual(route.values.flatMap { $0 }.count, 1)
        XCTAssertTrue(route["Sources/TripPlanner/RouteScreen.swift"]?.first?.contains("\"fix\":\"unsafe\"") ?? false, "\(route)")
        let text = try String(contentsOf: tree.url.appendingPathComponent("Sources/TripPlanner/MapScreen.swift"), encoding: .utf8)
        let stdin = CLIRun(["scan", "--format", "json"] + rules + ["--stdin-filename", "Sources/TripPlanner/MapScreen.swift", "-"], in: tree.path, input: text)
        XCTAssertEqual(try findings(stdin), [:], stdin.errors)
        let routeText = try String(contentsOf: tree.url.appendingPathComponent("Sources/TripPlanner/RouteScreen.swift"), encoding: .utf8)
        let routeStdin = try findings(CLIRun(["scan", "--format", "json"] + rules + ["--stdin-filename", "Sources/TripPlanner/RouteScreen.swift", "-"],
                                             in: tree.path, input: routeText))
        XCTAssertEqual(routeStdin, route)
    }

    /// `syntax --project FILE` shows the project around the file: the package's targets.
    func testSyntaxProjectOfAFileShowsThePackageAroundIt() throws {
        let tree = try copy("TripPlanner")
        let run = CLIRun(["syntax", "--project", "Sources/TripPlanner/MapScreen.swift"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        let modules = run.output.split(separator: "\n").filter { $0.hasPrefix("module ") }
        XCTAssertTrue(modules.contains { $0.hasPrefix("module MapKitExtras (package target)") }, run.output)
        XCTAssertTrue(modules.contains { $0.hasPrefix("module TripPlanner (package target)") }, run.output)
    }
}
