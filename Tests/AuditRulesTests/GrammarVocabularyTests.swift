import Foundation
import SwiftGrammar
import TreeSitter
import XCTest
import LoadAuditTestSupport

/// The engine names the grammar's node types and fields in string literals (`node.type ==
/// "call_expression"`, `child(byField: "target")`). A grammar that renames or drops one does not
/// break the build: the engine just stops matching. These tests read the literals out of the engine's
/// sources and check each against the grammar linked in, and list how often the fixtures' trees hold
/// each type (what a grammar upgrade must keep: see docs/grammar.md).
final class GrammarVocabularyTests: XCTestCase {
    static let repositoryRoot = RepositoryFolder.root
    /// The modules that read syntax trees.
    static let engineModules = ["AuditRules", "SwiftGrammar", "AuditScan", "LoadAuditCLI"]
    /// Literals in the same positions that are not the grammar's: words of the rules file's YAML
    /// (`case "true", "yes", "on"`) and callee names (`case "sleep"`).
    static let notGrammarWords: Set<String> = ["true", "yes", "on", "false", "no", "off", "sleep"]

    struct Vocabulary {
        var nodeTypes: Set<String> = []
        var fields: Set<String> = []
    }

    /// The literals in node-type positions (`type == "x"`, `type != "x"`, `ofType: "x"`, a `case "x", "y"`
    /// label, any literal with an underscore inside: `["class_declaration", ...]`) and in field positions
    /// (`byField: "x"`, `field == "x"`) of the engine's sources.
    static func engineVocabulary() throws -> Vocabulary { try vocabulary(of: engineModules) }

    /// The same, of these modules' sources; SwiftGrammar's table of names (`SwiftNodeTypes.swift`: a
    /// node type or a field a line, `static var callExpression: String { "call_expression" }`) counts whole.
    static func vocabulary(of modules: [String]) throws -> Vocabulary {
        let typePattern = try NSRegularExpression(pattern: #"(?:type ?[!=]= ?|ofType: )"([a-z_]+)"|"([a-z]+_[a-z_]+)""#)
        let caseLabel = try NSRegularExpression(pattern: #"\bcase ((?:"[a-z_]+"(?:, )?)+)(?: where [^:]+)?:"#)
        let literal = try NSRegularExpression(pattern: #""([a-z_]+)""#)
        let fieldPattern = try NSRegularExpression(pattern: #"(?:byField: |field ?[!=]= ?)"([a-z_]+)""#)
        var vocabulary = Vocabulary()
        /// The first group that took part in each match.
        func captures(_ regex: NSRegularExpression, in text: String) -> [String] {
            regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
                (1..<match.numberOfRanges).lazy.compactMap { Range(match.range(at: $0), in: text) }.first.map { String(text[$0]) }
            }
        }
        let named = try NSRegularExpression(pattern: #"static var `?[A-Za-z]+`?: String \{ "([a-z_]+)" \}"#)
        for module in modules {
            let folder = repositoryRoot.appendingPathComponent("Sources/\(module)")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                if name == "SwiftNodeTypes.swift" {
                    let parts = text.components(separatedBy: "public enum SwiftField")
                    vocabulary.nodeTypes.formUnion(captures(named, in: parts[0]))
                    vocabulary.fields.formUnion(captures(named, in: parts.dropFirst().joined()))
                    continue
                }
                vocabulary.nodeTypes.formUnion(captures(typePattern, in: text))
                for labels in captures(caseLabel, in: text) { vocabulary.nodeTypes.formUnion(captures(literal, in: labels)) }
                vocabulary.fields.formUnion(captures(fieldPattern, in: text))
            }
        }
        vocabulary.nodeTypes.subtract(notGrammarWords)
        // An underscore literal in a field position is a field (`byField: "declaration_kind"`).
        vocabulary.nodeTypes.subtract(vocabulary.fields)
        return vocabulary
    }

    func testEveryNodeTypeAndFieldTheEngineNamesIsTheGrammars() throws {
        let vocabulary = try Self.engineVocabulary()
        // The extraction finds the engine's staples, or it is broken and would pass on nothing.
        XCTAssertTrue(vocabulary.nodeTypes.isSuperset(of: ["call_expression", "navigation_expression", "simple_identifier", "lambda_literal", "value_argument"]),
                      vocabulary.nodeTypes.sorted().joined(separator: " "))
        XCTAssertTrue(vocabulary.fields.isSuperset(of: ["target", "suffix", "name", "value"]), vocabulary.fields.sorted().joined(separator: " "))
        XCTAssertGreaterThan(vocabulary.nodeTypes.count, 40)

        let grammar = Language.swift
        XCTAssertTrue(grammar.hasNodeType("call_expression", named: true) && !grammar.hasNodeType("call_expressions", named: true))
        XCTAssertTrue(grammar.fieldNames.contains("target"))
        let unknown = vocabulary.nodeTypes.filter { !grammar.hasNodeType($0, named: true) && !grammar.hasNodeType($0, named: false) }
        XCTAssertEqual(unknown.sorted(), [], "node types the engine names that the grammar does not have")
        let grammarFields = grammar.fieldNames
        XCTAssertEqual(vocabulary.fields.subtracting(grammarFields).sorted(), [], "fields the engine names that the grammar does not have")
    }

    /// Only SwiftGrammar writes the grammar's vocabulary: every other module asks for node types and
    /// fields by their names there (`SwiftNodeType`, `SwiftField`), so a grammar upgrade is checked in
    /// one place.
    func testOnlySwiftGrammarNamesNodeTypesAndFields() throws {
        let sources = Self.repositoryRoot.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") && $0 != "SwiftGrammar" }
        XCTAssertTrue(modules.contains("AuditRules"))
        // The extraction also takes words that are no node type (`case "day", "week"`, a CSV header
        // `"incomplete_files"`): what counts is a name the grammar has.
        let grammar = Language.swift
        let grammarFields = grammar.fieldNames
        for module in modules.sorted() {
            let found = try Self.vocabulary(of: [module])
            let types = found.nodeTypes.filter { grammar.hasNodeType($0, named: true) || grammar.hasNodeType($0, named: false) }
            XCTAssertEqual(types.sorted() + found.fields.intersection(grammarFields).sorted(), [], "\(module) writes the grammar's names")
        }
        XCTAssertTrue(try Self.vocabulary(of: ["SwiftGrammar"]).nodeTypes.isSuperset(of: ["comment", "statements", "call_expression"]))
        XCTAssertTrue(try Self.vocabulary(of: ["SwiftGrammar"]).fields.isSuperset(of: ["target", "operator", "if_true"]))
    }

    /// Named node types the engine acts on that the fixtures do not hold, and the test that holds them.
    static let coveredElsewhere: [String: String] = [
        "protocol_declaration": "testProtocolAndTypealiasDeclarationsAreDeclarations",
        "typealias_declaration": "testProtocolAndTypealiasDeclarationsAreDeclarations",
        "repeat_while_statement": "testARepeatLoopAroundASleepIsAClock",
        "associatedtype_declaration": "testEveryKindOfDeclarationIsADeclaration",
        "deinit_declaration": "testEveryKindOfDeclarationIsADeclaration",
        "macro_declaration": "testEveryKindOfDeclarationIsADeclaration",
        "operator_declaration": "testEveryKindOfDeclarationIsADeclaration",
        "precedence_group_declaration": "testEveryKindOfDeclarationIsADeclaration",
        "protocol_function_declaration": "testEveryKindOfDeclarationIsADeclaration",
        "protocol_property_declaration": "testEveryKindOfDeclarationIsADeclaration",
        "subscript_declaration": "testEveryKindOfDeclarationIsADeclaration",
    ]

    /// `SwiftNodeType.declarations` is every kind of declaration node the grammar has (the named node
    /// types it calls `..._declaration`): each stops a closure search, and its `name` declares a name
    /// rather than uses it. The kinds no fixture holds, parsed here: their own names are no use.
    func testEveryKindOfDeclarationIsADeclaration() throws {
        let grammarDeclarations = Language.swift.namedNodeTypes.filter { $0.hasSuffix("_declaration") }
        XCTAssertGreaterThan(grammarDeclarations.count, 10)
        XCTAssertEqual(SwiftNodeType.declarations.sorted(), grammarDeclarations.sorted())
        let tree = try Parser().parse("""
            protocol P { associatedtype Item; func run(); var count: Int { get } }
            final class C { deinit {}; subscript(i: Int) -> Int { i } }
            infix operator <~> : AdditionPrecedence
            precedencegroup Pipe { associativity: left }
            @freestanding(expression) macro stringify<T>(_ value: T) -> (T, String) = #externalMacro(module: "M", type: "S")
            """)
        var declarations: Set<String> = []
        tree.rootNode.walk { node in
            if SwiftScopes.isDeclaration(node) { declarations.insert(node.type) }
            return true
        }
        let expected = Set(Self.coveredElsewhere.filter { $0.value == "testEveryKindOfDeclarationIsADeclaration" }.keys)
            .union([SwiftNodeType.classDeclaration, SwiftNodeType.protocolDeclaration])
        XCTAssertEqual(declarations.sorted(), expected.sorted())
        XCTAssertEqual(SwiftWords.uses(of: ["Item", "run", "P", "C"], in: tree), [:])
    }

    /// `repeat { sleep; advance } while` rotates the text like a `while` loop does.
    func testARepeatLoopAroundASleepIsAClock() throws {
        let source = """
            import SwiftUI

            struct TipsView: View {
                @State private var index = 0
                private let tips = ["Loading your trips...", "Checking the weather...", "Almost there..."]

                var body: some View {
                    Text(tips[index])
                        .task {
                            repeat {
                                try? await Task.sleep(for: .seconds(2))
                                index = (index + 1) % tips.count
                            } while !Task.isCancelled
                        }
                }
            }
            """
        var types: Set<String> = []
        try Parser().parse(source).rootNode.walk { node in types.insert(node.type); return true }
        XCTAssertTrue(types.contains("repeat_while_statement"))
        let findings = try RuleHarness.findings(source, rules: .builtIn()).filter { $0.ruleId == "rotating-loading-message" }
        XCTAssertEqual(findings.map { "\($0.start.line):\($0.start.column)" }, ["8:9"])
        XCTAssertEqual(findings.first?.related.map { "\($0.line) \($0.message)" }, ["5 the strings that rotate", "11 what advances index"])
    }

    /// A protocol or typealias named like a deprecated component declares it (reported, no fix); a
    /// protocol on the keep-list is not looked into.
    func testProtocolAndTypealiasDeclarationsAreDeclarations() throws {
        let source = """
            import SwiftUI

            protocol ThemedSpinner {
                var lineWidth: CGFloat { get }
            }

            typealias LoadingOverlay = BlockingOverlayView

            protocol PulsingDot {
                var legacy: ThemedSpinner { get }
            }
            """
        let tree = try Parser().parse(source)
        var types: Set<String> = []
        tree.rootNode.walk { node in types.insert(node.type); return true }
        XCTAssertTrue(types.isSuperset(of: ["protocol_declaration", "typealias_declaration"]), types.sorted().joined(separator: " "))
        let findings = try RuleHarness.findings(source)
        XCTAssertEqual(findings.map { "\($0.ruleId) \($0.start.line):\($0.start.column) \($0.fix)" },
                       ["themed-spinner 3:10 manual", "loading-overlay 7:11 manual"])
        XCTAssertTrue(findings.allSatisfy { $0.message.contains("the declaration of") }, findings.map(\.message).joined(separator: "\n"))
    }

    /// Every named node type the engine acts on occurs in the fixtures' trees, so the fixtures' reports
    /// (compared byte for byte in other tests) exercise it; the counts are printed for a person
    /// comparing two grammars.
    func testTheFixturesHoldEveryNamedNodeTypeTheEngineActsOn() throws {
        let vocabulary = try Self.engineVocabulary()
        var counts: [String: Int] = [:]
        let parser = try Parser()
        let fixtures = Self.repositoryRoot.appendingPathComponent("fixtures")
        let files = FileManager.default.enumerator(atPath: fixtures.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(files.count, 30)
        for file in files {
            let tree = try parser.parse(SourceText(bytes: Array(try Data(contentsOf: fixtures.appendingPathComponent(file)))))
            tree.rootNode.walk { node in
                if vocabulary.nodeTypes.contains(node.type) { counts[node.type, default: 0] += 1 }
                return true
            }
        }
        let named = vocabulary.nodeTypes.filter { Language.swift.hasNodeType($0, named: true) }
        print("node types the engine names, and how often the fixtures' trees (\(files.count) files) hold them:")
        for type in vocabulary.nodeTypes.sorted() { print("  \(type) \(counts[type] ?? 0)") }
        XCTAssertEqual(named.filter { counts[$0] == nil }.sorted(), Self.coveredElsewhere.keys.sorted(), "node types the engine acts on that no fixture holds")
    }
}
