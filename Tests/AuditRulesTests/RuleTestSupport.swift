import AuditModel
import AuditRules
import TreeSitter
import XCTest

/// Runs rules over in-memory files, the way the scanner does, without touching the disk.
enum RuleHarness {
    /// The migration table's rules (the label and rotation rules have tests of their own).
    static let builtIn: RuleSet = {
        var rules = RuleSet.builtIn()
        rules.apply(severities: ["loading-label-style": nil, "rotating-loading-message": nil])
        return rules
    }()

    static func findings(files: [String: String], rules: RuleSet = builtIn) throws -> [Finding] {
        let engine = RuleEngine(ruleSet: rules)
        let parser = try Parser()
        let analyses = try files.keys.sorted().map { name in
            engine.analyze(tree: try parser.parse(files[name]!), file: name)
        }
        return engine.resolve(analyses)
    }

    static func findings(_ source: String, rules: RuleSet = builtIn) throws -> [Finding] {
        try findings(files: ["View.swift": source], rules: rules)
    }

    static func analysis(_ source: String, rules: RuleSet = builtIn) throws -> FileAnalysis {
        RuleEngine(ruleSet: rules).analyze(tree: try Parser().parse(source), file: "View.swift")
    }

    /// A SwiftUI view whose body holds `code`, so examples read like real view code.
    static func inView(_ code: String) -> String {
        """
        import SwiftUI

        struct ExampleView: View {
            @State private var isLoading = true
            var body: some View {
                VStack {
                    \(code.replacingOccurrences(of: "\n", with: "\n            "))
                }
            }
        }

        """
    }
}

/// Code with a `↓` where the finding must start, as in SwiftLint's rule examples.
struct MarkedSource {
    let text: String
    let line: Int
    let column: Int

    init(_ marked: String) {
        let marker: Character = "↓"
        guard let index = marked.firstIndex(of: marker) else {
            text = marked
            line = 0
            column = 0
            return
        }
        let before = marked[..<index]
        line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
        column = before[lineStart...].unicodeScalars.count + 1
        var stripped = marked
        stripped.remove(at: index)
        text = stripped
    }
}

/// Checks that each rules-file text fails to load with a located error: its line and a fragment of
/// what is wrong (`file` is the name the loader gives the text).
func assertLocatedErrors(
    _ cases: [(text: String, line: Int, fragment: String)], file: String = "team.yml", line: UInt = #line
) {
    for (text, expectedLine, fragment) in cases {
        XCTAssertThrowsError(try RuleSet.load(text: text, file: file), text, line: line) { error in
            guard let error = error as? RulesFileError else { return XCTFail("\(error)", line: line) }
            XCTAssertEqual(error.file, file, line: line)
            XCTAssertEqual(error.line, expectedLine, "\(error)", line: line)
            XCTAssertTrue(error.problem.contains(fragment), "'\(error.problem)' lacks '\(fragment)'", line: line)
        }
    }
}
