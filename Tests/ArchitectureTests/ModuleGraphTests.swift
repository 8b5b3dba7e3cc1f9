import Foundation
import XCTest

/// The module graph of docs/architecture.md ("The module graph", one table) is the house: every
/// `import` of Sources/ and every target dependency of Package.swift must be in it, and every entry of
/// it must be used, so the drawing cannot drift from the code.
final class ModuleGraphTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A row of the table: a module, what its Swift files import of the other modules, and what else
    /// its target depends on (a C target it links or includes, no Swift `import`).
    struct Row: Equatable {
        let module: String
        let imports: Set<String>
        let alsoDependsOn: Set<String>
    }

    /// The rows of the table under "## The module graph", top to bottom.
    static func table() throws -> [Row] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let section = text.components(separatedBy: "\n## The module graph\n").dropFirst().first else { return [] }
        let body = section.components(separatedBy: "\n## ").first ?? section
        // The names in backquotes; the rest of a cell is words for people.
        func names(_ cell: Substring) -> Set<String> { Set(cell.matches(of: #/`([A-Za-z]+)`/#).map { String($0.1) }) }
        return body.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            let columns = Array(cells)
            return Row(module: columns[0].replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces),
                       imports: columns.count > 1 ? names(columns[1]) : [], alsoDependsOn: columns.count > 2 ? names(columns[2]) : [])
        }
    }

    /// The modules of Sources/ (one folder each).
    static func sourceModules() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).filter { !$0.hasPrefix(".") })
    }

    /// What a module's Swift files import (`import X`, `@testable import X`, `public import X`, ...),
    /// every line of every file, `#if` branches included.
    static func imports(of module: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(module)")
        var found = Set<String>()
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains($0) }),
                      index + 1 < words.count else { continue }
                // `import struct Foundation.URL`, `import Foundation.NSString`: the module is the first name.
                let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
                let name = kinds.contains(words[index + 1]) && index + 2 < words.count ? words[index + 2] : words[index + 1]
                found.insert(String(name.split(separator: ".")[0]))
            }
        }
        return found
    }

    /// Each target's dependencies in Package.swift that are targets of this package (products of
    /// other packages left out), by target name.
    static func packageDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let characters = Array(manifest)
        var result: [String: Set<String>] = [:]
        for opener in [".target(", ".executableTarget(", ".systemLibrary(", ".testTarget("] {
            var search = manifest.startIndex
            while let range = manifest.range(of: opener, range: search..<manifest.endIndex) {
                search = range.upperBound
                // The call's text, to its closing parenthesis.
                var depth = 1
                var index = manifest.distance(from: manifest.startIndex, to: range.upperBound)
                let start = index
                while index < characters.count, depth > 0 {
                    if characters[index] == "(" { depth += 1 } else if characters[index] == ")" { depth -= 1 }
                    index += 1
                }
                let call = String(characters[start..<(index - 1)])
                guard let name = call.firstMatch(of: #/name: "([^"]+)"/#)?.1 else { continue }
                var dependencies = Set<String>()
                if let list = call.firstMatch(of: #/dependencies: \[([^\]]*)\]/#)?.1 {
                    let targets = String(list).replacing(#/\.product\([^)]*\)/#, with: "")
                    for match in targets.matches(of: #/"([^"]+)"/#) { dependencies.insert(String(match.1)) }
                }
                result[String(name)] = dependencies
            }
        }
        return result
    }

    func testTheTableNamesEveryModuleOfSourcesOnce() throws {
        let table = try Self.table()
        XCTAssertGreaterThan(table.count, 15, "the table under \"## The module graph\" in docs/architecture.md")
        XCTAssertEqual(table.map(\.module).sorted(), try Self.sourceModules().sorted())
        XCTAssertEqual(Set(table.map(\.module)).count, table.count, "a module listed twice")
    }

    func testEveryImportOfSourcesIsInTheTableAndEveryEntryIsAnImport() throws {
        let table = try Self.table()
        let modules = try Self.sourceModules()
        for row in table {
            let imported = try Self.imports(of: row.module).intersection(modules)
            XCTAssertEqual(imported.subtracting(row.imports).sorted(), [], "\(row.module) imports what the table does not give it")
            XCTAssertEqual(row.imports.subtracting(imported).sorted(), [], "the table gives \(row.module) imports it does not have")
        }
    }

    func testPackageDependenciesAreTheTablesImportsAndLinks() throws {
        let dependencies = try Self.packageDependencies()
        for row in try Self.table() {
            XCTAssertEqual(dependencies[row.module]?.sorted(), row.imports.union(row.alsoDependsOn).sorted(), "Package.swift's dependencies of \(row.module)")
        }
    }

    func testDependenciesPointDownThePage() throws {
        let table = try Self.table()
        for (position, row) in table.enumerated() {
            let above = Set(table[...position].map(\.module))
            XCTAssertEqual(row.imports.union(row.alsoDependsOn).intersection(above).sorted(), [], "\(row.module) depends on a module above it")
        }
    }

    /// One door: the command line does its work through `Audit` (which a language server shares) and
    /// imports the stages below only for the values it renders; it never reads, selects, parses for
    /// findings, plans edits or asks git itself. (`syntax FILE`, the tree dumper, walks the tree Audit
    /// parsed: `TreeSitter` for its nodes.)
    func testTheCommandLineDoesNoWorkAroundAudit() throws {
        let work: Set<String> = ["AuditScan", "AuditSelect", "AuditFix", "AuditConfig", "AuditGit", "SwiftGrammar", "ChildProcess"]
        XCTAssertEqual(try Self.imports(of: "LoadAuditCLI").intersection(work).sorted(), [])
    }

    /// The rotating-text analysis sits below the rules: it knows no rules file, no other rule kind,
    /// nothing of selection, scanning or reports.
    func testTheRotationAnalysisKnowsNoRules() throws {
        let above: Set<String> = ["AuditRules", "AuditSelect", "AuditScan", "Audit", "AuditReport", "AuditConfig", "LoadAuditCLI"]
        let imports = try Self.imports(of: "AuditRotation")
        XCTAssertTrue(imports.contains("SwiftGrammar"), "Sources/AuditRotation: the analysis reads trees")
        XCTAssertEqual(imports.intersection(above).sorted(), [])
    }

    /// Each Swift module but the one-line executable has a main file whose header says what it owns
    /// and what it must not do (`// Module: ... must not ...`).
    func testEveryModuleHeaderSaysWhatItMustNotDo() throws {
        for module in try Self.sourceModules().sorted() where module != "loadaudit" {
            let folder = Self.root.appendingPathComponent("Sources/\(module)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            guard !files.isEmpty else { continue }
            let headers = try files.map { file -> String in
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                return text.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("//") }.joined(separator: " ")
            }.filter { $0.hasPrefix("// \(module):") }
            XCTAssertEqual(headers.count, 1, "\(module): one file starting with \"// \(module): ...\"")
            XCTAssertTrue(headers.first?.contains("must not") == true, "\(module)'s header says what it must not do")
        }
    }

    /// No Swift file of Sources/ is over 500 lines: a file a reader takes in whole, split where the
    /// code has a seam. The rules files that `scripts/embed-rules` writes into Swift are data, read
    /// (and grown by their examples) as YAML in rules/: they are not counted.
    func testNoSourceFileIsOverFiveHundredLines() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 50)
        var long: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.hasPrefix("// Generated by scripts/embed-rules from rules/") { continue }
            let count = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            if count > 500 { long.append("\(file.path.dropFirst(sources.path.count + 1)): \(count) lines") }
        }
        XCTAssertEqual(long.sorted(), [])
    }

    /// The parts of the test read what they should (or each would pass on nothing).
    func testTheReadersFindWhatIsThere() throws {
        XCTAssertTrue(try Self.imports(of: "TreeSitter").isSuperset(of: ["CTreeSitter", "CParseArena"]))
        let dependencies = try Self.packageDependencies()
        XCTAssertEqual(dependencies["LoadAuditCLI"]?.contains("ArgumentParser"), false, "products of other packages are left out")
        XCTAssertEqual(dependencies["loadaudit"], ["LoadAuditCLI"])
    }
}
